"""Build and check the running-text morphology gold set.

Source: tests/gold/src/morph_running.txt (human-readable, tab-separated).
Output: tests/gold/morph_running.jsonl, one line per token.

    python scripts/morph_running_gold.py build   # write the jsonl
    python scripts/morph_running_gold.py check   # exit 1 if the jsonl differs from a rebuild
    python scripts/morph_running_gold.py stats   # token counts per genre and POS

The source is validated on every run: each sentence's annotated tokens must be, in order,
exactly the sentence's Arabic-letter runs; labels, genres and roots must be well formed.
Any problem stops the run with the source line numbers (exit 2).
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "tests" / "gold" / "src" / "morph_running.txt"
OUTPUT = ROOT / "tests" / "gold" / "morph_running.jsonl"

POS_LABELS = frozenset({"noun", "adj", "verb", "adv", "pron", "prep", "conj", "part", "noun_prop", "num"})
GENRES = ("news", "story", "instructions", "notice")
# POS whose root is always empty (particles, pronouns, proper nouns).
ROOTLESS_POS = frozenset({"pron", "prep", "conj", "part", "noun_prop"})

# A token: an Arabic letter (U+0621-U+064A, which includes tatweel U+0640, or alef wasla
# U+0671) followed by letters and diacritics (U+064B-U+0652).
TOKEN_RE = re.compile("[\u0621-\u064a\u0671][\u0621-\u0652\u0671]*")
# Lemmas are written bare: letters only, no diacritics, no tatweel.
LEMMA_RE = re.compile("^[\u0621-\u063a\u0641-\u064a\u0671]+$")
# Root letters: hamza written ء, no hamza seats, no ta marbuta, no alef maqsura.
ROOT_LETTERS = frozenset("ءابتثجحخدذرزسشصضطظعغفقكلمنهوي")
GENRE_RE = re.compile(r"^#\s*genre:\s*(\S+)\s*$")


class SourceError(Exception):
    """The source file is malformed."""


def tokenize(sentence: str) -> list[str]:
    """The sentence's Arabic-letter runs, in order."""
    return TOKEN_RE.findall(sentence)


def _check_root(root: str) -> str | None:
    if root == "":
        return None
    letters = root.split(" ")
    if not 3 <= len(letters) <= 4:
        return f"root {root!r} must have 3 or 4 space-separated letters"
    for letter in letters:
        if len(letter) != 1 or letter not in ROOT_LETTERS:
            return f"root {root!r}: bad letter {letter!r}"
    return None


def parse(text: str) -> list[dict]:
    """Parse the source text into sentences; raise SourceError listing every problem."""
    errors: list[str] = []
    sentences: list[dict] = []
    genre: str | None = None
    current: dict | None = None

    def close() -> None:
        nonlocal current
        if current is None:
            return
        expected = tokenize(current["sentence"])
        got = [t["token"] for t in current["tokens"]]
        if got != expected:
            errors.append(
                f"line {current['line']}: tokens do not match the sentence's Arabic-letter runs\n"
                f"    sentence: {expected}\n    annotated: {got}"
            )
        sentences.append(current)
        current = None

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\n")
        if line.strip() == "":
            close()
            continue
        if line.startswith("#"):
            close()
            match = GENRE_RE.match(line)
            if match:
                genre = match.group(1)
                if genre not in GENRES:
                    errors.append(f"line {number}: unknown genre {genre!r}")
            continue
        if line.startswith("S\t"):
            close()
            if genre is None:
                errors.append(f"line {number}: sentence before any '# genre:' line")
            current = {"line": number, "genre": genre, "sentence": line[2:], "tokens": []}
            continue
        if current is None:
            errors.append(f"line {number}: token line outside a sentence: {line!r}")
            continue
        fields = line.split("\t")
        if len(fields) != 4:
            errors.append(f"line {number}: expected 4 tab-separated fields, got {len(fields)}")
            continue
        token, lemma, root, pos = fields
        if pos not in POS_LABELS:
            errors.append(f"line {number}: unknown POS {pos!r}")
        if not LEMMA_RE.match(lemma):
            errors.append(f"line {number}: lemma {lemma!r} must be bare Arabic letters")
        problem = _check_root(root)
        if problem:
            errors.append(f"line {number}: {problem}")
        if pos in ROOTLESS_POS and root:
            errors.append(f"line {number}: POS {pos} takes an empty root, got {root!r}")
        current["tokens"].append({"token": token, "lemma": lemma, "root": root, "pos": pos})
    close()

    for sentence in sentences:
        if not sentence["tokens"]:
            errors.append(f"line {sentence['line']}: sentence without tokens")
    if errors:
        raise SourceError("\n".join(errors))
    return sentences


def records(sentences: list[dict]) -> list[dict]:
    """One record per token, numbered through the whole file."""
    out: list[dict] = []
    token_id = 0
    for sentence_id, sentence in enumerate(sentences, start=1):
        for index, token in enumerate(sentence["tokens"]):
            token_id += 1
            out.append(
                {
                    "id": token_id,
                    "sentence_id": sentence_id,
                    "genre": sentence["genre"],
                    "sentence": sentence["sentence"],
                    "index": index,
                    "token": token["token"],
                    "lemma": token["lemma"],
                    "root": token["root"],
                    "pos": token["pos"],
                }
            )
    return out


def render(source: Path = SOURCE) -> str:
    """The jsonl text the source builds to."""
    sentences = parse(source.read_text(encoding="utf-8"))
    lines = [json.dumps(r, ensure_ascii=False) for r in records(sentences)]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0] not in {"build", "check", "stats"}:
        print("usage: morph_running_gold.py build|check|stats", file=sys.stderr)
        return 2
    command = argv[0]
    try:
        text = render()
    except SourceError as error:
        print(f"{SOURCE}: invalid source\n{error}", file=sys.stderr)
        return 2
    if command == "build":
        OUTPUT.write_text(text, encoding="utf-8")
        print(f"wrote {OUTPUT} ({text.count(chr(10))} tokens)")
        return 0
    if command == "check":
        current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else None
        if current != text:
            print(f"{OUTPUT} differs from a rebuild of {SOURCE}; run build", file=sys.stderr)
            return 1
        print(f"{OUTPUT} is up to date")
        return 0
    rows = [json.loads(line) for line in text.splitlines()]
    genres = Counter(r["genre"] for r in rows)
    sentences = {r["sentence_id"] for r in rows}
    print(f"tokens {len(rows)}, sentences {len(sentences)}")
    for genre in GENRES:
        print(f"  {genre}: {genres[genre]}")
    for pos, count in Counter(r["pos"] for r in rows).most_common():
        print(f"  {pos}: {count}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
