"""Benchmark inputs built on this machine from installed packages: nothing is downloaded at run time."""

from __future__ import annotations

import random
from pathlib import Path

HUNSPELL_AR = Path("/usr/share/hunspell/ar.dic")


def arabic_vocabulary(path: Path = HUNSPELL_AR) -> list[str]:
    """Distinct Arabic word forms of Debian's hunspell-ar word list (GPL; read in place, never copied).

    Lines look like `word/flags<TAB>morph`; the file also carries a stop-word section with ':' banners.
    """
    if not path.exists():
        raise SystemExit(f"{path} is missing: run `benches/setup` (it installs Debian's hunspell-ar) and try again")
    forms: set[str] = set()
    with path.open(encoding="utf-8") as lines:
        next(lines)  # the first line is the entry count
        for line in lines:
            word = line.split("/", 1)[0].split("\t", 1)[0].strip()
            if word and all("\u0621" <= c <= "\u064a" for c in word):
                forms.add(word)
    return sorted(forms)


def perturbed_queries(vocabulary: list[str], count: int, seed: int = 2026) -> list[str]:
    """Vocabulary words with one or two random edits (delete, insert, substitute, swap), like typos."""
    rnd = random.Random(seed)
    alphabet = sorted({c for word in vocabulary[:5000] for c in word})
    queries = []
    for _ in range(count):
        chars = list(rnd.choice(vocabulary))
        for _ in range(rnd.choice((1, 1, 2))):
            at = rnd.randrange(len(chars))
            edit = rnd.randrange(4)
            if edit == 0 and len(chars) > 2:
                del chars[at]
            elif edit == 1:
                chars.insert(at, rnd.choice(alphabet))
            elif edit == 2:
                chars[at] = rnd.choice(alphabet)
            elif at + 1 < len(chars):
                chars[at], chars[at + 1] = chars[at + 1], chars[at]
        queries.append("".join(chars))
    return queries
