"""Train the POS tagger that chooses `/morph`'s analysis in context; write analysis/data/pos_tagger.json.

    python -m tools.train.morph [--check] [--cv] [--epochs N]

Trains on tests/gold/morph_train.jsonl (running text, every word's POS in context). ``--cv`` scores the whole
chooser (POS, lemma, root, word class) by sentence in FOLDS folds, each fold's tagger trained on the other folds,
beside the lexicon's context-free top analysis. ``--check`` exits 1 when the shipped file differs from a rebuild.
The blind set (tests/gold/morph_running.jsonl) is never read here: it is scored by ``tahqiq report morph``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tahqiq.analysis.morphology import Morphology
from tahqiq.analysis.pos_tagger import (
    DATA_FILE,
    FORMAT,
    POS_TAGS,
    START,
    TEMPERATURE,
    PosTagger,
    Word,
    feature_sum,
    features,
    probabilities,
)
from tahqiq.arabic.keys import bare

from tools.report import ARABIC_WORD, FIELDS, _match, load_gold

ROOT = Path(__file__).resolve().parents[2]
TRAIN = ROOT / "tests" / "gold" / "morph_train.jsonl"
CACHE = ROOT / "var" / "cache"  # the tests' cache (tests/support/server.py CACHE_DIR)
SETTINGS: dict[str, Any] = {"epochs": 10, "seed": 0, "min_count": 1, "digits": 3}
FOLDS = 10

Example = tuple[str, list[dict[str, str]], list[Word], list[str]]  # (sentence, gold rows, words, gold tags)


def examples(morphology: Morphology, path: Path = TRAIN) -> list[Example]:
    """Each gold sentence with the tagger's view of its words (only the scored words carry a gold tag)."""
    by_sentence: dict[tuple[str, str], list[dict[str, str]]] = {}
    for row in load_gold(path):
        by_sentence.setdefault((str(row.get("sentence_id", "")), row["sentence"]), []).append(row)
    out = []
    for (_sid, sentence), rows in by_sentence.items():
        found, _views, words = morphology.tagger_input(sentence)
        tokens = [t.text for t in found]
        scored = [i for i, t in enumerate(tokens) if ARABIC_WORD.fullmatch(t)]
        if [tokens[i] for i in scored] != [r["token"] for r in rows]:
            raise ValueError(f"gold tokens do not match the scanner's words in {sentence!r}")
        tags = [""] * len(tokens)  # "" = not scored (digits, Latin): the tagger's own guess feeds the next word
        for i, row in zip(scored, rows, strict=True):
            tags[i] = row["pos"].split("|")[0]
        out.append((sentence, rows, words, tags))
    return out


def train(data: Sequence[Example], epochs: int, seed: int, digits: int) -> PosTagger:
    """Averaged perceptron, greedy decoding with the gold previous tags (the usual recipe)."""
    index = {t: i for i, t in enumerate(POS_TAGS)}
    weights: dict[str, list[float]] = defaultdict(lambda: [0.0] * len(POS_TAGS))
    totals: dict[str, list[float]] = defaultdict(lambda: [0.0] * len(POS_TAGS))
    stamps: dict[str, list[int]] = defaultdict(lambda: [0] * len(POS_TAGS))
    step = 0
    order = list(range(len(data)))
    rng = random.Random(seed)

    def update(name: str, c: int, delta: float) -> None:
        totals[name][c] += (step - stamps[name][c]) * weights[name][c]
        stamps[name][c] = step
        weights[name][c] += delta

    for _ in range(epochs):
        rng.shuffle(order)
        for k in order:
            _sentence, _rows, words, tags = data[k]
            prev, prev2 = START, START
            for i in range(len(words)):
                feats = features(words, i, prev, prev2)
                scores = feature_sum(weights, feats)
                guess = max(range(len(POS_TAGS)), key=scores.__getitem__)
                gold = tags[i]
                step += 1
                if gold and index[gold] != guess:
                    for f in feats:
                        update(f, index[gold], 1.0)
                        update(f, guess, -1.0)
                prev, prev2 = gold or POS_TAGS[guess], prev
    lemmas = _lemma_memory(data)
    averaged: dict[str, tuple[float, ...]] = {}
    for name, row in weights.items():
        avg = []
        for c, w in enumerate(row):
            total = totals[name][c] + (step - stamps[name][c]) * w
            avg.append(round(total / step * 1000, digits))  # scaled: rounding keeps three significant places
        if any(avg):
            averaged[name] = tuple(avg)
    return PosTagger(averaged, lemmas)


def _lemma_memory(data: Sequence[Example]) -> dict[tuple[str, str], tuple[str, str]]:
    """(bare form, POS) -> the (lemma, root) the corpus gives it most often (first seen among equals). Bare, not
    loose: الأعلام "the flags" and الإعلام "the media" are two forms."""
    counts: dict[tuple[str, str], Counter[tuple[str, str]]] = defaultdict(Counter)
    for _sentence, rows, _words, _tags in data:
        for row in rows:
            pos = row["pos"].split("|")[0]
            counts[(bare(row["token"]), pos)][(row["lemma"].split("|")[0], row["root"].split("|")[0])] += 1
    return {key: c.most_common(1)[0][0] for key, c in sorted(counts.items())}


def score(morphology: Morphology, data: Sequence[Example]) -> dict[str, int]:
    correct = dict.fromkeys((*FIELDS, "tokens"), 0)
    for sentence, rows, _words, _tags in data:
        got = [t for t in morphology.analyze(sentence) if ARABIC_WORD.fullmatch(t["token"])]
        for row, g in zip(rows, got, strict=True):
            correct["tokens"] += 1
            for field in FIELDS:
                gv = row["pos"] if field == "pos_class" else row[field]
                hv = g["pos"] if field == "pos_class" else g[field]
                correct[field] += _match(field, gv, hv)
    return correct


def cross_validate(data: Sequence[Example], morphology: Morphology) -> None:
    """Held-out accuracy of the chooser, and the log-loss of the POS probabilities at several temperatures."""
    folds = [list(data[i::FOLDS]) for i in range(FOLDS)]
    total = dict.fromkeys((*FIELDS, "tokens"), 0)
    held_scores: list[tuple[list[float], int]] = []
    for f, held in enumerate(folds):
        rest = [e for g, fold in enumerate(folds) if g != f for e in fold]
        tagger = train(rest, SETTINGS["epochs"], SETTINGS["seed"], SETTINGS["digits"])
        morphology.tagger = tagger
        for k, v in score(morphology, held).items():
            total[k] += v
        for _sentence, _rows, words, tags in held:
            for scores, gold in zip(tagger.tag(words), tags, strict=True):
                if gold:
                    held_scores.append((scores, POS_TAGS.index(gold)))
    n = total.pop("tokens")
    print(
        f"in context, {FOLDS}-fold by sentence, {n} tokens: " + ", ".join(f"{k} {v / n:.1%}" for k, v in total.items())
    )
    losses = []
    for temperature in (3000, 4000, 5000, 6000, 8000, 10000):
        loss = -sum(math.log(max(probabilities(s, temperature)[g], 1e-12)) for s, g in held_scores) / len(held_scores)
        losses.append(f"T={temperature} {loss:.3f}")
    print(f"log-loss of P(POS) held out (shipped T={TEMPERATURE}): " + ", ".join(losses))


def write(tagger: PosTagger) -> str:
    body = {
        "format": FORMAT,
        "tags": list(POS_TAGS),
        "settings": SETTINGS,
        "lemmas": {f"{form}\t{pos}": list(v) for (form, pos), v in sorted(tagger.lemmas.items())},
        "weights": dict(sorted(tagger.weights.items())),
    }
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.train.morph", description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the shipped weights differ from a rebuild")
    parser.add_argument("--cv", action="store_true", help="cross-validate by sentence instead of writing")
    parser.add_argument("--epochs", type=int, default=SETTINGS["epochs"])
    args = parser.parse_args(argv)
    SETTINGS["epochs"] = args.epochs
    CACHE.mkdir(parents=True, exist_ok=True)
    morphology = Morphology(CACHE, tagger=PosTagger({}))
    data = examples(morphology)
    if args.cv:
        cross_validate(data, morphology)
        return 0
    text = write(train(data, SETTINGS["epochs"], SETTINGS["seed"], SETTINGS["digits"]))
    if args.check:
        if DATA_FILE.read_text(encoding="utf-8") != text:
            print(f"{DATA_FILE} differs from a rebuild: run python -m tools.train.morph", file=sys.stderr)
            return 1
        return 0
    DATA_FILE.write_text(text, encoding="utf-8")
    print(f"wrote {DATA_FILE} ({len(text):,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
