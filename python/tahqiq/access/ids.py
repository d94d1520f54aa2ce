"""Random identifiers (UUID version 4 strings) for submissions and tokens, from the operating system's CSPRNG.

`str(uuid.uuid4())` asks the kernel for 16 bytes on every call (one getrandom system call) and builds a UUID
object only to format it. Here one call fetches the randomness of 256 identifiers, formatted together: several
times cheaper an identifier (see docs/benchmarks.md, "Submission ids").
"""

from __future__ import annotations

import os

_BATCH = 256
_pending: list[str] = []


def _refill() -> None:
    raw = bytearray(os.urandom(16 * _BATCH))
    # RFC 9562 version 4: the version nibble is 4, the variant bits are 10.
    raw[6::16] = bytes((b & 0x0F) | 0x40 for b in raw[6::16])
    raw[8::16] = bytes((b & 0x3F) | 0x80 for b in raw[8::16])
    h = raw.hex()
    _pending.extend(
        f"{h[i : i + 8]}-{h[i + 8 : i + 12]}-{h[i + 12 : i + 16]}-{h[i + 16 : i + 20]}-{h[i + 20 : i + 32]}"
        for i in range(0, len(h), 32)
    )


def uuid4() -> str:
    """A new random version-4 UUID in canonical lowercase form, as `str(uuid.uuid4())` gives."""
    if not _pending:
        _refill()
    return _pending.pop()


# A forked worker must not hand out the identifiers its parent had fetched (and may still hand out).
os.register_at_fork(after_in_child=_pending.clear)
