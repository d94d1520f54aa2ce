"""The learned NER layer (python/tahqiq/analysis/ner/tagger.py, its Python twin tools/ner_twin.py): decoding,
training, combining with the rules, the shipped weights (a rebuild of tools/train/ner.py) and what it adds on the
development sentences."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from tahqiq.analysis.ner import Recognizer
from tahqiq.analysis.ner.resolve import keep_learned
from tahqiq.analysis.ner.tagger import INSIDE, OUTSIDE, TAGGED_TYPES, NerTagger, Sentence, SpanTagger, combine
from tahqiq.analysis.relations import RelationExtractor

from tools.evaluate.relations import read_gold, relations_report
from tools.metrics import prf
from tools.ner_twin import features, labels_of, reference_predict, spans_of, viterbi
from tools.train.ner import train

ROOT = Path(__file__).resolve().parents[2]
GOLD = ROOT / "tests" / "gold"
FRESH = range(162, 242)  # relations_dev_more ids annotated before the system was run on them


@given(st.lists(st.lists(st.floats(-5, 5), min_size=3, max_size=3), max_size=12), st.integers(0, 2**32))
def test_viterbi_never_opens_with_i_or_puts_i_after_o(emit: list[list[float]], seed: int) -> None:
    import random

    rng = random.Random(seed)
    tagger = SpanTagger(transitions=[[rng.uniform(-3, 3) for _ in range(3)] for _ in range(4)])
    path = viterbi(tagger, emit)
    assert len(path) == len(emit)
    for x, lab in enumerate(path):
        if lab == INSIDE:
            assert x > 0 and path[x - 1] != OUTSIDE


@given(st.integers(1, 15).flatmap(lambda n: st.tuples(st.just(n), st.lists(st.integers(0, n), max_size=8))))
def test_spans_and_labels_round_trip(case: tuple[int, list[int]]) -> None:
    n, cuts = case
    points = sorted(set(cuts))
    spans = [(a, b) for a, b in itertools.pairwise(points) if a < b][::2]
    assert spans_of(labels_of(spans, n)) == spans


def _toy(words: list[str], name_at: int | None) -> tuple[Sentence, dict[str, list[tuple[int, int]]]]:
    classes = tuple(("title",) if w == "الوزير" else () for w in words)
    gold = {"PERS": [(name_at, name_at + 2)] if name_at is not None else []}
    return Sentence(tuple(words), classes, ()), gold


def test_training_learns_a_name_after_a_title_from_context_alone() -> None:
    data = [_toy(["قال", "الوزير", f"اسم{i}", f"لقب{i}", "إن", "الوضع", "مستقر"], 2) for i in range(12)] + [
        _toy(["قال", "المصدر", "إن", f"كلمة{i}", "مهمة"], None) for i in range(12)
    ]
    tagger = train(data, epochs=5, min_count=2, types=("PERS",))
    sentence, _ = _toy(["قال", "الوزير", "اسم99", "لقب99", "إن", "الوضع", "مستقر"], 2)
    assert tagger.predict(sentence)["PERS"] == [(2, 4)]  # a name never seen in training
    other, _ = _toy(["قال", "المصدر", "إن", "شيء", "مهمة"], None)
    assert tagger.predict(other)["PERS"] == []


def test_combine_strategies() -> None:
    rules = [("PERS", 2, 3), ("PERS", 8, 10), ("GPE", 5, 6)]
    tagged = {"PERS": [(2, 4), (12, 14)]}
    drop, add = combine(rules, tagged, "merge")
    assert drop == [("PERS", 2, 3)] and add == [("PERS", 2, 4), ("PERS", 12, 14)]  # (8, 10) untouched stays
    drop, add = combine(rules, tagged, "replace")
    assert set(drop) == {("PERS", 2, 3), ("PERS", 8, 10)} and add == [("PERS", 2, 4), ("PERS", 12, 14)]
    drop, add = combine(rules, {"PERS": [(1, 3), (4, 6)]}, "extend")
    assert drop == [("PERS", 2, 3)] and add == [("PERS", 1, 3)]  # (4, 6) crosses the GPE: not added
    # a grown title that would cut the rules' name after it is not taken (الرئيس التنفيذي بدر | بدر محمد المير)
    rules = [("OCC", 0, 2), ("PERS", 2, 5)]
    assert combine(rules, {"OCC": [(0, 3)], "PERS": []}, "extend") == ([], [])
    # … while one holding the name whole may grow (a facility holds a person: مطار الملك خالد الدولي)
    rules = [("FAC", 0, 2), ("PERS", 1, 2)]
    assert combine(rules, {"FAC": [(0, 3)], "PERS": []}, "extend") == ([("FAC", 0, 2)], [("FAC", 0, 3)])
    # … but a tagger span does not join two rule names into one (ابنيهما أمين | وحمزة)
    rules = [("PERS", 1, 2), ("PERS", 2, 3)]
    assert combine(rules, {"PERS": [(1, 3)]}, "extend") == ([], [])


def test_shipped_weights_are_a_rebuild() -> None:
    check = [sys.executable, "-m", "tools.train.ner", "--check"]
    assert subprocess.run(check, cwd=ROOT, check=False).returncode == 0


def _f1(rec: Recognizer, rows: list[dict[str, object]], typ: str) -> float:
    tp = fp = fn = 0
    for row in rows:
        text = str(row["text"])
        gold = {(e["type"], e["start"], e["end"]) for e in row["entities"] if e["type"] == typ}  # type: ignore[attr-defined]
        pred = {(e.type, e.start, e.end) for e in rec.recognize(text) if e.type == typ}
        tp, fp, fn = tp + len(gold & pred), fp + len(pred - gold), fn + len(gold - pred)
    return float(prf(tp, fp, fn)["f1"])


# measured on relations_dev_more ids 162-241 (which the weights are fit on): rules alone PERS 0.71, FAC 0.68;
# with the layer 0.89 and 0.80. Held out by 5-fold cross-validation the gain is smaller (tools/train/ner.py --cv:
# PERS 0.71 -> 0.74, FAC 0.68 -> 0.73); these floors check that the shipped weights are in use and do their work.
# Since the persons' rules of issue 5 (full names, appositions) the rules alone reach PERS 0.84 there, the layer 0.91.
def test_learned_layer_fixes_names_and_facilities_on_the_written_sentences() -> None:
    lines = (GOLD / "relations_dev_more.jsonl").read_text(encoding="utf-8").splitlines()
    rows = [r for r in map(json.loads, lines) if r["id"] in FRESH]
    learned, rules = Recognizer(), Recognizer(learned=False)
    pers = _f1(learned, rows, "PERS")
    assert pers >= 0.88 and pers > _f1(rules, rows, "PERS")
    assert _f1(learned, rows, "FAC") >= 0.75 > _f1(rules, rows, "FAC")


# end to end over relations_dev_more (341 sentences, the weights fit on them): rules' entities 0.697, with the layer
# 0.766 (241 sentences before ids 242-341 were added: 0.756 and 0.828); since the persons' rules of issue 5 the
# rules' entities 0.765, with the layer 0.798
def test_relations_end_to_end_with_the_learned_layer() -> None:
    rows = read_gold(GOLD / "relations_dev_more.jsonl")
    extractor = RelationExtractor()
    learned = relations_report(extractor, rows, recognize=Recognizer().recognize)["micro"]["f1"]
    rules = relations_report(extractor, rows, recognize=Recognizer(learned=False).recognize)["micro"]["f1"]
    assert learned >= 0.78 and learned > rules


def test_learned_names_never_hold_a_verb() -> None:
    rec = Recognizer()
    got = {(e.type, e.text) for e in rec.recognize("أعلن المدرب خالد النمر أن ابنه كريستيانو سيلعب غدا.")}
    assert not any(t == "PERS" and "سيلعب" in x for t, x in got)


def _dev_texts() -> list[str]:
    texts = [
        str(json.loads(line)["text"])
        for name in (
            "ner_msa.jsonl",
            "ner_dev.jsonl",
            "ner_types.jsonl",
            "relations.jsonl",
            "relations_dev.jsonl",
            "relations_dev_more.jsonl",
        )
        for line in (GOLD / name).read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    words = " ".join(texts).split()
    return texts + [" ".join(words[i : i + 30]) for i in range(0, len(words) - 29, 30)]  # the benchmark's windows


def test_native_scorer_decides_as_the_python_path_on_every_dev_sentence() -> None:
    rec = Recognizer()
    tagger = rec._tagger
    assert tagger is not None
    found = 0
    for text in _dev_texts():
        _toks, sentence = rec.tagger_input(text)
        got = tagger.predict(sentence)
        assert got == reference_predict(tagger, sentence), text
        found += sum(map(len, got.values()))
    assert found > 500  # the comparison covers many spans, not empty outputs


_WORDS = ("الرئيس", "وبالرئيس", "للوزير", "محمد", "كالاس", "ملعب", "في", "قال", "x", "", "ا")
_CLASSES = ("first", "family", "trig:OCC", "def", "unlisted", "end:ا")


@st.composite
def _scored_case(draw: st.DrawFn) -> tuple[NerTagger, Sentence]:
    n = draw(st.integers(1, 9))
    keys = tuple(draw(st.lists(st.sampled_from(_WORDS), min_size=n, max_size=n)))
    classes = tuple(tuple(sorted(set(draw(st.lists(st.sampled_from(_CLASSES), max_size=3))))) for _ in range(n))
    spans = []
    for typ in draw(st.lists(st.sampled_from(("PERS", "OCC", "FAC", "GPE")), max_size=3)):
        i = draw(st.integers(0, n - 1))
        spans.append((typ, i, draw(st.integers(i + 1, n))))
    sentence = Sentence(keys, classes, tuple(spans))
    weight = st.floats(-3, 3, allow_nan=False).map(lambda v: round(v, 4))
    taggers = {}
    for typ in TAGGED_TYPES:
        names = sorted({f for tok in features(sentence, typ) for f in tok})
        kept = draw(st.lists(st.sampled_from(names), max_size=len(names)))
        taggers[typ] = SpanTagger(
            {f: [draw(weight) for _ in range(3)] for f in kept}, [[draw(weight) for _ in range(3)] for _ in range(4)]
        )
    return NerTagger(taggers), sentence


@given(_scored_case())
def test_native_scorer_builds_and_sums_the_python_features(case: tuple[NerTagger, Sentence]) -> None:
    tagger, sentence = case
    assert tagger.predict(sentence) == reference_predict(tagger, sentence)


def test_a_learned_name_ending_in_a_definite_place_is_dropped_a_bare_one_kept() -> None:
    # the layer once read البابا فرنسيس العراق as one name: the definite place is where he went, while a bare
    # place's name may be a family name (إرلينغ هالاند)
    rec = Recognizer(learned=False)
    toks, sentence = rec.tagger_input("زار البابا فرنسيس العراق في آذار 2021")
    assert keep_learned(rec.lexicon, "PERS", sentence.keys, toks, [(2, 4), (2, 3)]) == [(2, 3)]
    toks, sentence = rec.tagger_input("سجل المهاجم النرويجي إرلينغ هالاند هدف الفوز")
    assert keep_learned(rec.lexicon, "PERS", sentence.keys, toks, [(3, 5)]) == [(3, 5)]
