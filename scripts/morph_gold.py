#!/usr/bin/env python3
"""Build and check the morphology gold sets tests/gold/<set>.jsonl from their sources tests/gold/src/<set>.txt.

    python scripts/morph_gold.py build morph_running   # src -> jsonl (nothing is written if the source has problems)
    python scripts/morph_gold.py check morph_train     # exit 1 if a rule is broken or the jsonl differs from a rebuild
    python scripts/morph_gold.py stats all             # token counts per genre and POS

Sets (their rules are the table SETS below):
- morph_running: a BLIND running-text test set; never used to tune, every look at the analyser's score is counted.
- morph_train: the development (training) corpus of issue 20; it may be read and tuned on.

Source format: `#` comment lines; `# genre: <genre>` before each paragraph; each sentence as `S<TAB>sentence`
followed by one line per token `token<TAB>lemma<TAB>root<TAB>pos`; a blank line between sentences. The tokens of a
sentence must be exactly its maximal runs of Arabic letters (U+0621-U+064A, U+0671, with the diacritics U+064B-U+0652
and tatweel inside), in order: punctuation and digits are not tokens. Roots are letters separated by single spaces
(hamza written ء), or empty.

jsonl: one token a line, `{"id", "sentence_id", "genre", "sentence", "index", "token", "lemma", "root", "pos"}`;
`id` counts tokens from 1 over the file, `sentence_id` sentences from 1, `index` is the token's position in its
sentence from 0. Only the source is read here, never the analyser. Every problem names its source line.
Exit 0 when all is well, 1 on a problem or a stale jsonl, 2 on a usage error.
"""

import json
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parent.parent
GOLD = ROOT / "tests" / "gold"
USAGE = "usage: python scripts/morph_gold.py build|check|stats morph_running|morph_train|all"
COMMANDS = ("build", "check", "stats")
POS = frozenset({"noun", "adj", "verb", "adv", "pron", "prep", "conj", "part", "noun_prop", "num"})
# a token: an Arabic letter, then letters and diacritics (tatweel U+0640 lies inside the letter range)
TOKEN = re.compile("[\u0621-\u064a\u0671][\u0621-\u064a\u0671\u064b-\u0652]*")
LETTER = re.compile("[\u0621-\u064a\u0671]")
BARE_LEMMA = re.compile("[\u0621-\u063a\u0641-\u064a\u0671]+")  # letters only: no diacritics, no tatweel
GENRE_LINE = re.compile(r"#\s*genre:(.*)")


@dataclass(frozen=True)
class GoldSet:
    """One set's files and the rules its source must follow (beyond the format and the POS labels)."""

    name: str
    source: Path
    output: Path
    genres: tuple[str, ...]  # the allowed genres, in the order `stats` lists them
    root_sizes: tuple[int, int]  # least and most letters of a non-empty root
    root_letters: frozenset[str]  # the letters a root may be written with
    rootless_pos: frozenset[str] = frozenset()  # POS whose root must be empty
    bare_lemmas: bool = False  # lemmas are letters only; otherwise an Arabic word without outer spaces
    tokenless_sentences: bool = True  # a sentence without Arabic letters may have no token lines
    unique_sentences: bool = False  # no sentence twice


SETS: dict[str, GoldSet] = {
    "morph_running": GoldSet(
        name="morph_running",
        source=GOLD / "src" / "morph_running.txt",
        output=GOLD / "morph_running.jsonl",
        genres=("news", "story", "instructions", "notice"),
        root_sizes=(3, 4),
        # hamza written ء: no hamza seats, no ta marbuta, no alef maqsura
        root_letters=frozenset("ءابتثجحخدذرزسشصضطظعغفقكلمنهوي"),
        rootless_pos=frozenset({"pron", "prep", "conj", "part", "noun_prop"}),
        bare_lemmas=True,
        tokenless_sentences=False,
    ),
    "morph_train": GoldSet(
        name="morph_train",
        source=GOLD / "src" / "morph_train.txt",
        output=GOLD / "morph_train.jsonl",
        genres=("news", "story", "instructions", "notice", "letter", "textbook", "opinion"),
        root_sizes=(2, 4),
        root_letters=frozenset(map(chr, range(0x621, 0x64B))),  # U+0621-U+064A
        unique_sentences=True,
    ),
}


class Token(NamedTuple):
    token: str
    lemma: str
    root: str
    pos: str
    line: int


@dataclass
class Sentence:
    line: int
    genre: str
    text: str
    tokens: list[Token]


def tokenize(sentence: str) -> list[str]:
    """The sentence's tokens: its maximal runs of Arabic letters, diacritics and tatweel inside."""
    return TOKEN.findall(sentence)


def parse(text: str, rules: GoldSet) -> tuple[list[Sentence], list[str]]:
    """The source's sentences and its layout errors (genres included); `problems` checks the annotation."""
    sentences: list[Sentence] = []
    errors: list[str] = []
    genre = ""
    current: Sentence | None = None
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            current = None
            if match := GENRE_LINE.match(line):
                genre = match[1].strip()
                if genre not in rules.genres:
                    errors.append(f"line {n}: genre {genre!r} is not one of {list(rules.genres)}")
        elif line.startswith("S\t"):
            if not genre:
                errors.append(f"line {n}: a sentence before any `# genre:` line")
            current = Sentence(n, genre, line[2:], [])
            sentences.append(current)
        elif current is None:
            errors.append(f"line {n}: a token line outside a sentence: {line!r}")
        elif len(fields := line.split("\t")) != 4:
            errors.append(f"line {n}: {len(fields)} fields, not token, lemma, root, pos: {line!r}")
        else:
            current.tokens.append(Token(*fields, line=n))
    return sentences, errors


def token_problems(t: Token, rules: GoldSet) -> list[str]:
    """What is wrong with one token line under the set's rules."""
    errs = []
    if t.pos not in POS:
        errs.append(f"pos {t.pos!r} is not one of {sorted(POS)}")
    if rules.bare_lemmas and not BARE_LEMMA.fullmatch(t.lemma):
        errs.append(f"lemma {t.lemma!r} is not bare Arabic letters")
    elif not LETTER.search(t.lemma) or t.lemma != t.lemma.strip():
        errs.append(f"lemma {t.lemma!r} is not an Arabic word")
    letters = t.root.split(" ")
    least, most = rules.root_sizes
    if t.root and not (least <= len(letters) <= most and all(x in rules.root_letters for x in letters)):
        errs.append(f"root {t.root!r} is not {least}-{most} root letters separated by single spaces, or empty")
    if t.root and t.pos in rules.rootless_pos:
        errs.append(f"root {t.root!r}: pos {t.pos} takes an empty root")
    return errs


def problems(sentences: list[Sentence], rules: GoldSet) -> list[str]:
    """Everything wrong with the annotation: tokens that are not the sentence's Arabic-letter runs, and the
    set's rules on sentences, labels, lemmas and roots."""
    errs: list[str] = []
    seen: dict[str, int] = {}
    for s in sentences:
        if rules.unique_sentences and s.text in seen:
            errs.append(f"line {s.line}: the sentence of line {seen[s.text]} again")
        seen.setdefault(s.text, s.line)
        if not s.tokens and not rules.tokenless_sentences:
            errs.append(f"line {s.line}: a sentence without tokens")
        got, expected = [t.token for t in s.tokens], tokenize(s.text)
        if got != expected:
            errs.append(f"line {s.line}: tokens {got} are not the sentence's Arabic-letter runs {expected}")
        errs += [f"line {t.line}: {t.token}: {e}" for t in s.tokens for e in token_problems(t, rules)]
    return errs


def read(rules: GoldSet, text: str | None = None) -> tuple[list[Sentence], list[str]]:
    """The set's sentences and every problem of its source (`text`, or the source file)."""
    sentences, errors = parse(rules.source.read_text(encoding="utf-8") if text is None else text, rules)
    return sentences, errors + problems(sentences, rules)


def rows(sentences: list[Sentence]) -> list[dict[str, Any]]:
    """The jsonl rows of the parsed sentences, in order."""
    out: list[dict[str, Any]] = []
    for sentence_id, s in enumerate(sentences, 1):
        for index, t in enumerate(s.tokens):
            out.append(
                {
                    "id": len(out) + 1,
                    "sentence_id": sentence_id,
                    "genre": s.genre,
                    "sentence": s.text,
                    "index": index,
                    "token": t.token,
                    "lemma": t.lemma,
                    "root": t.root,
                    "pos": t.pos,
                }
            )
    return out


def dumps(out: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in out)


def run(command: str, rules: GoldSet) -> int:
    sentences, errs = read(rules)
    for e in errs:
        print(f"{rules.source.name}: {e}", file=sys.stderr)
    if errs:
        print(f"{rules.source.name}: {len(errs)} problems", file=sys.stderr)
        return 1
    out = rows(sentences)
    size = f"{len(sentences)} sentences, {len(out)} tokens"
    if command == "build":
        rules.output.write_text(dumps(out), encoding="utf-8")
        print(f"wrote {rules.output.name}: {size}")
    elif command == "check":
        if not rules.output.exists() or rules.output.read_text(encoding="utf-8") != dumps(out):
            print(f"{rules.output.name} differs from a rebuild of {rules.source.name}: run build", file=sys.stderr)
            return 1
        print(f"{rules.output.name} is up to date: {size}")
    else:
        print(f"{rules.output.name}: {size}")
        genres = Counter(r["genre"] for r in out)
        for genre in rules.genres:
            print(f"  {genre}: {genres[genre]}")
        for pos, count in Counter(r["pos"] for r in out).most_common():
            print(f"  {pos}: {count}")
    return 0


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in COMMANDS or argv[1] not in [*SETS, "all"]:
        print(USAGE, file=sys.stderr)
        return 2
    command, name = argv
    chosen = list(SETS.values()) if name == "all" else [SETS[name]]
    return max(run(command, rules) for rules in chosen)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
