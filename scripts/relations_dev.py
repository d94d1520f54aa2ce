#!/usr/bin/env python3
"""Build tests/gold/relations_dev_more.jsonl, relations_dev_news.jsonl and relations_dev_news2.jsonl from their
sources in tests/gold/src/.

    python scripts/relations_dev.py

Development sentences written for the project (CC BY-SA 4.0) to calibrate and check the relation patterns; the
gold test set (tests/gold/relations.jsonl) is not built from them. relations_dev_news.txt goes on with
relations_dev_more's numbering (its first sentence is id 342) and is kept apart so that the recognizer's learned
layer, trained on relations_dev_more, never sees it: end to end on it the entities are the recognizer's on text it
was not fit on; relations_dev_news2.txt goes on from it (id 420) and is kept apart from the learned layer too.
Source format: blocks separated by blank lines;
the first line of a block is the sentence, then one line per entity, `TYPE text` (`text#n`: the n-th occurrence on
token boundaries), then one line per relation, `predicate subject text => object text` (each side names one of the
block's entities, `#n` as above). Every relation that holds between the listed entities is listed. A block whose
lines start with `#` is a comment.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from tahqiq.core import scan

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "tests" / "gold" / "src" / "relations_dev_more.txt"
TARGET = ROOT / "tests" / "gold" / "relations_dev_more.jsonl"
# each set: its source, its built file and its first id
SETS = (
    (SOURCE, TARGET, 1),
    (SOURCE.with_name("relations_dev_news.txt"), TARGET.with_name("relations_dev_news.jsonl"), 342),
    (SOURCE.with_name("relations_dev_news2.txt"), TARGET.with_name("relations_dev_news2.jsonl"), 420),
)


def locate(text: str, fragment: str) -> tuple[int, int, str]:
    """Offsets of the n-th occurrence of ``fragment`` (``text#n``) that starts and ends on scanner tokens."""
    nth = 1
    if "#" in fragment:
        fragment, _, k = fragment.rpartition("#")
        nth = int(k)
    tokens = scan(text)
    starts, ends = {t.start for t in tokens}, {t.end for t in tokens}
    found, i = 0, -1
    while found < nth:
        i = text.find(fragment, i + 1)
        if i < 0:
            raise ValueError(f"{fragment!r} (#{nth}) not found on token boundaries in {text!r}")
        if i in starts and i + len(fragment) in ends:
            found += 1
    return i, i + len(fragment), fragment


def build(source: str, first: int = 1) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    # a block of lines starting with "#" is a comment (the source's header), not a sentence
    blocks = [b for b in source.split("\n\n") if b.strip() and not b.strip().startswith("#")]
    for n, block in enumerate(blocks, first):
        text, *lines = [line.strip() for line in block.strip().splitlines()]
        ents: dict[tuple[int, int], dict[str, Any]] = {}
        rels: list[tuple[str, str, str]] = []
        for line in lines:
            if "=>" in line:
                predicate, rest = line.split(" ", 1)
                subject, obj = (x.strip() for x in rest.split("=>"))
                rels.append((predicate, subject, obj))
            else:
                typ, fragment = line.split(" ", 1)
                start, end, fragment = locate(text, fragment)
                ents[(start, end)] = {"type": typ, "start": start, "end": end, "text": fragment}

        def entity(fragment: str, n: int = n, text: str = text, ents: dict[Any, Any] = ents) -> dict[str, Any]:
            start, end, _ = locate(text, fragment)
            if (start, end) not in ents:
                raise ValueError(f"sentence {n}: {fragment!r} is not one of its entities")
            return dict(ents[(start, end)])

        out.append(
            {
                "id": n,
                "text": text,
                "entities": list(ents.values()),
                "relations": [{"predicate": p, "subject": entity(s), "object": entity(o)} for p, s, o in rels],
            }
        )
    return out


def main() -> int:
    for source, target, first in SETS:
        items = build(source.read_text(encoding="utf-8"), first)
        target.write_text("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in items), encoding="utf-8")
        n = sum(len(i["relations"]) for i in items)
        print(f"wrote {target.relative_to(ROOT)}: {len(items)} sentences, {n} relations")
    return 0


if __name__ == "__main__":
    sys.exit(main())
