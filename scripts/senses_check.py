#!/usr/bin/env python3
"""Check the project's own sense inventory and its sense-tagged examples.

    python scripts/senses_check.py check   # parse both files, exit 1 with one line per problem
    python scripts/senses_check.py stats   # counts: headwords, senses per pos, examples

Files (both under python/tahqiq/analysis/data/):

``senses.txt``: ``headword<TAB>pos<TAB>number<TAB>gloss`` (``#`` starts a comment line). ``check`` fails on a
malformed line, a pos other than verb/noun, a duplicate (headword, number), numbers of a headword that do not run
1..n, and a headword listed under two parts of speech.

``senses_examples.txt``: ``headword#number | sentence`` (``//`` starts a comment line). ``check`` fails on a
malformed line, a headword#number not in senses.txt, a sentence without exactly one [bracketed] target, a repeated
sentence, and a sense of senses.txt with fewer than 5 examples.

Standard library only.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "python" / "tahqiq" / "analysis" / "data"
SENSES = DATA / "senses.txt"
EXAMPLES = DATA / "senses_examples.txt"
POS = ("verb", "noun")
MIN_EXAMPLES = 5
GLOSS_SEPARATOR = " — "
TARGET = re.compile(r"\[([^\[\]]+)\]")


def parse_senses(path: Path) -> tuple[dict[tuple[str, int], str], list[str]]:
    """Return ({(headword, number): pos}, problems)."""
    senses: dict[tuple[str, int], str] = {}
    problems: list[str] = []
    numbers: dict[str, list[tuple[int, int]]] = defaultdict(list)
    pos_of: dict[str, str] = {}
    for lineno, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.rstrip("\r")
        if not line.strip() or line.startswith("#"):
            continue
        where = f"{path.name}:{lineno}"
        fields = line.split("\t")
        if len(fields) != 4:
            problems.append(f"{where}: malformed line: expected 4 tab-separated fields, got {len(fields)}")
            continue
        headword, pos, number_text, gloss = (field.strip() for field in fields)
        if not headword or not gloss:
            problems.append(f"{where}: malformed line: empty headword or gloss")
            continue
        if GLOSS_SEPARATOR not in gloss:
            problems.append(f"{where}: malformed line: gloss has no ' — ' before the English gloss")
        if not number_text.isdigit() or int(number_text) < 1:
            problems.append(f"{where}: malformed line: number {number_text!r} is not a positive integer")
            continue
        number = int(number_text)
        if pos not in POS:
            problems.append(f"{where}: pos {pos!r} is not verb or noun")
        elif pos_of.setdefault(headword, pos) != pos:
            problems.append(f"{where}: {headword} is listed as {pos_of[headword]} and as {pos}")
        if (headword, number) in senses:
            problems.append(f"{where}: duplicate sense {headword}#{number}")
            continue
        senses[(headword, number)] = pos
        numbers[headword].append((number, lineno))
    for headword, found in numbers.items():
        got = sorted(number for number, _ in found)
        if got != list(range(1, len(got) + 1)):
            first = min(lineno for _, lineno in found)
            problems.append(
                f"{path.name}:{first}: numbers of {headword} do not run 1..{len(got)}: {', '.join(map(str, got))}"
            )
    return senses, problems


def parse_examples(path: Path, senses: dict[tuple[str, int], str]) -> tuple[Counter[tuple[str, int]], list[str]]:
    """Return (examples per sense, problems)."""
    per_sense: Counter[tuple[str, int]] = Counter()
    problems: list[str] = []
    seen: dict[str, int] = {}
    for lineno, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.rstrip("\r")
        if not line.strip() or line.startswith("//"):
            continue
        where = f"{path.name}:{lineno}"
        key, bar, sentence = line.partition(" | ")
        headword, hash_sign, number_text = key.strip().rpartition("#")
        sentence = sentence.strip()
        if not bar or not hash_sign or not headword or not number_text.isdigit() or not sentence:
            problems.append(f"{where}: malformed line: expected 'headword#number | sentence'")
            continue
        sense = (headword, int(number_text))
        if sense not in senses:
            problems.append(f"{where}: {headword}#{number_text} is not a sense of senses.txt")
        else:
            per_sense[sense] += 1
        targets = TARGET.findall(sentence)
        if len(targets) != 1 or sentence.count("[") != 1 or sentence.count("]") != 1:
            problems.append(f"{where}: expected exactly one [bracketed] target, found {len(targets)}")
        plain = " ".join(sentence.split())
        if plain in seen:
            problems.append(f"{where}: sentence repeated from line {seen[plain]}")
        else:
            seen[plain] = lineno
    for sense in senses:
        if per_sense[sense] < MIN_EXAMPLES:
            problems.append(
                f"{path.name}: {sense[0]}#{sense[1]} has {per_sense[sense]} examples, fewer than {MIN_EXAMPLES}"
            )
    return per_sense, problems


def check() -> int:
    senses, problems = parse_senses(SENSES)
    _, example_problems = parse_examples(EXAMPLES, senses)
    problems += example_problems
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} problem(s)", file=sys.stderr)
        return 1
    print(f"ok: {SENSES.name} and {EXAMPLES.name}")
    return 0


def stats() -> int:
    senses, problems = parse_senses(SENSES)
    per_sense, example_problems = parse_examples(EXAMPLES, senses)
    for pos in POS:
        keys = [sense for sense, sense_pos in senses.items() if sense_pos == pos]
        headwords = {headword for headword, _ in keys}
        examples = sum(per_sense[sense] for sense in keys)
        print(f"{pos}: {len(headwords)} headwords, {len(keys)} senses, {examples} examples")
    headwords = {headword for headword, _ in senses}
    print(f"all: {len(headwords)} headwords, {len(senses)} senses, {sum(per_sense.values())} examples")
    if problems or example_problems:
        print(f"({len(problems) + len(example_problems)} problem(s): run check)")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=("check", "stats"))
    args = parser.parse_args(argv)
    return check() if args.command == "check" else stats()


if __name__ == "__main__":
    sys.exit(main())
