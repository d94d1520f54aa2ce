"""Random identifiers: canonical version-4 UUIDs, never repeated, not even by a forked worker."""

from __future__ import annotations

import multiprocessing
import uuid

from tahqiq.access import ids


def test_identifiers_are_canonical_version_4_uuids() -> None:
    made = [ids.uuid4() for _ in range(5_000)]  # several refills
    for text in made:
        parsed = uuid.UUID(text)
        assert str(parsed) == text  # canonical: lowercase, 8-4-4-4-12
        assert parsed.version == 4 and parsed.variant == uuid.RFC_4122
    assert len(set(made)) == len(made)
    # Every other bit is random: over 5,000 ids each of the 122 random bits takes both values.
    bits = [uuid.UUID(text).int for text in made]
    fixed = (0xF << 76) | (0x3 << 62)  # the version nibble and the variant bits
    anded, ored = ~0, 0
    for value in bits:
        anded &= value
        ored |= value
    assert (anded & ~fixed) & ((1 << 128) - 1) == 0
    assert ored | fixed == (1 << 128) - 1


def _child_ids(conn: multiprocessing.connection.Connection) -> None:
    conn.send([ids.uuid4() for _ in range(10)])
    conn.close()


def test_a_forked_process_does_not_repeat_the_parents_identifiers() -> None:
    ids.uuid4()  # the parent now holds fetched identifiers it has not handed out yet
    context = multiprocessing.get_context("fork")
    parent_end, child_end = context.Pipe()
    child = context.Process(target=_child_ids, args=(child_end,))
    child.start()
    from_child = parent_end.recv()
    child.join(10)
    mine = [ids.uuid4() for _ in range(300)]
    assert not set(from_child) & set(mine)
