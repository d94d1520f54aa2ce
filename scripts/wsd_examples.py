#!/usr/bin/env python3
"""Check the sense-tagged examples python/tahqiq/analysis/data/wsd_examples.txt, and cross-validate their use.

    python scripts/wsd_examples.py check   # every sense id exists, belongs to its lemma and the marked word
    python scripts/wsd_examples.py cv      # 5-fold sentence-disjoint CV on the examples + the development sets
    python scripts/wsd_examples.py score --gold tests/gold/wsd_natural.jsonl --ids 73-98   # one set, once
    python scripts/wsd_examples.py speed   # in-process latency with and without the examples, interleaved

``check`` fails (exit 1) when a line names a sense id the inventory does not hold, a sense of another lemma, or a
marked word not written like the lemma (its lemma, token or light stem must find the sense); when a lemma
has fewer than two senses or a sense fewer than three sentences; or when a sentence is repeated. Marked words
that the morphology reads under another headword (or as a verb) are listed, not failed: their sentences still give
the sense's profile, and the CV below counts them as errors.

``cv`` scores, for a grid of (example weight, smoothing, root weight, second-hand weight), the examples themselves
by 5-fold cross-validation (fold = the sentence's rank within its sense mod 5, so every sense is in every fold's
training part), and the development sets tests/gold/wsd_natural.jsonl (items 1-72 only: 73-98 are held back) and
tests/gold/wsd.jsonl with all examples; beside them the same without examples and the most-frequent-sense baseline;
then wsd_natural 1-72 again with the grid point chosen by 5-fold CV on it. It never reads a test set.

``score`` scores one gold set (an id range of it) with the shipped weights, and again with every example that
near-duplicates the item left out (`near_duplicate`): example writers and gold writers reach for the same stock
sentences, and such a pair measures memory, not disambiguation.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tools/ (the evaluation, not in the wheel)
from tahqiq.analysis.morphology import Morphology  # noqa: E402
from tahqiq.analysis.wsd import Disambiguator, Example, SenseInventory, read_examples  # noqa: E402
from tahqiq.arabic.clitics import light_stem  # noqa: E402
from tahqiq.core import scan  # noqa: E402

from tools.evaluate.wsd import read_gold  # noqa: E402

CACHE = ROOT / "var" / "cache"
NATURAL = ROOT / "tests" / "gold" / "wsd_natural.jsonl"
DEV = ROOT / "tests" / "gold" / "wsd.jsonl"
HELD_BACK_FROM = 73  # wsd_natural items from here on are scored once at the end, never used to tune
FOLDS = 5


_SHARED: dict[str, Any] = {}


def disambiguator(examples: list[Example] | None = None, **kw: Any) -> Disambiguator:
    """A disambiguator sharing one inventory, morphology and signature memo with the others (they do not depend on
    the examples), so the CV's many instances do not lemmatise every gloss again."""
    if not _SHARED:
        inv = SenseInventory(CACHE)
        inv.load()
        _SHARED.update(inventory=inv, morphology=Morphology(CACHE), signatures={}, gloss_keys={})
    d = Disambiguator(_SHARED["inventory"], _SHARED["morphology"], examples=examples, **kw)
    d._signatures = _SHARED["signatures"]
    d._gloss_keys = _SHARED["gloss_keys"]
    return d


def target_index(d: Disambiguator, text: str, start: int) -> tuple[list[Any], int]:
    words = d._words(text)
    for i, w in enumerate(words):
        if w.start <= start < w.end:
            return words, i
    raise ValueError(f"no word at {start} in {text!r}")


def check(examples: list[Example]) -> list[str]:
    d = disambiguator([])
    problems: list[str] = []
    seen: set[str] = set()
    per_sense: Counter[str] = Counter()
    senses_of: dict[str, set[str]] = defaultdict(set)
    unresolved: list[str] = []  # the morphology reads the word otherwise: the examples still serve as context
    for n, ex in enumerate(examples, 1):
        sense = d.inventory.get(ex.sense_id)
        where = f"example {n} ({ex.lemma} {ex.sense_id})"
        if sense is None:
            problems.append(f"{where}: sense id not in the inventory")
            continue
        if ex.sense_id not in {s.sense_id for s in d.inventory.senses_for(ex.lemma)}:
            problems.append(f"{where}: not a sense of {ex.lemma}")
        words, i = target_index(d, ex.text, ex.start)
        if words[i].start != ex.start or words[i].end != ex.end:
            problems.append(f"{where}: [target] is not one whole word: {ex.text[ex.start : ex.end]!r}")
        word = words[i]
        forms = set(d.lookup_forms(word))
        if not any(ex.sense_id in {s.sense_id for s in d.inventory.senses_for(f)} for f in forms):
            problems.append(f"{where}: the marked word {word.token!r} is not written like {ex.lemma}")
        if ex.sense_id not in {s.sense_id for s in d.candidates(word)}:
            unresolved.append(f"{where}: {word.token!r} read as {word.lemma!r} ({word.pos})")
        if ex.text in seen:
            problems.append(f"{where}: repeated sentence")
        seen.add(ex.text)
        per_sense[ex.sense_id] += 1
        senses_of[ex.lemma].add(ex.sense_id)
    problems += [f"sense {sid}: {c} sentences (< 3)" for sid, c in per_sense.items() if c < 3]
    problems += [f"lemma {lemma}: one sense" for lemma, sids in senses_of.items() if len(sids) < 2]
    print(f"{len(examples)} examples, {len(per_sense)} senses, {len(senses_of)} lemmas")
    print(f"{len(unresolved)} marked words the disambiguator looks up under another headword or none:")
    for line in unresolved:
        print("  " + line)
    return problems


def _stems(text: str) -> set[str]:
    return {light_stem(w.text) for w in scan(text) if w.kind == "word" and len(w.text) > 2}


def near_duplicate(a: str, b: str) -> bool:
    """Whether two sentences share four or more word stems or 30% of their stems: two writers of stock phrases
    (ترك الشاب مقعده في الحافلة) meet without copying, and such a pair would flatter the examples."""
    sa, sb = _stems(a), _stems(b)
    shared = len(sa & sb)
    return shared >= 4 or shared >= 0.3 * len(sa | sb)


def dedup_accuracy(examples: list[Example], gold: list[dict[str, Any]], **kw: Any) -> tuple[float, int]:
    """Accuracy on ``gold`` when every example that near-duplicates the item is left out of the profiles; and how
    many items had such an example."""
    right = touched = 0
    for g in gold:
        kept = [ex for ex in examples if not near_duplicate(ex.text, g["text"])]
        touched += len(kept) < len(examples)
        d = disambiguator(kept, **kw)
        right += d.disambiguate_span(g["text"], g["start"], g["end"]) == g["expected_sense_id"]
    return right / len(gold), touched


def score(examples: list[Example], gold: list[dict[str, Any]]) -> None:
    """One gold set with the shipped weights: MFS, no examples, examples, examples without near-duplicates."""
    base = disambiguator([])
    full = disambiguator(examples)
    items = gold_items(base, gold)
    mfs = sum(1 for w, i, e in items if (c := base.candidates(w[i])) and c[0].sense_id == e) / len(items)
    dedup, touched = dedup_accuracy(examples, gold)
    print(
        f"n={len(items)}  MFS {mfs:.3f}  no examples {accuracy(base, items):.3f}  examples {accuracy(full, items):.3f}"
        f"  examples without near-duplicates {dedup:.3f} ({touched} items had one)"
    )


def speed(rounds: int) -> None:
    """In-process /wsd work (Disambiguator.disambiguate) on the first 20 sentences of tests/gold/ner_msa.jsonl, with
    the examples and without, interleaved rounds after one warm-up pass each; medians of the per-round means."""
    texts = [g["text"] for g in read_gold(ROOT / "tests" / "gold" / "ner_msa.jsonl")[:20]]
    pair = {"examples": disambiguator(), "none": disambiguator([])}
    times: dict[str, list[float]] = {k: [] for k in pair}
    for d in pair.values():
        for text in texts:
            d.disambiguate(text)
    for _ in range(rounds):
        for name, d in pair.items():
            started = time.perf_counter()
            for text in texts:
                d.disambiguate(text)
            times[name].append((time.perf_counter() - started) / len(texts))
    a, b = statistics.median(times["examples"]), statistics.median(times["none"])
    print(f"{rounds} rounds, 20 sentences: with examples {a * 1e3:.3f} ms, without {b * 1e3:.3f} ms ({a / b:.2f}x)")


def accuracy(d: Disambiguator, items: list[tuple[list[Any], int, str]]) -> float:
    right = 0
    for words, i, expected in items:
        cands = d.candidates(words[i])
        if cands and d.choose(cands, words, i).sense_id == expected:
            right += 1
    return right / len(items) if items else 0.0


def gold_items(d: Disambiguator, gold: list[dict[str, Any]]) -> list[tuple[list[Any], int, str]]:
    return [(*target_index(d, g["text"], g["start"]), g["expected_sense_id"]) for g in gold]


def cv(examples: list[Example], grid: list[tuple[float, float, float, float]]) -> None:
    base = disambiguator([])
    fold_of: list[int] = []
    rank: Counter[str] = Counter()
    for ex in examples:
        fold_of.append(rank[ex.sense_id] % FOLDS)
        rank[ex.sense_id] += 1
    ex_items = [(*target_index(base, ex.text, ex.start), ex.sense_id) for ex in examples]
    natural = [g for g in read_gold(NATURAL) if g["id"] < HELD_BACK_FROM]
    nat_items = gold_items(base, natural)
    dev_items = gold_items(base, read_gold(DEV))

    def mfs(items: list[tuple[list[Any], int, str]]) -> float:
        return sum(1 for w, i, e in items if (c := base.candidates(w[i])) and c[0].sense_id == e) / len(items)

    print(
        f"{'weight':>6} {'smooth':>6} {'root':>6} {'second':>6} {'examples CV':>11} {'natural 1-72':>12} "
        f"{'wsd.jsonl':>9}"
    )
    print(
        f"{'MFS':>27} {mfs(ex_items):>11.3f} {mfs(nat_items):>12.3f} {mfs(dev_items):>9.3f}\n"
        f"{'no examples':>27} {accuracy(base, ex_items):>11.3f} {accuracy(base, nat_items):>12.3f} "
        f"{accuracy(base, dev_items):>9.3f}"
    )
    nat_right: list[list[bool]] = []
    for weight, smoothing, root, second in grid:
        right = 0.0
        for f in range(FOLDS):
            train = [ex for ex, k in zip(examples, fold_of, strict=True) if k != f]
            held = [it for it, k in zip(ex_items, fold_of, strict=True) if k == f]
            d = disambiguator(train, example_weight=weight, smoothing=smoothing, root_weight=root, second_weight=second)
            right += accuracy(d, held) * len(held)
        full = disambiguator(
            examples, example_weight=weight, smoothing=smoothing, root_weight=root, second_weight=second
        )
        nat_right.append([accuracy(full, [item]) == 1.0 for item in nat_items])
        print(
            f"{weight:>6} {smoothing:>6} {root:>6} {second:>6} {right / len(ex_items):>11.3f} "
            f"{accuracy(full, nat_items):>12.3f} {accuracy(full, dev_items):>9.3f}"
        )
    print(f"natural 1-72, weights chosen by {FOLDS}-fold CV on it: {natural_cv(grid, nat_right):.3f}")


def natural_cv(grid: list[tuple[float, float, float, float]], right: list[list[bool]]) -> float:
    """wsd_natural 1-72 in FOLDS sentence-disjoint folds (id mod FOLDS): each fold scored with the grid point that
    is best on the other folds (ties: the earlier point), so the figure is not tuned on the items it counts."""
    n = len(right[0])
    total = 0
    for f in range(FOLDS):
        train = [i for i in range(n) if i % FOLDS != f]
        best = max(range(len(grid)), key=lambda g: (sum(right[g][i] for i in train), -g))
        total += sum(right[best][i] for i in range(n) if i % FOLDS == f)
    return total / n


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=("check", "cv", "score", "speed"))
    parser.add_argument("--rounds", type=int, default=9, help="speed: interleaved rounds")
    parser.add_argument("--gold", type=Path, default=NATURAL, help="score: the gold set")
    parser.add_argument("--ids", default="1-72", help="score: the id range of the gold set to score, 'a-b'")
    parser.add_argument("--weights", default="0.5,1,2,4")
    parser.add_argument("--smoothing", default="0.1,0.5,1")
    parser.add_argument("--roots", default="0,0.5,1")
    parser.add_argument("--second", default="0,0.2")
    args = parser.parse_args(argv)
    examples = read_examples()
    if args.command == "check":
        problems = check(examples)
        for p in problems:
            print(p)
        return 1 if problems else 0
    if args.command == "speed":
        speed(args.rounds)
        return 0
    if args.command == "score":
        low, high = (int(x) for x in args.ids.split("-"))
        score(examples, [g for g in read_gold(args.gold) if low <= g["id"] <= high])
        return 0
    grid = [
        (float(w), float(s), float(r), float(g))
        for w in args.weights.split(",")
        for s in args.smoothing.split(",")
        for r in args.roots.split(",")
        for g in args.second.split(",")
    ]
    cv(examples, grid)
    return 0


if __name__ == "__main__":
    sys.exit(main())
