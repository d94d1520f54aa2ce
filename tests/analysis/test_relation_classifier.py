"""The statistical layer over the relation patterns: features, the combination, the shipped weights and CV."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from tahqiq.analysis.relations import RelationExtractor
from tahqiq.analysis.relations.classifier import (
    RelationClassifier,
    candidates,
    fit,
    instances,
    load_classifier,
)
from tahqiq.arabic.clitics import strip_proclitic
from tahqiq.arabic.keys import loose_unpunctuated

from tools.evaluate.relations import relations_report

ROOT = Path(__file__).resolve().parents[2]
PATTERNS = RelationExtractor(classifier=None)


def ent(text: str, frag: str, type_: str) -> dict[str, object]:
    start = text.index(frag)
    return {"type": type_, "start": start, "end": start + len(frag), "text": frag}


def cands(text: str, ents: list[dict[str, object]], found: tuple[Any, ...] = ()) -> dict[tuple[str, str], Any]:
    e, args, words = PATTERNS.prepare(text, ents)
    return {(c.first.text, c.second.text): c for c in candidates(text, e, args, words, PATTERNS.predicates, found)}


def test_light_clitic_stripping_keeps_short_words() -> None:
    assert strip_proclitic(loose_unpunctuated("والرئيس")) == loose_unpunctuated("رئيس")
    assert strip_proclitic(loose_unpunctuated("بالرباط")) == loose_unpunctuated("رباط")
    assert strip_proclitic(loose_unpunctuated("ولد")) == loose_unpunctuated(
        "ولد"
    )  # two letters would be left: a word, not a clitic
    assert strip_proclitic(loose_unpunctuated("بين")) == loose_unpunctuated("بين")


def test_pair_features_words_between_distance_types_and_triggers() -> None:
    text = "ولد الشاعر سامي الحسن في مدينة نابلس عام 1950."
    ents = [ent(text, "سامي الحسن", "PERS"), ent(text, "نابلس", "GPE"), ent(text, "عام 1950", "DATE")]
    c = cands(text, ents)[("سامي الحسن", "نابلس")]
    f = set(c.features)
    assert {
        "ty=PERS>GPE",
        "d=2",
        f"bw={loose_unpunctuated('في')}",
        f"bw={loose_unpunctuated('مدينة')}",
        f"bf={loose_unpunctuated('في')}",
    } <= f
    assert f"bs={loose_unpunctuated('في')} {loose_unpunctuated('مدينة')}" in f
    assert f"pre1={loose_unpunctuated('شاعر')}" in f and f"post1={loose_unpunctuated('عام')}" in f
    classes = {name: own for name, _, _, own in c.classes}
    # the pair's types allow birth_place (PERS → GPE) but not, say, capital_of (GPE → GPE)
    assert "birth_place/so" in classes and not any(n.startswith("capital_of") for n in classes)
    assert "trig_before" in classes["birth_place/so"]  # ولد stands before the subject
    # an entity between two others is replaced by its type and counted
    far = cands(text, ents)[("سامي الحسن", "عام 1950")]
    assert "bw=<GPE>" in far.features and "ie=GPE" in far.features


def test_same_type_between_comma_and_what_the_patterns_said() -> None:
    text = "زار سامي الحسن، وخالد العلي القاهرة."
    ents = [ent(text, "سامي الحسن", "PERS"), ent(text, "وخالد العلي", "PERS"), ent(text, "القاهرة", "GPE")]
    c = cands(text, ents)[("سامي الحسن", "القاهرة")]
    assert "ie=first" in c.features and "ie=second" not in c.features
    assert "comma" in cands(text, ents)[("سامي الحسن", "وخالد العلي")].features
    assert "wa" in cands(text, ents)[("سامي الحسن", "وخالد العلي")].features
    spans = {e["text"]: (e["start"], e["end"]) for e in ents}
    found = (("visits", spans["وخالد العلي"], spans["القاهرة"]),)
    own = {n: o for n, _, _, o in cands(text, ents, found)[("سامي الحسن", "القاهرة")].classes}
    assert "found_o" in own["visits/so"] and "related_o" in own["visits/so"] and "found_s" not in own["visits/so"]
    assert "found_o" not in own["residence/so"]


def _model(weights: dict[str, dict[str, float]], bias: dict[str, float], threshold: float = 0.5) -> RelationClassifier:
    return RelationClassifier(weights, bias, threshold)


def test_combination_adds_a_pair_the_patterns_missed_above_the_threshold_only() -> None:
    text = "سامي الحسن من سكان نابلس منذ سنوات."
    ents = [ent(text, "سامي الحسن", "PERS"), ent(text, "نابلس", "GPE")]
    assert RelationExtractor(classifier=None).extract(text, ents) == []
    cue = {f"bw={strip_proclitic(loose_unpunctuated('سكان'))}": {"residence/so": 6.0}}
    added = RelationExtractor(classifier=_model(cue, {"residence/so": -2.0})).extract(text, ents)
    assert [(r["predicate"], r["subject"]["text"], r["object"]["text"]) for r in added] == [
        ("residence", "سامي الحسن", "نابلس")
    ]
    assert abs(added[0]["confidence"] - 1 / (1 + 2.718281828**-4.0)) < 1e-3  # the probability, entities sure
    unsure = [{**e, "confidence": 0.5} for e in ents]
    low = RelationExtractor(classifier=_model(cue, {"residence/so": -2.0})).extract(text, unsure)
    assert low and low[0]["confidence"] < added[0]["confidence"]
    assert RelationExtractor(classifier=_model(cue, {"residence/so": -2.0}, 0.99)).extract(text, ents) == []


def test_combination_keeps_pattern_relations_and_leaves_their_pairs_alone() -> None:
    text = "عمان عاصمة الأردن."
    ents = [ent(text, "عمان", "GPE"), ent(text, "الأردن", "GPE")]
    pushy = _model({}, {"part_of/so": 9.0, "borders/so": 9.0, "capital_of/so": -9.0})
    got = RelationExtractor(classifier=pushy).extract(text, ents, explain=True)
    assert [(r["predicate"], r["pattern"]) for r in got] == [("capital_of", "capital_of/0")]


def test_combination_respects_a_functional_predicate() -> None:
    text = "ولد سامي الحسن في نابلس وعاش في رام الله."
    ents = [ent(text, "سامي الحسن", "PERS"), ent(text, "نابلس", "GPE"), ent(text, "رام الله", "GPE")]
    eager = _model({}, {"birth_place/so": 9.0})
    births = [r for r in RelationExtractor(classifier=eager).extract(text, ents) if r["predicate"] == "birth_place"]
    assert [r["object"]["text"] for r in births] == ["نابلس"]  # one birth place: the pattern's


@settings(max_examples=80, deadline=None)
@given(st.dictionaries(st.sampled_from(["ty=PERS>GPE", "d=0", "d=1", "adjacent", "comma"]), st.floats(-5, 5)))
def test_no_added_relation_breaks_domain_to_range(raw: dict[str, float]) -> None:
    classes = [f"{p.name}/{o}" for p in PATTERNS.predicates for o in ("so", "os")]
    weights = {f: dict.fromkeys(classes, w) for f, w in raw.items()}
    extractor = RelationExtractor(classifier=_model(weights, dict.fromkeys(classes, 3.0)))
    text = "قال سامي الحسن في عمان يوم 5 أيار 2020 إن شركة الأفق و الأردن 30 بالمئة الفرنسية."
    types = {"سامي الحسن": "PERS", "عمان": "GPE", "5 أيار 2020": "DATE", "شركة الأفق": "ORG"}
    types |= {"الأردن": "GPE", "30 بالمئة": "PERCENT", "الفرنسية": "LANGUAGE"}
    ents = [ent(text, k, v) for k, v in types.items()]
    out = extractor.extract(text, ents)
    assert out
    for r in out:
        p = extractor.by_name[r["predicate"]]
        assert r["subject"]["type"] in p.domain and r["object"]["type"] in p.range
        assert 0 <= r["confidence"] <= 1


def test_fit_learns_a_separable_cue_and_is_deterministic() -> None:
    data = [("x/so", ("cue", "noise"), True)] * 20 + [("x/so", ("other", "noise"), False)] * 20
    a = fit(data, l2=1e-3, iterations=200, min_count=2, threshold=0.5)
    assert a.weights["cue"]["x/so"] > 1 > -1 > a.weights["other"]["x/so"]
    b = fit(data, l2=1e-3, iterations=200, min_count=2, threshold=0.5)
    assert (a.weights, a.bias) == (b.weights, b.bias)
    rare = fit([*data, ("x/so", ("once",), True)], l2=1e-3, iterations=50, min_count=2, threshold=0.5)
    assert "once" not in rare.weights  # seen fewer than min_count times: no weight


def test_instances_label_the_gold_relations() -> None:
    text = "ولد سامي الحسن في نابلس."
    ents = [ent(text, "سامي الحسن", "PERS"), ent(text, "نابلس", "GPE")]
    e, args, words = PATTERNS.prepare(text, ents)
    gold = {("birth_place", (ents[0]["start"], ents[0]["end"]), (ents[1]["start"], ents[1]["end"]))}
    data = instances(candidates(text, e, args, words, PATTERNS.predicates), gold)
    assert [c for c, _, label in data if label] == ["birth_place/so"]
    assert len(data) > 1


def test_shipped_weights_are_a_rebuild_and_load() -> None:
    check = [sys.executable, "-m", "tools.train.relations", "--check"]
    assert subprocess.run(check, cwd=ROOT, check=False).returncode == 0
    model = load_classifier()
    assert model.weights and model.bias and 0 < model.threshold < 1


def test_combination_beats_the_patterns_on_held_out_folds() -> None:
    # k folds by sentence over the three development sets, shipped settings: measured F1 0.857 → 0.862, recall
    # 0.843 → 0.862 (tools/train/relations.py --cv)
    from tools.train import relations as tr

    sets = tr.development_sets()
    before = {"tp": 0, "fp": 0, "fn": 0}
    after = dict(before)
    for _, fit_on, held in tr.splits(sets, "sentence"):
        combined = RelationExtractor(classifier=tr.train(fit_on))
        for total, extractor in ((before, PATTERNS), (after, combined)):
            micro = relations_report(extractor, held)["micro"]
            for k in total:
                total[k] += micro[k]

    def f1(c: dict[str, int]) -> float:
        return 2 * c["tp"] / (2 * c["tp"] + c["fp"] + c["fn"])

    assert after["tp"] > before["tp"] + 5, (before, after)
    assert f1(after) > f1(before), (before, after)
