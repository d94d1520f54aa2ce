#!/usr/bin/env python3
"""Build and check the blind word-sense test set tests/gold/wsd_test.jsonl from tests/gold/src/wsd_test.txt.

The set was written blind (see the source's header and tests/gold/WSD.md): its author read only the sense
inventory, never the disambiguator, and never ran it on these sentences. It measures; it must never be used to tune.
Licence CC BY-SA 4.0.

    python scripts/wsd_gold.py build    # src -> jsonl, then check
    python scripts/wsd_gold.py check    # check the jsonl only
    python scripts/wsd_gold.py build wsd_natural   # another set of the same format: tests/gold/src/<set>.txt
    python scripts/wsd_gold.py build wsd_test3     # the third blind set (nouns and verbs)

The development set wsd_natural (natural sentences, see its source's header) is built by the same code; unlike
wsd_test it may be used to tune, except its held-back tail. wsd_test2 is a second blind test set, written the same
way by another author (its source's header and tests/gold/WSD.md); like wsd_test it must never be used to tune.
wsd_test3 is a third blind test set over the most frequent ambiguous nouns and verbs of news and everyday prose (the
verbs' senses are the project's, source tahqiq, which SenseInventory already holds); its sentences are 6 to 25 words
(the older sets 8 to 25). Like wsd_test it must never be used to tune.

Source format: `//` comment lines, then one item a line, `lemma | sense id | sentence`, the target word (clitics
included) in [brackets]. Offsets are code points and must fall on word-token boundaries of the scanner
(tests/support/reference_text.py `scan_ref`, the pure-Python twin of tahqiq.core.scan). The gloss is copied from the
inventory, so a sense id the inventory does not hold fails the build. Only the inventory is read here, never the
disambiguator.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Final

ROOT = Path(__file__).resolve().parent.parent
GOLD = ROOT / "tests" / "gold"
SRC = GOLD / "src" / "wsd_test.txt"
CACHE = ROOT / "var" / "cache"
FIELDS = ("id", "text", "token", "start", "end", "lemma", "expected_sense_id", "expected_gloss")
MIN_WORDS, MAX_WORDS = 8, 25
MIN_WORDS_OF: Final = {"wsd_test3": 6}  # a set written to a shorter lower bound; the others keep MIN_WORDS
sys.path.insert(0, str(ROOT))  # tools/ (the evaluation, not in the wheel) and tests/support (the reference twins)
from tahqiq.analysis.wsd import SenseInventory  # noqa: E402

from tests.support.reference_text import scan_ref  # noqa: E402
from tools.evaluate.wsd import read_gold  # noqa: E402


def inventory(cache_dir: Path = CACHE) -> SenseInventory:
    inv = SenseInventory(cache_dir)
    inv.load()
    return inv


def parse(path: Path = SRC) -> list[tuple[str, str, str, str, int, int]]:
    """(lemma, sense id, text, token, start, end) for each item line of the source."""
    items = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("//"):
            continue
        lemma, sense_id, marked = (part.strip() for part in line.split(" | "))
        if marked.count("[") != 1 or marked.count("]") != 1:
            raise ValueError(f"{path.name}:{n}: mark exactly one target word with [brackets]")
        start = marked.index("[")
        end = marked.index("]") - 1
        text = marked.replace("[", "").replace("]", "")
        items.append((lemma, sense_id, text, text[start:end], start, end))
    return items


def rows(inv: SenseInventory, path: Path = SRC) -> list[dict[str, Any]]:
    out = []
    for i, (lemma, sense_id, text, token, start, end) in enumerate(parse(path), 1):
        sense = inv.get(sense_id)
        if sense is None:
            raise ValueError(f"item {i}: sense id {sense_id} is not in the inventory")
        out.append(
            {
                "id": i,
                "text": text,
                "token": token,
                "start": start,
                "end": end,
                "lemma": lemma,
                "expected_sense_id": sense_id,
                "expected_gloss": sense.gloss,
            }
        )
    return out


def words(text: str) -> int:
    return sum(1 for w in text.split() if any(c.isalnum() for c in w))


def problems(items: list[dict[str, Any]], inv: SenseInventory, min_words: int = MIN_WORDS) -> list[str]:
    """Everything wrong with the items' shape: fields, offsets, token boundaries, sense ids, glosses, lengths
    (min_words to MAX_WORDS words), ids, and lemmas seen in fewer than two senses."""
    errs: list[str] = []
    senses: dict[str, set[str]] = {}
    seen: set[int] = set()
    for r in items:
        where = f"item {r.get('id')}"
        if tuple(r) != FIELDS:
            errs.append(f"{where}: fields {tuple(r)} are not {FIELDS}")
            continue
        if r["id"] in seen:
            errs.append(f"{where}: duplicate id")
        seen.add(r["id"])
        text, start, end = r["text"], r["start"], r["end"]
        if text[start:end] != r["token"]:
            errs.append(f"{where}: text[{start}:{end}] is {text[start:end]!r}, not {r['token']!r}")
        if (r["token"], start, end) not in {(t, s, e) for t, s, e, kind in scan_ref(text) if kind == "word"}:
            errs.append(f"{where}: {r['token']!r} is not one word token of the scanner")
        if not min_words <= words(text) <= MAX_WORDS:
            errs.append(f"{where}: {words(text)} words, not {min_words}-{MAX_WORDS}")
        sense = inv.get(r["expected_sense_id"])
        if sense is None:
            errs.append(f"{where}: sense id {r['expected_sense_id']} is not in the inventory")
            continue
        if sense.gloss != r["expected_gloss"]:
            errs.append(f"{where}: expected_gloss differs from the inventory's gloss of {sense.sense_id}")
        if sense not in inv.senses_for(r["lemma"]):
            errs.append(f"{where}: {sense.sense_id} is not a sense of the lemma {r['lemma']!r}")
        senses.setdefault(r["lemma"], set()).add(sense.sense_id)
    errs += [f"lemma {lemma!r}: only one sense over the set" for lemma, ids in senses.items() if len(ids) < 2]
    return errs


SETS: Final = ("wsd_test", "wsd_natural", "wsd_test2", "wsd_test3")


def main(argv: list[str]) -> int:
    name = argv[1] if len(argv) > 1 else "wsd_test"
    if argv[:1] not in (["build"], ["check"]) or name not in SETS:
        print(__doc__)
        return 2
    src, out = GOLD / "src" / f"{name}.txt", GOLD / f"{name}.jsonl"
    inv = inventory()
    if argv[0] == "build":
        with out.open("w", encoding="utf-8") as f:
            for r in rows(inv, src):
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
    items = read_gold(out)
    errs = problems(items, inv, MIN_WORDS_OF.get(name, MIN_WORDS))
    for e in errs:
        print(e)
    lemmas = {r["lemma"] for r in items}
    senses = {r["expected_sense_id"] for r in items}
    print(f"{out.name}: {len(items)} items, {len(lemmas)} lemmas, {len(senses)} senses, {len(errs)} problems")
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
