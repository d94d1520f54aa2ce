#!/usr/bin/env python3
"""Check the project's own word senses and their sense-tagged examples (python/tahqiq/analysis/data/senses.txt and
senses_examples.txt; formats in python/tahqiq/analysis/data/README.md).

    python scripts/senses_check.py check [--senses FILE] [--examples FILE]   # exit 1, one line per problem
    python scripts/senses_check.py stats                                     # headwords, senses, examples

The files are read by the package's own parsers (`tahqiq.analysis.project_senses`), which stop at the first
malformed line; `check` then also fails on a gloss without its English part after " — ", a headword under two
parts of speech, the numbers of a headword that do not run 1..n, an example naming no sense of senses.txt, a
repeated sentence, and a sense with fewer than 5 examples.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

from tahqiq.analysis.project_senses import (
    SENSES_EXAMPLES_FILE,
    SENSES_FILE,
    MarkedSentence,
    ProjectSense,
    read_marked,
    read_senses,
)

MIN_EXAMPLES = 5
GLOSS_SEPARATOR = " — "


def problems(senses: list[ProjectSense], marked: list[MarkedSentence]) -> list[str]:
    """What the parsers let through but the data must not hold."""
    out: list[str] = []
    pos_of: dict[str, str] = {}
    numbers: dict[str, list[int]] = defaultdict(list)
    for s in senses:
        where = f"senses.txt line {s.line}"
        if GLOSS_SEPARATOR not in s.gloss:
            out.append(f"{where}: the gloss has no ' — ' before its English gloss")
        if pos_of.setdefault(s.headword, s.pos) != s.pos:
            out.append(f"{where}: {s.headword} is listed as {pos_of[s.headword]} and as {s.pos}")
        numbers[s.headword].append(s.number)
    for headword, got in numbers.items():
        if sorted(got) != list(range(1, len(got) + 1)):
            out.append(f"senses.txt: the numbers of {headword} do not run 1..{len(got)}: {sorted(got)}")
    written = {(s.headword, s.number) for s in senses}
    per_sense: Counter[tuple[str, int]] = Counter()
    seen: set[str] = set()
    for m in marked:
        sense = (m.headword, m.number)
        if sense not in written:
            out.append(f"senses_examples.txt: {m.headword}#{m.number} is no sense of senses.txt")
        per_sense[sense] += 1
        plain = " ".join(m.text.split())
        if plain in seen:
            out.append(f"senses_examples.txt: a sentence repeated: {plain}")
        seen.add(plain)
    out += [
        f"senses_examples.txt: {h}#{n} has {per_sense[(h, n)]} examples, fewer than {MIN_EXAMPLES}"
        for h, n in sorted(written)
        if per_sense[(h, n)] < MIN_EXAMPLES
    ]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=("check", "stats"))
    parser.add_argument("--senses", type=Path, default=SENSES_FILE)
    parser.add_argument("--examples", type=Path, default=SENSES_EXAMPLES_FILE)
    args = parser.parse_args(argv)
    try:
        senses, marked = read_senses(args.senses), read_marked(args.examples)
    except (OSError, ValueError) as exc:
        print(exc)
        return 1
    if args.command == "stats":
        for pos in ("verb", "noun"):
            of_pos = [s for s in senses if s.pos == pos]
            print(f"{pos}: {len({s.headword for s in of_pos})} headwords, {len(of_pos)} senses")
        print(f"examples: {len(marked)}")
        return 0
    found = problems(senses, marked)
    for line in found:
        print(line)
    print(f"{len(found)} problems in {args.senses.name} and {args.examples.name}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
