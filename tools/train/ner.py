"""Train the learned NER layer (PERS, OCC, FAC boundaries over the rules) and write analysis/ner/data/tagger.json.

    python -m tools.train.ner [--check] [--cv]

Trains on the development sentences whose every entity is annotated: tests/gold/ner_msa.jsonl, ner_dev.jsonl,
relations_dev_more.jsonl ids 73 on (ids 1-72 list only relation arguments, so an unlisted name there would teach
the tagger a false O) and ner_news.jsonl ids 1-73 (``--set news=0`` leaves them out; ids 74-98 are held back and
never trained on). The rules' own entities are features, so the rules are run first (``Recognizer(learned=
False)``). ``--cv`` prints per-fold, per-type P/R/F1 of the rules alone and of each way of combining the tagger
with them (tahqiq.analysis.ner.tagger.combine), by sentence in FOLDS folds, and the same over ids 162-241 of
relations_dev_more (written for this layer and annotated before the system was run on them; held out in their folds).
``--shipped`` limits --cv to the rules and the shipped combination.
``--check`` exits 1 when the shipped file differs from a rebuild instead of writing it.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tahqiq.analysis.ner import Recognizer
from tahqiq.analysis.ner.tagger import DATA_FILE, TAGGED_TYPES, NerTagger, Sentence, SpanTagger
from tahqiq.analysis.relations import RelationExtractor

from tools.evaluate.relations import relations_report
from tools.metrics import prf
from tools.ner_twin import decode, features, labels_of

ROOT = Path(__file__).resolve().parents[2]
GOLD = ROOT / "tests" / "gold"
FULL_FROM = 73  # relations_dev_more ids from here list every entity
FRESH = range(162, 342)  # relations_dev_more ids annotated before the system saw them
NEWS = range(1, 74)  # ner_news ids for development; 74-98 are held back, never trained on
# chosen by --cv (see README): perceptron epochs, how often a feature must be seen, the combination strategy
SETTINGS: dict[str, Any] = {
    "epochs": 8,
    "min_count": 2,
    "seed": 0,
    "strategy": "extend",
    "dropout": 0.7,
    "forget_names": 1,
    "types": ",".join(TAGGED_TYPES),
    # more fully annotated sets to train on; --cv with extra_sets=ner_types (the weak types' sentences of issue 5,
    # few persons or facilities) measured no gain on the other sets held out (PERS 0.836 -> 0.832, relations end to
    # end 0.771 -> 0.769), so the shipped weights leave it out
    "extra_sets": "",
    # ner_news ids 1-73 (news at large for issue 5's relation arguments) trained on too (1) or not (0)
    "news": 1,
}
STRATEGIES = ("replace", "merge", "extend")
REPORTED = ("LOC", "LAW", "EVENT", "PRODUCT")  # the weak types of issue 5, printed by --cv beside the tagged ones
FOLDS = 5

Example = tuple[str, str, dict[str, Any], Sentence, dict[str, list[tuple[int, int]]]]


def train(
    data: Sequence[tuple[Sentence, dict[str, list[tuple[int, int]]]]],
    *,
    epochs: int = 8,
    min_count: int = 2,
    seed: int = 0,
    strategy: str = "extend",
    dropout: float = 0.0,
    forget_names: bool = False,
    types: Sequence[str] = TAGGED_TYPES,
) -> NerTagger:
    """An averaged structured perceptron a type over `data` (sentence, gold token spans per type).

    Features seen fewer than `min_count` times are left out (they would only memorise sentences); each time a
    sentence is visited its rule tags are hidden with probability `dropout` (and, with `forget_names`, its listed
    name parts read as unlisted words: the name lists know the development sentences' names, new text's they
    will not). The order of the sentences and the dropout draws come from `seed`, so the result is a pure function
    of the data."""
    taggers: dict[str, SpanTagger] = {}
    for typ in types:
        with_rules = [features(s, typ) for s, _ in data]
        without = (
            [features(_forget_names(s) if forget_names else s, typ, rules=False) for s, _ in data]
            if dropout
            else with_rules
        )
        counts: Counter[str] = Counter(f for sent in with_rules for tok in sent for f in set(tok))
        feats = [
            [[[f for f in tok if counts[f] >= min_count] for tok in sent] for sent in variant]
            for variant in (with_rules, without)
        ]
        gold = [labels_of(g.get(typ, []), len(s.keys)) for s, g in data]
        taggers[typ] = _perceptron(feats, gold, epochs, seed, dropout)
    return NerTagger(taggers, strategy)


NAME_CLASSES = frozenset(("first", "weakfirst", "family", "~first", "~weakfirst", "~family"))


def _forget_names(sentence: Sentence) -> Sentence:
    """The sentence as if the name lists did not know its names: name-part classes read as ``unlisted``."""
    classes = []
    for c in sentence.classes:
        kept = tuple(x for x in c if x not in NAME_CLASSES)
        if len(kept) < len(c) and not any(x for x in kept if not x.startswith(("end:", "def"))):
            kept = tuple(sorted((*kept, "unlisted")))
        classes.append(kept)
    return Sentence(sentence.keys, tuple(classes), sentence.rule_spans)


def _perceptron(
    variants: list[list[list[list[str]]]], gold: list[list[int]], epochs: int, seed: int, dropout: float
) -> SpanTagger:
    model = SpanTagger()
    w, tr = model.weights, model.transitions
    acc_w: dict[str, list[float]] = {}  # sum over updates of step * delta (the averaging trick)
    acc_tr = [[0.0] * 3 for _ in range(4)]
    step = 1
    order = list(range(len(gold)))
    rng = random.Random(seed)
    for _ in range(epochs):
        rng.shuffle(order)
        for s in order:
            feats = variants[1] if dropout and rng.random() < dropout else variants[0]
            pred = decode(model, feats[s])
            g = gold[s]
            if pred != g:
                for x, (p, t) in enumerate(zip(pred, g, strict=True)):
                    if p != t:
                        for name in feats[s][x]:
                            v = w.setdefault(name, [0.0, 0.0, 0.0])
                            a = acc_w.setdefault(name, [0.0, 0.0, 0.0])
                            v[t] += 1.0
                            v[p] -= 1.0
                            a[t] += step
                            a[p] -= step
                    prev_p = pred[x - 1] if x else 3
                    prev_t = g[x - 1] if x else 3
                    if (prev_p, p) != (prev_t, t):
                        tr[prev_t][t] += 1.0
                        tr[prev_p][p] -= 1.0
                        acc_tr[prev_t][t] += step
                        acc_tr[prev_p][p] -= step
            step += 1
    avg = {
        name: [v[c] - acc_w[name][c] / step for c in range(3)]
        for name, v in w.items()
        if any(abs(v[c] - acc_w[name][c] / step) >= 5e-5 for c in range(3))
    }
    avg_tr = [[tr[p][c] - acc_tr[p][c] / step for c in range(3)] for p in range(4)]
    return SpanTagger(avg, avg_tr)


def _rows(name: str) -> list[dict[str, Any]]:
    lines = (GOLD / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(x) for x in lines if x.strip()]


def examples(rules: Recognizer) -> list[Example]:
    """(set, id, gold row, tagger input, gold token spans per tagged type) of every fully annotated sentence."""
    rows = [("ner_msa", r) for r in _rows("ner_msa.jsonl")] + [("ner_dev", r) for r in _rows("ner_dev.jsonl")]
    for name in filter(None, str(SETTINGS["extra_sets"]).split(",")):
        rows += [(name, r) for r in _rows(f"{name}.jsonl")]
    rows += [("dev_more", r) for r in _rows("relations_dev_more.jsonl") if r["id"] >= FULL_FROM]
    if SETTINGS["news"]:
        rows += [("ner_news", r) for r in _rows("ner_news.jsonl") if r["id"] in NEWS]
    out: list[Example] = []
    for name, row in rows:
        toks, sentence = rules.tagger_input(row["text"])
        first = {t.start: x for x, t in enumerate(toks)}
        last = {t.end: x for x, t in enumerate(toks)}
        gold: dict[str, list[tuple[int, int]]] = {t: [] for t in _types()}
        for e in row["entities"]:
            if e["type"] in gold:
                gold[e["type"]].append((first[e["start"]], last[e["end"]] + 1))
        out.append((name, f"{name}:{row['id']}", row, sentence, gold))
    return out


def _types() -> list[str]:
    """The tagged types: the setting's (``--set types=PERS,OCC,FAC,LOC`` tries others by --cv)."""
    return str(SETTINGS["types"]).split(",")


def build(data: list[Example], strategy: str | None = None) -> NerTagger:
    s = SETTINGS
    return train(
        [(sent, gold) for *_, sent, gold in data],
        epochs=s["epochs"],
        min_count=s["min_count"],
        seed=s["seed"],
        strategy=strategy or s["strategy"],
        dropout=s["dropout"],
        forget_names=bool(s["forget_names"]),
        types=s["types"].split(","),
    )


def score(rec: Recognizer, data: list[Example], counts: dict[str, Counter[str]]) -> None:
    """Add exact-span entity counts (tp, fp, fn by type) of `rec` over `data` to `counts`."""
    for *_, row, _sent, _gold in data:
        gold = {(e["type"], e["start"], e["end"]) for e in row["entities"]}
        pred = {(e.type, e.start, e.end) for e in rec.recognize(row["text"])}
        for t, _, _ in gold & pred:
            counts["tp"][t] += 1
        for t, _, _ in pred - gold:
            counts["fp"][t] += 1
        for t, _, _ in gold - pred:
            counts["fn"][t] += 1


def _line(label: str, counts: dict[str, Counter[str]]) -> str:
    cells = []
    for t in (*dict.fromkeys([*_types(), *REPORTED]), None):
        if t is None:
            tp, fp, fn = (sum(counts[k].values()) for k in ("tp", "fp", "fn"))
            t = "all"
        else:
            tp, fp, fn = (counts[k][t] for k in ("tp", "fp", "fn"))
        r = prf(tp, fp, fn)
        cells.append(f"{t} {r['precision']:.2f}/{r['recall']:.2f}/{r['f1']:.3f}")
    return f"{label:<22} " + "  ".join(cells)


def cross_validate(data: list[Example], strategies: tuple[str, ...] = STRATEGIES) -> None:
    order = list(range(len(data)))
    random.Random(SETTINGS["seed"]).shuffle(order)
    folds = [sorted(order[f::FOLDS]) for f in range(FOLDS)]
    names = ("rules", *strategies)
    total = {n: {k: Counter[str]() for k in ("tp", "fp", "fn")} for n in names}
    fresh = {n: {k: Counter[str]() for k in ("tp", "fp", "fn")} for n in names}
    weak = {n: {k: Counter[str]() for k in ("tp", "fp", "fn")} for n in names}
    news = {n: {k: Counter[str]() for k in ("tp", "fp", "fn")} for n in names}
    rules = Recognizer(learned=False)
    extractor = RelationExtractor()
    relations = {n: Counter[str]() for n in names}  # end to end on the held-out relations_dev_more sentences
    print(f"P/R/F1 per fold ({', '.join(dict.fromkeys([*_types(), *REPORTED]))}, all types)")
    for f, held in enumerate(folds):
        held_set = set(held)
        test = [data[x] for x in held]
        fit = [data[x] for x in order if x not in held_set]
        test_fresh = [e for e in test if e[0] == "dev_more" and e[2]["id"] in FRESH]
        tagger = build(fit)
        for n in names:
            if n == "rules":
                rec = rules
            else:
                tagger.strategy = n
                rec = Recognizer(learned=tagger)
            counts = {k: Counter[str]() for k in ("tp", "fp", "fn")}
            score(rec, test, counts)
            score(rec, test_fresh, fresh[n])
            score(rec, [e for e in test if e[0] == "ner_types"], weak[n])
            score(rec, [e for e in test if e[0] == "ner_news"], news[n])
            held_rel = [e[2] for e in test if e[0] == "dev_more"]
            micro = relations_report(extractor, held_rel, recognize=rec.recognize)["micro"]
            relations[n].update({k: micro[k] for k in ("tp", "fp", "fn")})
            for k in counts:
                total[n][k].update(counts[k])
            print(_line(f"fold {f + 1} {n}", counts))
    print("\nall folds")
    for n in names:
        print(_line(n, total[n]))
    print(f"\nids {FRESH.start}-{FRESH.stop - 1} of relations_dev_more (held out in their folds)")
    for n in names:
        print(_line(n, fresh[n]))
    print("\nner_types (held out in their folds; empty unless extra_sets holds it)")
    for n in names:
        print(_line(n, weak[n]))
    print(f"\nner_news ids {NEWS.start}-{NEWS.stop - 1} (held out in their folds; empty unless news=1)")
    for n in names:
        print(_line(n, news[n]))
    print(f"\nrelations end to end on the held-out relations_dev_more ids {FULL_FROM}-{FRESH.stop - 1} (P/R/F1)")
    for n in names:
        r = prf(relations[n]["tp"], relations[n]["fp"], relations[n]["fn"])
        print(f"{n:<22} {r['precision']:.3f}/{r['recall']:.3f}/{r['f1']:.3f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the shipped file is not a rebuild")
    parser.add_argument("--cv", action="store_true", help="print cross-validated scores, write nothing")
    parser.add_argument("--set", action="append", default=[], help="override a setting for --cv: name=value")
    parser.add_argument("--shipped", action="store_true", help="with --cv: the shipped strategy only (quicker)")
    args = parser.parse_args(argv)
    for item in args.set:
        name, _, value = item.partition("=")
        SETTINGS[name] = type(SETTINGS[name])(value)
    data = examples(Recognizer(learned=False))
    if args.cv:
        cross_validate(data, (str(SETTINGS["strategy"]),) if args.shipped else STRATEGIES)
        return 0
    text = json.dumps(build(data).to_dict(), ensure_ascii=False, separators=(",", ":"), sort_keys=True) + "\n"
    if args.check:
        same = DATA_FILE.exists() and DATA_FILE.read_text(encoding="utf-8") == text
        print("tagger.json matches a rebuild" if same else "tagger.json differs from a rebuild")
        return 0 if same else 1
    DATA_FILE.write_text(text, encoding="utf-8")
    print(f"wrote {DATA_FILE.relative_to(ROOT)} ({len(text)} bytes, {len(data)} sentences)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
