"""Relation extraction: the inventory, the trigger patterns, confidence, and the domain → range guarantee."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from tahqiq.analysis.evaluate_relations import ner_entities, read_gold, relations_report
from tahqiq.analysis.relations import ENTITY_TYPES, RelationExtractor, load_inventory

GOLD = Path(__file__).resolve().parent / "gold"
EXPECTED = (
    "founder_of member_of employee_of head_of holds_position nationality birth_place birth_date death_place "
    "death_date residence spouse parent_of sibling_of educated_at located_in headquarters capital_of part_of "
    "borders subsidiary_of owns produces founded_on event_date event_location participant_in won language_of "
    "currency_of population_of price_of amount_of percentage_of website_of law_of enacted_on meets visits "
    "announced_by"
).split()
EXTRACTOR = RelationExtractor()
F1_ALL_80 = 0.47  # measured 0.472 (P 0.54, R 0.42); was 0.46 before calibration and the new triggers


def ent(text: str, frag: str, type_: str, nth: int = 0) -> dict[str, object]:
    start = -1
    for _ in range(nth + 1):
        start = text.index(frag, start + 1)
    return {"type": type_, "start": start, "end": start + len(frag), "text": frag}


def test_inventory_has_the_40_predicates_with_known_types() -> None:
    preds = load_inventory()
    assert [p.name for p in preds] == EXPECTED
    for p in preds:
        assert p.domain and p.range and p.domain <= set(ENTITY_TYPES) and p.range <= set(ENTITY_TYPES)
        assert 0 < p.precision <= 1 and p.triggers
    listed = EXTRACTOR.inventory()
    assert {"predicate", "domain", "range", "description"} <= listed[0].keys()


def test_inventory_data_declares_its_licence() -> None:
    from importlib import resources

    data = json.loads((resources.files("tahqiq.analysis") / "data" / "relations.json").read_text("utf-8"))
    assert data["license"] == "CC-BY-SA-4.0"


def test_founder_and_headquarters() -> None:
    text = "أسس محمد العلي شركة الأفق عام 2010 ومقرها رام الله."
    ents = [
        ent(text, "محمد العلي", "PERS"),
        ent(text, "شركة الأفق", "ORG"),
        ent(text, "عام 2010", "DATE"),
        ent(text, "رام الله", "GPE"),
    ]
    got = {(r["predicate"], r["subject"]["text"], r["object"]["text"]) for r in EXTRACTOR.extract(text, ents)}
    assert ("founder_of", "محمد العلي", "شركة الأفق") in got
    assert ("headquarters", "شركة الأفق", "رام الله") in got
    assert ("founded_on", "شركة الأفق", "عام 2010") in got


def test_output_shape_and_offsets() -> None:
    text = "عمان عاصمة الأردن."
    [r] = EXTRACTOR.extract(text, [ent(text, "عمان", "GPE"), ent(text, "الأردن", "GPE")])
    assert r["predicate"] == "capital_of"
    assert r["subject"] == {"text": "عمان", "type": "GPE", "start": 0, "end": 4}
    assert text[r["object"]["start"] : r["object"]["end"]] == r["object"]["text"] == "الأردن"
    assert 0 < r["confidence"] <= 1


def test_types_outside_domain_give_nothing() -> None:
    text = "عمان عاصمة الأردن."
    assert EXTRACTOR.extract(text, [ent(text, "عمان", "PERS"), ent(text, "الأردن", "DATE")]) == []


def test_no_entities_or_no_trigger_gives_nothing() -> None:
    assert EXTRACTOR.extract("لا شيء هنا", []) == []
    text = "محمد والقدس"
    assert EXTRACTOR.extract(text, [ent(text, "محمد", "PERS"), ent(text, "القدس", "GPE")]) == []


def test_confidence_uses_entity_confidence_and_distance() -> None:
    text = "عمان عاصمة الأردن."
    sure = EXTRACTOR.extract(text, [ent(text, "عمان", "GPE"), ent(text, "الأردن", "GPE")])[0]["confidence"]
    low = [{**ent(text, "عمان", "GPE"), "confidence": 0.5}, {**ent(text, "الأردن", "GPE"), "confidence": 0.5}]
    unsure = EXTRACTOR.extract(text, low)[0]["confidence"]
    assert unsure < sure
    far_text = "عمان هي منذ زمن بعيد جدا عاصمة الأردن."
    far = EXTRACTOR.extract(far_text, [ent(far_text, "عمان", "GPE"), ent(far_text, "الأردن", "GPE")])
    assert far and far[0]["confidence"] < sure


def test_nearer_candidate_wins() -> None:
    text = "رنا زوجة سامر وشقيقة ليلى."
    ents = [ent(text, "رنا", "PERS"), ent(text, "سامر", "PERS"), ent(text, "ليلى", "PERS")]
    got = {(r["predicate"], r["subject"]["text"], r["object"]["text"]) for r in EXTRACTOR.extract(text, ents)}
    assert ("spouse", "رنا", "سامر") in got
    assert ("spouse", "رنا", "ليلى") not in got


def test_entity_objects_are_accepted() -> None:
    from dataclasses import dataclass

    @dataclass
    class Entity:
        type: str
        text: str
        start: int
        end: int
        depth: int = 0

    text = "عمان عاصمة الأردن."
    out = EXTRACTOR.extract(text, [Entity("GPE", "عمان", 0, 4), Entity("GPE", "الأردن", 11, 17)])
    assert [r["predicate"] for r in out] == ["capital_of"]


WORDS = "أسس مؤسس عضو يعمل في رئيس ولد توفي عاصمة يقع مقرها زار التقى أعلن و من عام شركة مدينة".split()


@st.composite
def sentence_with_entities(draw: st.DrawFn) -> tuple[str, list[dict[str, object]]]:
    words = draw(st.lists(st.sampled_from(WORDS), min_size=2, max_size=14))
    text = " ".join(words)
    starts, pos = [], 0
    for w in words:
        starts.append((pos, pos + len(w)))
        pos += len(w) + 1
    ents = []
    for _ in range(draw(st.integers(0, 6))):
        i = draw(st.integers(0, len(words) - 1))
        j = draw(st.integers(i, min(len(words) - 1, i + 2)))
        s, e = starts[i][0], starts[j][1]
        ents.append(
            {
                "type": draw(st.sampled_from(ENTITY_TYPES)),
                "start": s,
                "end": e,
                "text": text[s:e],
                "confidence": draw(st.floats(0, 1)),
            }
        )
    return text, ents


@settings(max_examples=300, deadline=None)
@given(sentence_with_entities())
def test_no_relation_breaks_domain_to_range(case: tuple[str, list[dict[str, object]]]) -> None:
    text, ents = case
    given_spans = {(e["start"], e["end"], e["type"]) for e in ents}
    for r in EXTRACTOR.extract(text, ents):
        p = EXTRACTOR.by_name[r["predicate"]]
        assert r["subject"]["type"] in p.domain and r["object"]["type"] in p.range
        for side in ("subject", "object"):
            x = r[side]
            assert (x["start"], x["end"], x["type"]) in given_spans
        assert 0 <= r["confidence"] <= 1


def test_report_on_the_dev_gold_reaches_the_aim() -> None:
    report = relations_report(EXTRACTOR, read_gold(GOLD / "relations_dev.jsonl"))
    assert report["n"] >= 20
    assert report["micro"]["f1"] >= 0.6
    assert set(report["per_predicate"]) <= set(EXPECTED)


def test_report_on_the_full_gold_with_gold_entities() -> None:
    # measured floor (micro F1 on all 80 sentences with gold entities, rounded down); the calibration half is
    # relations_dev.jsonl + ids 1-40, ids 41-80 are held out (scripts/calibrate_relations.py)
    report = relations_report(EXTRACTOR, read_gold(GOLD / "relations.jsonl"), ner_entities())
    assert report["n"] == 80
    assert report["micro"]["f1"] >= F1_ALL_80


def test_calibration_is_up_to_date() -> None:
    import subprocess
    import sys

    script = Path(__file__).resolve().parents[1] / "scripts" / "calibrate_relations.py"
    assert subprocess.run([sys.executable, str(script), "--check"], check=False).returncode == 0


def test_dev_gold_is_well_formed() -> None:
    for item in read_gold(GOLD / "relations_dev.jsonl"):
        for e in item["entities"]:
            assert item["text"][e["start"] : e["end"]] == e["text"]
        for r in item["relations"]:
            p = EXTRACTOR.by_name[r["predicate"]]
            assert r["subject"]["type"] in p.domain and r["object"]["type"] in p.range


def test_report_command_prints_a_table(capsys) -> None:  # type: ignore[no-untyped-def]
    from tahqiq.analysis.evaluate_relations import main

    assert main([]) == 0
    out = capsys.readouterr().out
    assert "micro" in out and "capital_of" in out


def test_nested_entities_give_nationality_head_of_and_event_location() -> None:
    text = "قال محافظ بنك المغرب عبد اللطيف الجواهري إن الرئيس الفلسطيني محمود عباس حضر مهرجان كان السينمائي."
    ents = [
        ent(text, "محافظ بنك المغرب", "OCC"),
        ent(text, "بنك المغرب", "ORG"),
        ent(text, "المغرب", "GPE"),
        ent(text, "عبد اللطيف الجواهري", "PERS"),
        ent(text, "الرئيس الفلسطيني", "OCC"),
        ent(text, "الفلسطيني", "NORP"),
        ent(text, "محمود عباس", "PERS"),
        ent(text, "مهرجان كان السينمائي", "EVENT"),
        ent(text, "كان", "GPE"),
    ]
    got = {(r["predicate"], r["subject"]["text"], r["object"]["text"]) for r in EXTRACTOR.extract(text, ents)}
    assert ("nationality", "محمود عباس", "الفلسطيني") in got
    assert ("head_of", "عبد اللطيف الجواهري", "بنك المغرب") in got
    assert ("head_of", "عبد اللطيف الجواهري", "المغرب") not in got  # only the title's direct child
    assert ("holds_position", "محمود عباس", "الرئيس الفلسطيني") in got
    assert ("event_location", "مهرجان كان السينمائي", "كان") in got


def test_shared_inventory_agrees_when_present() -> None:
    shared = GOLD / "relation_inventory.json"
    if not shared.exists():  # lands with the relation gold (branch ner-gold)
        return
    theirs = {p["predicate"]: p for p in json.loads(shared.read_text("utf-8"))}
    for p in load_inventory():
        assert set(theirs[p.name]["domain"]) == p.domain and set(theirs[p.name]["range"]) == p.range
