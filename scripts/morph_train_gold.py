#!/usr/bin/env python3
"""Build and check the morphology development (training) corpus tests/gold/morph_train.jsonl from its source
tests/gold/src/morph_train.txt.

Everyday and news MSA written for the project (issue 20: choose each word's analysis in its sentence), every word
token annotated in context with lemma, root and POS under the conventions of docs/design/morphology.md; the
source's header states the choices those conventions leave open. Development and training only: it may be read and
tuned on (it is not a blind set). Licence CC BY-SA 4.0.

    python3 scripts/morph_train_gold.py build    # src -> jsonl, then check
    python3 scripts/morph_train_gold.py check    # exit 1 when the jsonl differs from a rebuild or a rule is broken

Source format: `#` header lines; `# genre: <genre>` before each paragraph; each sentence as `S<TAB>sentence`
followed by one line per token `token<TAB>lemma<TAB>root<TAB>pos`; a blank line between sentences. The tokens of
a sentence must be exactly its maximal runs of Arabic letters (U+0621-U+064A, U+0671, with the diacritics
U+064B-U+0652 and tatweel inside), in order: punctuation and digits are not tokens.

jsonl: one token a line, `{"id", "sentence_id", "genre", "sentence", "index", "token", "lemma", "root", "pos"}`;
`id` counts tokens from 1 over the file, `sentence_id` sentences from 1, `index` is the token's position in its
sentence from 0. Only the source is read here, never the analyser.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any, Final

ROOT = Path(__file__).resolve().parent.parent
SRC: Final = ROOT / "tests" / "gold" / "src" / "morph_train.txt"
OUT: Final = ROOT / "tests" / "gold" / "morph_train.jsonl"
FIELDS: Final = ("id", "sentence_id", "genre", "sentence", "index", "token", "lemma", "root", "pos")
POS: Final = frozenset({"noun", "adj", "verb", "adv", "pron", "prep", "conj", "part", "noun_prop", "num"})
GENRES: Final = frozenset({"news", "story", "instructions", "notice", "letter", "textbook", "opinion"})
# a token: a letter, then letters and diacritics (tatweel U+0640 lies inside the letter range)
TOKEN: Final = re.compile("[\u0621-\u064a\u0671][\u0621-\u064a\u0671\u064b-\u0652]*")
LETTERS: Final = re.compile("[\u0621-\u064a\u0671]")
# a root: two to four letters separated by single spaces (hamza written ء), or "" (particles, pronouns, names)
ROOT_FORM: Final = re.compile("(?:[\u0621-\u064a](?: [\u0621-\u064a]){1,3})?")


def arabic_tokens(sentence: str) -> list[str]:
    """The sentence's tokens: its maximal runs of Arabic letters, diacritics and tatweel inside."""
    return TOKEN.findall(sentence)


def parse(path: Path = SRC) -> tuple[list[dict[str, Any]], list[str]]:
    """Sentences `{"genre", "sentence", "tokens": [(token, lemma, root, pos)], "line"}` and the format errors."""
    sentences: list[dict[str, Any]] = []
    errors: list[str] = []
    genre = ""
    current: dict[str, Any] | None = None
    for n, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.rstrip("\r")
        if not line.strip():
            current = None
            continue
        if line.startswith("#"):
            current = None
            if line.startswith("# genre:"):
                genre = line.removeprefix("# genre:").strip()
                if genre not in GENRES:
                    errors.append(f"line {n}: genre {genre!r} is not one of {sorted(GENRES)}")
            continue
        if line.startswith("S\t"):
            if not genre:
                errors.append(f"line {n}: a sentence before any `# genre:` line")
            current = {"genre": genre, "sentence": line[2:], "tokens": [], "line": n}
            sentences.append(current)
            continue
        if current is None:
            errors.append(f"line {n}: a token line outside a sentence: {line!r}")
            continue
        fields = line.split("\t")
        if len(fields) != 4:
            errors.append(f"line {n}: {len(fields)} fields, not token, lemma, root, pos: {line!r}")
            continue
        current["tokens"].append(tuple(fields))
    return sentences, errors


def rows(sentences: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The jsonl rows of the parsed sentences, in order."""
    out: list[dict[str, Any]] = []
    for sentence_id, s in enumerate(sentences, 1):
        for index, (token, lemma, root, pos) in enumerate(s["tokens"]):
            out.append(
                {
                    "id": len(out) + 1,
                    "sentence_id": sentence_id,
                    "genre": s["genre"],
                    "sentence": s["sentence"],
                    "index": index,
                    "token": token,
                    "lemma": lemma,
                    "root": root,
                    "pos": pos,
                }
            )
    return out


def problems(sentences: list[dict[str, Any]]) -> list[str]:
    """Everything wrong with the annotation: tokens that are not the sentence's Arabic-letter runs, labels outside
    the POS set, empty lemmas, malformed roots, repeated sentences."""
    errs: list[str] = []
    seen: dict[str, int] = {}
    for s in sentences:
        where = f"line {s['line']}"
        text = s["sentence"]
        if text in seen:
            errs.append(f"{where}: the sentence of line {seen[text]} again")
        seen.setdefault(text, s["line"])
        expected = arabic_tokens(text)
        got = [t[0] for t in s["tokens"]]
        if got != expected:
            errs.append(f"{where}: tokens {got} are not the sentence's Arabic-letter runs {expected}")
        for token, lemma, root, pos in s["tokens"]:
            if pos not in POS:
                errs.append(f"{where}: {token}: pos {pos!r} is not one of {sorted(POS)}")
            if not LETTERS.search(lemma) or lemma != lemma.strip():
                errs.append(f"{where}: {token}: lemma {lemma!r} is not an Arabic word")
            if not ROOT_FORM.fullmatch(root):
                errs.append(f"{where}: {token}: root {root!r} is not 2-4 spaced letters or empty")
    return errs


def dumps(out: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in out)


def main(argv: list[str]) -> int:
    if argv not in (["build"], ["check"]):
        print(__doc__)
        return 2
    sentences, errs = parse(SRC)
    errs += problems(sentences)
    built = dumps(rows(sentences))
    if argv == ["build"]:
        OUT.write_text(built, encoding="utf-8")
    elif not OUT.exists() or OUT.read_text(encoding="utf-8") != built:
        errs.append(f"{OUT.name} differs from a rebuild of {SRC.name}: run `python3 scripts/morph_train_gold.py build`")
    for e in errs:
        print(e)
    n_tokens = sum(len(s["tokens"]) for s in sentences)
    print(f"{OUT.name}: {len(sentences)} sentences, {n_tokens} tokens, {len(errs)} problems")
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
