"""Relation extraction: the inventory, the trigger patterns, confidence, and the domain → range guarantee."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tahqiq.analysis.relations import ENTITY_TYPES, MEASURE_CONFIDENCE, RelationExtractor, load_inventory

from tests.support.script_support import load_script
from tools.evaluate.relations import ner_entities, read_gold, relations_report

GOLD = Path(__file__).resolve().parents[1] / "gold"
EXPECTED = (
    "founder_of member_of employee_of head_of holds_position nationality birth_place birth_date death_place "
    "death_date residence spouse parent_of sibling_of educated_at located_in headquarters capital_of part_of "
    "borders subsidiary_of owns produces founded_on event_date event_location participant_in won language_of "
    "currency_of population_of price_of amount_of percentage_of website_of law_of enacted_on meets visits "
    "announced_by"
).split()
EXTRACTOR = RelationExtractor()
# measured floors (micro F1, a little under what was measured): all 80 gold sentences with gold entities 0.73 (was
# 0.47); the held-out ids 41-80 0.74 (0.42); with the system's own entities (what /re does) 0.61 (0.25) and 0.60
# on ids 41-80 (0.13); the development sets relations_dev 0.80 (0.78), relations_dev_more 0.93 (161 sentences; 0.95
# on its first 72). The relation classifier (trained on all three development sets, so in sample here) moves
# these to 0.74, 0.76, 0.63, 0.60, 0.84 (relations_dev) and 0.94 / 0.82 (relations_dev_more); the floors stay the
# patterns' own
F1_ALL_80 = 0.70
F1_HELD_OUT = 0.71
F1_SYSTEM_ENTITIES = 0.59
F1_SYSTEM_ENTITIES_HELD_OUT = 0.57
F1_DEV_MORE = 0.92
F1_DEV_MORE_SYSTEM_ENTITIES = 0.80
# ids 242-341 of relations_dev_more, news at large written for issue 5 (annotated before the system was run on them:
# 0.75 with gold entities, 0.54 end to end; after the fixes they led to 0.79 and 0.66, the NER layer fit on them)
F1_DEV_NEWS = 0.75
F1_DEV_NEWS_SYSTEM_ENTITIES = 0.62
# relations_dev_news (ids 342-419, written for relation recall; the recognizer's learned layer never trains on it):
# first measured (ids 342-399) 0.71 with gold entities, 0.54 end to end; now, the patterns fit on them, 0.79 and
# 0.58 (the classifier in sample); ids 400-419, measured once before being used, 0.71 and 0.55
F1_RECALL_SET = 0.76
F1_RECALL_SET_SYSTEM_ENTITIES = 0.55


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

    data = json.loads((resources.files("tahqiq.analysis.relations") / "data" / "relations.json").read_text("utf-8"))
    assert data["license"] == "CC-BY-SA-4.0"


def test_founder_and_headquarters() -> None:
    text = "أسس محمد العلي شركة الأفق عام 2010 ومقرها رام الله."
    ents = [
        ent(text, "محمد العلي", "PERS"),
        ent(text, "شركة الأفق", "ORG"),
        ent(text, "عام 2010", "DATE"),
        ent(text, "رام الله", "GPE"),
    ]
    got = triples(text, ents)
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
    low = [{**ent(text, "عمان", "GPE"), "confidence": 0.7}, {**ent(text, "الأردن", "GPE"), "confidence": 0.7}]
    unsure = EXTRACTOR.extract(text, low)[0]["confidence"]
    assert unsure < sure
    far_text = "عمان هي منذ زمن بعيد جدا عاصمة الأردن."
    far = EXTRACTOR.extract(far_text, [ent(far_text, "عمان", "GPE"), ent(far_text, "الأردن", "GPE")])
    assert far and far[0]["confidence"] < sure


def test_nearer_candidate_wins() -> None:
    text = "رنا زوجة سامر وشقيقة ليلى."
    ents = [ent(text, "رنا", "PERS"), ent(text, "سامر", "PERS"), ent(text, "ليلى", "PERS")]
    got = triples(text, ents)
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


WORDS = (
    "أسس مؤسس عضو يعمل في رئيس ولد توفي عاصمة يقع مقرها زار التقى أعلن و من عام شركة مدينة الشيخ الأمير "
    "وموريتانيا والسعودية بالرباط لمجموعة موقعها تديره والدها التابعة تحد الذي A350 يقطنها فوز"
).split()


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
    assert report["micro"]["f1"] >= 0.75
    assert set(report["per_predicate"]) <= set(EXPECTED)


def test_report_on_the_full_gold_with_gold_entities() -> None:
    # measured floor (micro F1 on all 80 sentences with gold entities, rounded down); the calibration half is
    # relations_dev.jsonl + ids 1-40, ids 41-80 are held out (tools/calibrate/relations.py)
    report = relations_report(EXTRACTOR, read_gold(GOLD / "relations.jsonl"), ner_entities())
    assert report["n"] == 80
    assert report["micro"]["f1"] >= F1_ALL_80


def test_report_on_the_held_out_gold_with_gold_entities() -> None:
    # ids 41-80 are never read by the calibration (tools/calibrate/relations.py)
    gold = [g for g in read_gold(GOLD / "relations.jsonl") if int(g["id"]) >= 41]
    report = relations_report(EXTRACTOR, gold, ner_entities())
    assert report["n"] == 40
    assert report["micro"]["f1"] >= F1_HELD_OUT, report["micro"]


def test_report_with_the_system_entities() -> None:
    # end to end, as /re answers: the recognizer's entities, not the gold ones
    from tahqiq.analysis.ner import Recognizer

    recognize = Recognizer().recognize
    gold = read_gold(GOLD / "relations.jsonl")
    report = relations_report(EXTRACTOR, gold, recognize=recognize)
    assert report["micro"]["f1"] >= F1_SYSTEM_ENTITIES, report["micro"]
    held_out = relations_report(EXTRACTOR, [g for g in gold if int(g["id"]) >= 41], recognize=recognize)
    assert held_out["micro"]["f1"] >= F1_SYSTEM_ENTITIES_HELD_OUT, held_out["micro"]


def test_report_on_the_written_development_set() -> None:
    rows = read_gold(GOLD / "relations_dev_more.jsonl")
    report = relations_report(EXTRACTOR, [r for r in rows if r["id"] <= 241])
    assert report["n"] == 241
    assert report["micro"]["f1"] >= F1_DEV_MORE, report["micro"]
    news = relations_report(EXTRACTOR, [r for r in rows if r["id"] >= 242])
    assert news["n"] == 100
    assert news["micro"]["f1"] >= F1_DEV_NEWS, news["micro"]


def test_calibration_is_up_to_date() -> None:
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    check = [sys.executable, "-m", "tools.calibrate.relations", "--check"]
    assert subprocess.run(check, cwd=root, check=False).returncode == 0


def test_dev_gold_is_well_formed() -> None:
    for item in read_gold(GOLD / "relations_dev.jsonl"):
        for e in item["entities"]:
            assert item["text"][e["start"] : e["end"]] == e["text"]
        for r in item["relations"]:
            p = EXTRACTOR.by_name[r["predicate"]]
            assert r["subject"]["type"] in p.domain and r["object"]["type"] in p.range


def test_written_dev_set_is_built_from_its_source_and_well_formed() -> None:
    module = load_script("relations_dev")
    assert [t.name for _, t, _ in module.SETS] == [
        "relations_dev_more.jsonl",
        "relations_dev_news.jsonl",
        "relations_dev_news2.jsonl",
    ]
    for source, target, first in module.SETS:
        built = module.build(source.read_text(encoding="utf-8"), first)
        assert built == read_gold(target)
        assert built[0]["id"] == first
        for item in built:
            for e in item["entities"]:
                assert item["text"][e["start"] : e["end"]] == e["text"] and e["type"] in ENTITY_TYPES
            for r in item["relations"]:
                p = EXTRACTOR.by_name[r["predicate"]]
                assert r["subject"]["type"] in p.domain and r["object"]["type"] in p.range


def test_news_dev_set_covers_every_predicate_and_continues_the_numbering() -> None:
    # relations_dev_news: ids 342-419, every predicate of the inventory stated among ids 342-399
    rows = read_gold(GOLD / "relations_dev_news.jsonl")
    assert [r["id"] for r in rows] == list(range(342, 420))
    stated = {x["predicate"] for r in rows if r["id"] <= 399 for x in r["relations"]}
    assert stated == set(EXTRACTOR.by_name)
    assert {r["text"] for r in rows}.isdisjoint(r["text"] for r in read_gold(GOLD / "relations_dev_more.jsonl"))


def test_build_skips_comment_blocks() -> None:
    module = load_script("relations_dev")
    built = module.build("# a header\n# more\n\nزار محمد عمان.\nPERS محمد\nGPE عمان\nvisits محمد => عمان\n", 5)
    assert [(b["id"], b["text"], len(b["relations"])) for b in built] == [(5, "زار محمد عمان.", 1)]


def test_report_command_prints_a_table(capsys) -> None:  # type: ignore[no-untyped-def]
    from tools.evaluate.relations import main

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
    got = triples(text, ents)
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


def triples(text: str, ents: list[dict[str, object]]) -> set[tuple[str, str, str]]:
    return {(r["predicate"], r["subject"]["text"], r["object"]["text"]) for r in EXTRACTOR.extract(text, ents)}


def test_verb_first_sentence_with_a_titled_subject() -> None:
    # the verb stands before the title, its preposition between the person and the place
    text = "ولد الروائي اللبناني أمين معلوف في بيروت عام 1949."
    ents = [
        ent(text, "الروائي اللبناني", "OCC"),
        ent(text, "اللبناني", "NORP"),
        ent(text, "أمين معلوف", "PERS"),
        ent(text, "بيروت", "GPE"),
        ent(text, "عام 1949", "DATE"),
    ]
    got = triples(text, ents)
    assert {("birth_place", "أمين معلوف", "بيروت"), ("birth_date", "أمين معلوف", "عام 1949")} <= got
    assert ("holds_position", "أمين معلوف", "الروائي اللبناني") in got


def test_preposition_as_the_objects_clitic() -> None:
    text = "أقيم الحفل في قصر العظم بدمشق."
    got = triples(text, [ent(text, "قصر العظم", "FAC"), ent(text, "بدمشق", "GPE")])
    assert ("located_in", "قصر العظم", "بدمشق") in got
    text = "أعلنت شركة «سنا» التابعة لمجموعة الخرافي عن أرباحها."
    got = triples(text, [ent(text, "سنا", "ORG"), ent(text, "لمجموعة الخرافي", "ORG")])
    assert ("subsidiary_of", "سنا", "لمجموعة الخرافي") in got


def test_coordinated_objects_share_the_relation_and_the_trigger_stays_before_the_first_entity() -> None:
    text = "تحد اليمن السعودية من الشمال وعمان من الشرق."
    ents = [ent(text, "اليمن", "GPE"), ent(text, "السعودية", "GPE"), ent(text, "وعمان", "GPE")]
    got = triples(text, ents)
    assert {("borders", "اليمن", "السعودية"), ("borders", "اليمن", "وعمان")} <= got
    assert ("borders", "السعودية", "وعمان") not in got  # تحد stands before اليمن, not before السعودية


def test_post_before_a_courtesy_title_is_the_one_held() -> None:
    text = "استقبل وزير الدفاع الشيخ سالم الجابر نظيره التركي."
    ents = [ent(text, "وزير الدفاع", "OCC"), ent(text, "الشيخ", "OCC"), ent(text, "سالم الجابر", "PERS")]
    got = triples(text, ents)
    assert ("holds_position", "سالم الجابر", "وزير الدفاع") in got
    assert ("holds_position", "سالم الجابر", "الشيخ") not in got
    alone = "قال الشيخ سالم الجابر إن الاجتماع انتهى."
    got = triples(alone, [ent(alone, "الشيخ", "OCC"), ent(alone, "سالم الجابر", "PERS")])
    assert ("holds_position", "سالم الجابر", "الشيخ") in got


def test_a_person_inside_a_name_is_no_argument() -> None:
    text = "هبطت الطائرة في مطار الملك خالد الدولي."
    ents = [ent(text, "مطار الملك خالد الدولي", "FAC"), ent(text, "الملك", "OCC"), ent(text, "خالد", "PERS")]
    assert not any(r["subject"]["text"] == "خالد" for r in EXTRACTOR.extract(text, ents))


def test_relative_clause_object_first() -> None:
    text = "يعد ميناء صلالة الذي تديره شركة موانئ عمان الأكبر في البلاد."
    got = triples(text, [ent(text, "ميناء صلالة", "FAC"), ent(text, "شركة موانئ عمان", "ORG")])
    assert ("owns", "شركة موانئ عمان", "ميناء صلالة") in got


def test_possessive_pronoun_refers_to_the_first_organisation() -> None:
    text = "وقعت شركة المراعي عقدا مع شركة نستله، بحسب بيان على موقعها almarai.com."
    ents = [ent(text, "شركة المراعي", "ORG"), ent(text, "شركة نستله", "ORG"), ent(text, "almarai.com", "WEBSITE")]
    got = triples(text, ents)
    assert ("website_of", "almarai.com", "شركة المراعي") in got
    assert ("website_of", "almarai.com", "شركة نستله") not in got


def test_parent_possessive_gives_the_parent_as_subject() -> None:
    text = "قالت العداءة نور الهدى إن والدها كمال الهدى دربها."
    got = triples(text, [ent(text, "نور الهدى", "PERS"), ent(text, "كمال الهدى", "PERS")])
    assert ("parent_of", "كمال الهدى", "نور الهدى") in got
    assert ("parent_of", "نور الهدى", "كمال الهدى") not in got


def test_nesting_rules_with_the_inner_entity_as_subject_and_an_institutions_place() -> None:
    text = "اشترت الشركة طائرات بوينغ 787 وافتتحت مكتبة الإسكندرية ومركز دبي للإحصاء معرضا."
    ents = [
        ent(text, "بوينغ 787", "PRODUCT"),
        ent(text, "بوينغ", "ORG"),
        ent(text, "مكتبة الإسكندرية", "ORG"),
        ent(text, "الإسكندرية", "GPE"),
        ent(text, "مركز دبي للإحصاء", "ORG"),
        ent(text, "دبي", "GPE"),
    ]
    got = triples(text, ents)
    assert ("produces", "بوينغ", "بوينغ 787") in got
    # an institution named after its place: measured at precision 0.18 on the development sets, so it fires at
    # the calibration's threshold but is left out at the extractor's (MIN_CONFIDENCE)
    assert ("located_in", "مكتبة الإسكندرية", "الإسكندرية") not in got
    assert ("located_in", "مكتبة الإسكندرية", "الإسكندرية") in measured_triples(text, ents)
    assert ("headquarters", "مكتبة الإسكندرية", "الإسكندرية") not in got


def test_verb_first_split_happens_only_before_a_preposition() -> None:
    # "في أقصى" must not be read as في (before the subject) + أقصى (between): المسجد الأقصى is a name here
    text = "أدانت الجامعة من مقرها في جدة اقتحام المسجد الأقصى في القدس."
    ents = [ent(text, "جدة", "GPE"), ent(text, "المسجد الأقصى", "FAC"), ent(text, "القدس", "GPE")]
    assert ("part_of", "جدة", "القدس") not in triples(text, ents)


def test_a_subjects_own_title_is_no_trigger() -> None:
    # رئيس belongs to the person's title, so it does not make him head of the next organisation
    text = "قال رئيس بلدية نابلس سامي حجاوي إن قوات الاحتلال أغلقت الطرق."
    ents = [
        ent(text, "رئيس بلدية نابلس", "OCC"),
        ent(text, "بلدية نابلس", "ORG"),
        ent(text, "سامي حجاوي", "PERS"),
        ent(text, "قوات الاحتلال", "ORG"),
    ]
    got = triples(text, ents)
    assert ("head_of", "سامي حجاوي", "بلدية نابلس") in got
    assert ("head_of", "سامي حجاوي", "قوات الاحتلال") not in got


def test_future_prefix_and_present_tense_triggers() -> None:
    text = "سيزور الرئيس عبد المجيد تبون موسكو الشهر المقبل."
    got = triples(text, [ent(text, "الرئيس", "OCC"), ent(text, "عبد المجيد تبون", "PERS"), ent(text, "موسكو", "GPE")])
    assert ("visits", "عبد المجيد تبون", "موسكو") in got


def test_spouse_from_a_noun_of_marriage_and_a_verb_before_the_subject() -> None:
    text = "افتتحت السيدة هند الزين، عقيلة الوزير عمر الزين، المعرض."
    got = triples(text, [ent(text, "هند الزين", "PERS"), ent(text, "الوزير", "OCC"), ent(text, "عمر الزين", "PERS")])
    assert ("spouse", "هند الزين", "عمر الزين") in got
    text = "تزوج المطرب سامي حداد من الممثلة ريم الحلو العام الماضي."
    ents = [ent(text, "المطرب", "OCC"), ent(text, "سامي حداد", "PERS"), ent(text, "الممثلة", "OCC")]
    got = triples(text, [*ents, ent(text, "ريم الحلو", "PERS")])
    assert ("spouse", "سامي حداد", "ريم الحلو") in got


def test_ta_marbuta_tells_mother_of_from_his_father() -> None:
    # والدة (mother of) is no والده (his father), ابنة (daughter of) no ابنه (his son): the direction follows
    text = "قالت منى سعيد والدة الطالب كريم سعيد إن ابنها متفوق."
    got = triples(text, [ent(text, "منى سعيد", "PERS"), ent(text, "الطالب", "OCC"), ent(text, "كريم سعيد", "PERS")])
    assert ("parent_of", "منى سعيد", "كريم سعيد") in got
    assert ("parent_of", "كريم سعيد", "منى سعيد") not in got
    text = "ألقت ريما الصالح، ابنة الفنان الراحل فادي الصالح، كلمة في الحفل."
    got = triples(
        text, [ent(text, "ريما الصالح", "PERS"), ent(text, "الفنان الراحل", "OCC"), ent(text, "فادي الصالح", "PERS")]
    )
    assert ("parent_of", "فادي الصالح", "ريما الصالح") in got
    assert ("parent_of", "ريما الصالح", "فادي الصالح") not in got


def test_member_and_staff_titles_holding_an_organisation() -> None:
    text = "قال عضو اللجنة المركزية لحركة فتح عباس زكي إن الاجتماع انتهى."
    ents = [
        ent(text, "عضو اللجنة المركزية لحركة فتح", "OCC"),
        ent(text, "اللجنة المركزية لحركة فتح", "ORG"),
        ent(text, "عباس زكي", "PERS"),
    ]
    assert ("member_of", "عباس زكي", "اللجنة المركزية لحركة فتح") in triples(text, ents)
    text = "أكدت المتحدثة باسم وزارة الصحة ليلى حسن أن الوضع مستقر."
    ents = [
        ent(text, "المتحدثة باسم وزارة الصحة", "OCC"),
        ent(text, "وزارة الصحة", "ORG"),
        ent(text, "ليلى حسن", "PERS"),
    ]
    got = triples(text, ents)
    assert ("employee_of", "ليلى حسن", "وزارة الصحة") in got
    assert ("head_of", "ليلى حسن", "وزارة الصحة") not in got


def test_participation_verbs_and_the_nearer_subject() -> None:
    text = "تأهل المنتخب العراقي إلى كأس آسيا 2027 بعد فوزه الأخير."
    ents = [ent(text, "المنتخب العراقي", "ORG"), ent(text, "كأس آسيا 2027", "EVENT"), ent(text, "2027", "DATE")]
    got = triples(text, ents)
    assert ("participant_in", "المنتخب العراقي", "كأس آسيا 2027") in got
    assert ("event_date", "كأس آسيا 2027", "2027") in got  # a number alone is an entity too
    # the trigger after ناديا الفاسي is hers, not the one named before her
    text = "أعلن المخرج طارق الفاسي أن زوجته ناديا الفاسي ستشارك في مهرجان قرطاج."
    ents = [ent(text, "طارق الفاسي", "PERS"), ent(text, "ناديا الفاسي", "PERS"), ent(text, "مهرجان قرطاج", "EVENT")]
    got = triples(text, ents)
    assert ("participant_in", "ناديا الفاسي", "مهرجان قرطاج") in got
    assert ("participant_in", "طارق الفاسي", "مهرجان قرطاج") not in got


def test_language_spoken_by_a_people_and_official_language_before_the_country() -> None:
    text = "تعد الأمازيغية التي يتحدثها الطوارق من لغات الصحراء."
    got = triples(text, [ent(text, "الأمازيغية", "LANGUAGE"), ent(text, "الطوارق", "NORP")])
    assert ("language_of", "الأمازيغية", "الطوارق") in got
    text = "اللغة الرسمية في تشاد هي الفرنسية."
    assert ("language_of", "الفرنسية", "تشاد") in triples(
        text, [ent(text, "تشاد", "GPE"), ent(text, "الفرنسية", "LANGUAGE")]
    )


def test_law_of_its_states_nisba_and_a_ratifying_state() -> None:
    text = "يمنح الدستور المصري حق التعليم لكل مواطن في مصر."
    ents = [ent(text, "الدستور المصري", "LAW"), ent(text, "المصري", "NORP"), ent(text, "مصر", "GPE", 1)]
    assert ("law_of", "الدستور المصري", "مصر") in triples(text, ents)
    text = "يمنح الدستور المصري حق التعليم لكل مواطن في ليبيا."
    ents = [ent(text, "الدستور المصري", "LAW"), ent(text, "المصري", "NORP"), ent(text, "ليبيا", "GPE")]
    assert not any(p == "law_of" for p, _, _ in triples(text, ents))
    text = "صادقت الجزائر على قانون المحروقات الجديد."
    got = triples(text, [ent(text, "الجزائر", "GPE"), ent(text, "قانون المحروقات الجديد", "LAW")])
    assert ("law_of", "قانون المحروقات الجديد", "الجزائر") in got


def test_enactment_date_after_in_and_entry_into_force() -> None:
    text = "أصدر الملك القانون رقم 12 في 3 أيار 2021."
    got = triples(text, [ent(text, "القانون رقم 12", "LAW"), ent(text, "3 أيار 2021", "DATE")])
    assert ("enacted_on", "القانون رقم 12", "3 أيار 2021") in got
    text = "دخل قانون الضريبة الموحد حيز التنفيذ في 1 كانون الثاني 2024."
    got = triples(text, [ent(text, "قانون الضريبة الموحد", "LAW"), ent(text, "1 كانون الثاني 2024", "DATE")])
    assert ("enacted_on", "قانون الضريبة الموحد", "1 كانون الثاني 2024") in got


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["الأردن", "قطر", "تونس", "لبنان", "العراق", "اليمن", "السودان", "فلسطين", "البحرين"]))
def test_a_nisba_names_its_state_and_no_other(name: str) -> None:
    from tahqiq.analysis.relations.words import nisba_names
    from tahqiq.arabic.keys import loose_unpunctuated

    bare = name.removeprefix("ال")
    for nisba in ("ال" + bare + "ي", "ال" + bare + "ية", "وال" + bare + "ي"):
        assert nisba_names([loose_unpunctuated(nisba)], [loose_unpunctuated(name)])
    assert not nisba_names([loose_unpunctuated("المغربي")], [loose_unpunctuated(name)])
    assert not nisba_names([loose_unpunctuated(name)], [loose_unpunctuated(name)])  # the name itself is no nisba


def test_headquarters_from_fi_needs_an_organisation_without_a_nisba() -> None:
    # an organisation named with its country's nisba acts in the city after في; one without sits there
    text = "وقعت شركة النخيل الكورية في الدوحة اتفاقية جديدة."
    ents = [ent(text, "شركة النخيل الكورية", "ORG"), ent(text, "الكورية", "NORP"), ent(text, "الدوحة", "GPE")]
    assert not any(p == "headquarters" for p, _, _ in triples(text, ents))
    text = "أعلنت مجموعة النخيل في الدوحة عن أرباحها."
    ents = [ent(text, "مجموعة النخيل", "ORG"), ent(text, "الدوحة", "GPE")]
    assert ("headquarters", "مجموعة النخيل", "الدوحة") in triples(text, ents)


def test_headquarters_from_a_possessive_reaches_past_another_city() -> None:
    text = "افتتحت مجموعة النخيل فرعا في عمان، فيما يقع مقرها في الدوحة."
    ents = [ent(text, "مجموعة النخيل", "ORG"), ent(text, "عمان", "GPE"), ent(text, "الدوحة", "GPE")]
    got = triples(text, ents)
    assert ("headquarters", "مجموعة النخيل", "الدوحة") in got
    assert ("headquarters", "مجموعة النخيل", "عمان") not in got


def test_member_of_after_a_leader_in_phrase() -> None:
    text = "قال القيادي في حزب الأمة سامي الحسن إن الحزب سيشارك."
    ents = [ent(text, "حزب الأمة", "ORG"), ent(text, "سامي الحسن", "PERS")]
    assert ("member_of", "سامي الحسن", "حزب الأمة") in triples(text, ents)


def test_a_title_before_a_name_is_not_the_previous_persons() -> None:
    text = "التقى الرئيس سامي الحسن وزير الخارجية خالد العلي أمس."
    ents = [
        ent(text, "الرئيس", "OCC"),
        ent(text, "سامي الحسن", "PERS"),
        ent(text, "وزير الخارجية", "OCC"),
        ent(text, "خالد العلي", "PERS"),
    ]
    got = triples(text, ents)
    assert ("holds_position", "خالد العلي", "وزير الخارجية") in got
    assert ("holds_position", "سامي الحسن", "وزير الخارجية") not in got


def test_report_on_the_written_development_set_with_the_system_entities() -> None:
    # end to end on the written development set (every relation of its sentences annotated): ids 1-241 0.83 (0.64
    # before the issue-5 patterns; ids 146-161, written last and never tuned on, 0.83), ids 242-341 0.66
    from tahqiq.analysis.ner import Recognizer

    rows = read_gold(GOLD / "relations_dev_more.jsonl")
    recognize = Recognizer().recognize
    report = relations_report(EXTRACTOR, [r for r in rows if r["id"] <= 241], recognize=recognize)
    assert report["micro"]["f1"] >= F1_DEV_MORE_SYSTEM_ENTITIES, report["micro"]
    news = relations_report(EXTRACTOR, [r for r in rows if r["id"] >= 242], recognize=recognize)
    assert news["micro"]["f1"] >= F1_DEV_NEWS_SYSTEM_ENTITIES, news["micro"]


def test_language_of_after_a_verb_of_speaking() -> None:
    text = "يتكلم معظم سكان السنغال الفرنسية."
    ents = [ent(text, "السنغال", "GPE"), ent(text, "الفرنسية", "LANGUAGE")]
    assert ("language_of", "الفرنسية", "السنغال") in triples(text, ents)


def patterns_triples(text: str, ents: list[dict[str, object]]) -> set[tuple[str, str, str]]:
    """The patterns' relations alone (the classifier could add a relation a pattern misses)."""
    extractor = RelationExtractor(classifier=None)
    return {(r["predicate"], r["subject"]["text"], r["object"]["text"]) for r in extractor.extract(text, ents)}


def measured_triples(text: str, ents: list[dict[str, object]]) -> set[tuple[str, str, str]]:
    """The patterns' relations at the calibration's threshold (MEASURE_CONFIDENCE): also those of patterns whose
    measured precision keeps them out of the extractor's output."""
    extractor = RelationExtractor(classifier=None, min_confidence=MEASURE_CONFIDENCE)
    return {(r["predicate"], r["subject"]["text"], r["object"]["text"]) for r in extractor.extract(text, ents)}


# news at large (relations_dev_more ids 242-341): verbs and nouns of the predicates that the patterns did not know
def test_news_triggers_for_leading_dying_living_and_visiting() -> None:
    text = "يقود اللواء سمير الحسن قيادة الشرطة العراقية منذ عام 2022."
    ents = [ent(text, "سمير الحسن", "PERS"), ent(text, "قيادة الشرطة العراقية", "ORG"), ent(text, "عام 2022", "DATE")]
    assert ("head_of", "سمير الحسن", "قيادة الشرطة العراقية") in patterns_triples(text, ents)
    text = "وافت المنية الشاعر سامي العلي في مدينة حلب أمس."
    ents = [ent(text, "سامي العلي", "PERS"), ent(text, "مدينة حلب", "GPE")]
    assert ("death_place", "سامي العلي", "مدينة حلب") in patterns_triples(text, ents)
    text = "استقر الرسام كريم الجبوري في مدينة ليون بعد سنوات من التنقل."
    ents = [ent(text, "كريم الجبوري", "PERS"), ent(text, "مدينة ليون", "GPE")]
    assert ("residence", "كريم الجبوري", "مدينة ليون") in patterns_triples(text, ents)
    text = "وصل الوزير فادي نصر قادما من الدوحة في جولة إقليمية."
    ents = [ent(text, "فادي نصر", "PERS"), ent(text, "الدوحة", "GPE")]
    assert ("visits", "فادي نصر", "الدوحة") in patterns_triples(text, ents)
    text = "وخلال زيارته إلى تونس التقى الوزير فادي نصر رئيس الحكومة."
    ents = [ent(text, "تونس", "GPE"), ent(text, "فادي نصر", "PERS")]
    assert ("visits", "فادي نصر", "تونس") in patterns_triples(text, ents)


def test_news_triggers_for_companies_and_their_seats() -> None:
    text = "تعد شركة النور ذراع الطاقة لمجموعة الفجر القابضة."
    ents = [ent(text, "شركة النور", "ORG"), ent(text, "لمجموعة الفجر القابضة", "ORG")]
    assert ("subsidiary_of", "شركة النور", "لمجموعة الفجر القابضة") in patterns_triples(text, ents)
    text = "أعلن نادي الشباب، المملوك لشركة الريان، ضم لاعب جديد."
    ents = [ent(text, "نادي الشباب", "ORG"), ent(text, "لشركة الريان", "ORG")]
    assert ("owns", "لشركة الريان", "نادي الشباب") in patterns_triples(text, ents)
    # a possessive seat reaches past a nearer country to the first organisation
    text = "أعلنت شركة الواحة للنفط في ليبيا، ومقرها بنغازي، زيادة الإنتاج."
    ents = [ent(text, "شركة الواحة للنفط", "ORG"), ent(text, "ليبيا", "GPE"), ent(text, "بنغازي", "GPE")]
    got = patterns_triples(text, ents)
    assert ("headquarters", "شركة الواحة للنفط", "بنغازي") in got
    assert ("headquarters", "شركة الواحة للنفط", "ليبيا") not in got
    # a person managing an organisation heads it; an organisation managing one owns it (تديرها measured at
    # precision 0.25: it fires at the calibration's threshold only)
    text = "جمعية الأمل الخيرية تديرها السيدة هدى الخطيب منذ سنوات."
    ents = [ent(text, "جمعية الأمل الخيرية", "ORG"), ent(text, "هدى الخطيب", "PERS")]
    got = measured_triples(text, ents)
    assert ("head_of", "هدى الخطيب", "جمعية الأمل الخيرية") in got
    assert ("owns", "هدى الخطيب", "جمعية الأمل الخيرية") not in got


def test_news_triggers_for_talks_borders_and_titles_holding_a_body() -> None:
    text = "تباحث الرئيس سامي عادل مع المستشار الألماني فريدريش ميرتس في برلين."
    ents = [ent(text, "سامي عادل", "PERS"), ent(text, "فريدريش ميرتس", "PERS"), ent(text, "برلين", "GPE")]
    assert ("meets", "سامي عادل", "فريدريش ميرتس") in patterns_triples(text, ents)
    text = "يمتد الشريط الحدودي بين الأردن والعراق في الصحراء."
    ents = [ent(text, "الأردن", "GPE"), ent(text, "والعراق", "GPE")]
    assert ("borders", "الأردن", "والعراق") in patterns_triples(text, ents)
    text = "قال زعيم حزب الوسط سالم بكر إن الحزب سيشارك."
    ents = [ent(text, "زعيم حزب الوسط", "OCC"), ent(text, "حزب الوسط", "ORG"), ent(text, "سالم بكر", "PERS")]
    assert ("head_of", "سالم بكر", "حزب الوسط") in patterns_triples(text, ents)
    text = "أكدت سفيرة الاتحاد الأوروبي ماريا لوبيز دعم الإصلاحات."
    ents = [
        ent(text, "سفيرة الاتحاد الأوروبي", "OCC"),
        ent(text, "الاتحاد الأوروبي", "ORG"),
        ent(text, "ماريا لوبيز", "PERS"),
    ]
    assert ("employee_of", "ماريا لوبيز", "الاتحاد الأوروبي") in patterns_triples(text, ents)


def test_a_spouse_noun_after_with_is_marriage_not_a_meeting() -> None:
    # the spouse nouns' pooled measured precision (0.8) is their prior: مع زوجها beats the bare preposition مع
    text = "تعيش الكاتبة ليلى سعيد في باريس مع زوجها الرسام كمال حداد منذ سنوات."
    ents = [ent(text, "ليلى سعيد", "PERS"), ent(text, "باريس", "GPE"), ent(text, "كمال حداد", "PERS")]
    got = patterns_triples(text, ents)
    assert ("spouse", "ليلى سعيد", "كمال حداد") in got
    assert ("meets", "ليلى سعيد", "كمال حداد") not in got
    text = "عقد اللاعب سامي نصر قرانه على الممثلة رنا خوري في بيروت."
    ents = [ent(text, "سامي نصر", "PERS"), ent(text, "رنا خوري", "PERS"), ent(text, "بيروت", "GPE")]
    assert ("spouse", "سامي نصر", "رنا خوري") in patterns_triples(text, ents)


_STEMS = st.text(alphabet="سيتنامحد", min_size=1, max_size=5)
# a word as the extractor sees one: clitics, a future prefix, a stem
_WORDS = st.builds(
    lambda c, f, stem: c + f + stem,
    st.sampled_from(["", "و", "ف", "ب", "ل", "ال", "وال", "بال", "لل"]),
    st.sampled_from(["", "س", "ست", "سي"]),
    _STEMS,
)


@settings(max_examples=500, deadline=None)
@given(st.lists(_WORDS, min_size=1, max_size=6), st.one_of(_STEMS, _WORDS))
def test_the_sentence_forms_answer_as_word_matching_does(words: list[str], want: str) -> None:
    # the extractor skips a trigger whose first word no form of the sentence holds: the forms must agree with
    # word_matches word for word (clitics, the future prefix, prefixes of three letters or more)
    from tahqiq.analysis.relations.model import word_matches
    from tahqiq.analysis.relations.words import match_forms, occurs

    assert occurs(want, match_forms(words)) == any(word_matches(w, want) for w in words)


def test_a_plane_landing_is_a_visit_and_seeing_the_light_a_birth() -> None:
    text = "هبطت طائرة الوزير سامي نصر في مطار الملكة علياء الدولي بعمان."
    ents = [
        ent(text, "سامي نصر", "PERS"),
        ent(text, "مطار الملكة علياء الدولي", "FAC"),
        ent(text, "بعمان", "GPE"),
    ]
    assert ("visits", "سامي نصر", "بعمان") in patterns_triples(text, ents)
    text = "أبصر الشاعر سامي نصر النور في حلب عام 1950."
    ents = [ent(text, "سامي نصر", "PERS"), ent(text, "حلب", "GPE"), ent(text, "عام 1950", "DATE")]
    got = patterns_triples(text, ents)
    assert ("birth_place", "سامي نصر", "حلب") in got and ("birth_date", "سامي نصر", "عام 1950") in got


# relation recall (relations_dev_news ids 342-399): pairs far apart across a clause, conjuncts named with titles
def test_a_clause_between_commas_after_the_subject_is_skipped() -> None:
    text = "أطلقت شركة نجمة، التي أسسها سامر علي عام 2001 في عمان، هاتفها زيتون 5 في الأسواق."
    ents = [
        ent(text, "شركة نجمة", "ORG"),
        ent(text, "سامر علي", "PERS"),
        ent(text, "عام 2001", "DATE"),
        ent(text, "عمان", "GPE"),
        ent(text, "زيتون 5", "PRODUCT"),
    ]
    got = patterns_triples(text, ents)
    assert ("produces", "شركة نجمة", "زيتون 5") in got
    assert ("founder_of", "سامر علي", "شركة نجمة") in got
    # without the second comma there is no clause to skip: the product is too far for the verb before the subject
    text = "أطلقت شركة نجمة، التي أسسها سامر علي عام 2001 في عمان هاتفها زيتون 5 في الأسواق."
    ents = [
        {**e, "start": text.index(str(e["text"])), "end": text.index(str(e["text"])) + len(str(e["text"]))}
        for e in ents
    ]
    assert ("produces", "شركة نجمة", "زيتون 5") not in patterns_triples(text, ents)


def test_a_person_coordinated_by_the_title_before_the_name_shares_the_relation_not_the_title() -> None:
    text = "استقبل الرئيس سامي عادل رئيس الوزراء كمال حداد ووزير المالية رامي نصر."
    ents = [
        ent(text, "الرئيس", "OCC"),
        ent(text, "سامي عادل", "PERS"),
        ent(text, "رئيس الوزراء", "OCC"),
        ent(text, "كمال حداد", "PERS"),
        ent(text, "ووزير المالية", "OCC"),
        ent(text, "رامي نصر", "PERS"),
    ]
    got = patterns_triples(text, ents)
    assert {("meets", "سامي عادل", "كمال حداد"), ("meets", "سامي عادل", "رامي نصر")} <= got
    assert ("holds_position", "رامي نصر", "ووزير المالية") in got
    assert ("holds_position", "كمال حداد", "ووزير المالية") not in got
    assert ("holds_position", "رامي نصر", "رئيس الوزراء") not in got


def test_conjuncts_after_a_verb_share_its_object_and_are_not_related_to_each_other() -> None:
    text = "التقى الرئيس سامي عادل والمستشار كمال حداد ورئيس الوزراء رامي نصر في برلين الوزير فادي سليم."
    ents = [
        ent(text, "الرئيس", "OCC"),
        ent(text, "سامي عادل", "PERS"),
        ent(text, "والمستشار", "OCC"),
        ent(text, "كمال حداد", "PERS"),
        ent(text, "ورئيس الوزراء", "OCC"),
        ent(text, "رامي نصر", "PERS"),
        ent(text, "برلين", "GPE"),
        ent(text, "الوزير", "OCC"),
        ent(text, "فادي سليم", "PERS"),
    ]
    got = patterns_triples(text, ents)
    for name in ("سامي عادل", "كمال حداد", "رامي نصر"):
        assert ("meets", name, "فادي سليم") in got
    assert not {("meets", "سامي عادل", "كمال حداد"), ("meets", "كمال حداد", "رامي نصر")} & got


def test_children_after_a_dual_kinship_noun_are_the_parent_s_and_each_other_s_siblings() -> None:
    text = "تزوج الممثل سامي عادل من رنا خوري وأنجب منها ابنتيه ليلى وسلمى."
    ents = [
        ent(text, "الممثل", "OCC"),
        ent(text, "سامي عادل", "PERS"),
        ent(text, "رنا خوري", "PERS"),
        ent(text, "ليلى", "PERS"),
        ent(text, "وسلمى", "PERS"),
    ]
    got = patterns_triples(text, ents)
    assert {("parent_of", "رنا خوري", "ليلى"), ("parent_of", "رنا خوري", "وسلمى")} <= got
    assert ("sibling_of", "ليلى", "وسلمى") in got


def test_a_trigger_after_every_nearer_place_relates_the_far_subject() -> None:
    # ولدت … في مدينة …، وتقيم في دبي: the nearer city cannot be تقيم في's object, دبي is
    text = "ولدت الكاتبة سلمى نصر في مدينة صفاقس يوم 3 آذار 1990، وتقيم في دبي."
    ents = [
        ent(text, "الكاتبة", "OCC"),
        ent(text, "سلمى نصر", "PERS"),
        ent(text, "مدينة صفاقس", "GPE"),
        ent(text, "يوم 3 آذار 1990", "DATE"),
        ent(text, "دبي", "GPE"),
    ]
    got = patterns_triples(text, ents)
    assert ("residence", "سلمى نصر", "دبي") in got
    assert ("residence", "سلمى نصر", "مدينة صفاقس") not in got
    # a trigger before the nearer place still gives way to it
    text = "تقيم الكاتبة سلمى نصر في مدينة صفاقس منذ عام 1990 قرب دبي."
    ents = [
        ent(text, "الكاتبة", "OCC"),
        ent(text, "سلمى نصر", "PERS"),
        ent(text, "مدينة صفاقس", "GPE"),
        ent(text, "عام 1990", "DATE"),
        ent(text, "دبي", "GPE"),
    ]
    assert ("residence", "سلمى نصر", "دبي") not in patterns_triples(text, ents)


def test_a_person_inside_the_skipped_clause_is_no_nearer_subject() -> None:
    # ماهرانغ …، ابنة الزعيم عبد الغفار …، بعد مشاركتها في المسيرة: the clause's person does not take the trigger
    text = "اعتقلت الشرطة الناشطة سلمى نصر، ابنة الزعيم كمال نصر، بعد مشاركتها في مسيرة الكرامة."
    ents = [
        ent(text, "الناشطة", "OCC"),
        ent(text, "سلمى نصر", "PERS"),
        ent(text, "الزعيم", "OCC"),
        ent(text, "كمال نصر", "PERS"),
        ent(text, "مسيرة الكرامة", "EVENT"),
    ]
    got = patterns_triples(text, ents)
    assert ("participant_in", "سلمى نصر", "مسيرة الكرامة") in got
    assert ("parent_of", "كمال نصر", "سلمى نصر") in got


def test_a_currency_named_with_a_state_s_nisba_is_that_state_s() -> None:
    text = "يعتمد البلد الدينار الليبي عملة رسمية، وفق المصرف المركزي في ليبيا."
    ents = [
        ent(text, "الدينار الليبي", "CURR"),
        ent(text, "الليبي", "NORP"),
        ent(text, "المصرف المركزي", "ORG"),
        ent(text, "ليبيا", "GPE"),
    ]
    got = RelationExtractor(classifier=None).extract(text, ents, explain=True)
    assert [(r["object"]["text"], r["pattern"].split("/")[0]) for r in got if r["predicate"] == "currency_of"] == [
        ("ليبيا", "nested")
    ]


def test_heading_an_organisation_after_it_takes_the_organisation_not_its_city() -> None:
    text = "يتخذ البنك العربي من مدينة عمان مقرا له، ويرأسه المصرفي سامي عادل منذ عام 2020."
    ents = [
        ent(text, "البنك العربي", "ORG"),
        ent(text, "مدينة عمان", "GPE"),
        ent(text, "المصرفي", "OCC"),
        ent(text, "سامي عادل", "PERS"),
        ent(text, "عام 2020", "DATE"),
    ]
    got = patterns_triples(text, ents)
    assert ("head_of", "سامي عادل", "البنك العربي") in got
    assert ("head_of", "سامي عادل", "مدينة عمان") not in got


def test_the_winner_of_an_event_held_in_a_larger_one_took_part_in_the_larger() -> None:
    text = "حقق العداء سامي عادل ذهبية سباق 800 متر في بطولة العالم لألعاب القوى بطوكيو."
    ents = [
        ent(text, "العداء", "OCC"),
        ent(text, "سامي عادل", "PERS"),
        ent(text, "سباق 800 متر", "EVENT"),
        ent(text, "بطولة العالم لألعاب القوى بطوكيو", "EVENT"),
        ent(text, "بطوكيو", "GPE"),
    ]
    got = RelationExtractor(classifier=None).extract(text, ents, explain=True)
    found = {(r["predicate"], r["subject"]["text"], r["object"]["text"]): r["pattern"] for r in got}
    assert ("won", "سامي عادل", "سباق 800 متر") in found
    assert found[("participant_in", "سامي عادل", "بطولة العالم لألعاب القوى بطوكيو")].endswith("+in")


def test_a_town_in_a_larger_place_and_a_body_headed_after_a_title() -> None:
    text = "وصل الوفد إلى قرية عين كارم في محافظة القدس، برئاسة الوزير سامي عادل من نقابة المهندسين."
    ents = [
        ent(text, "قرية عين كارم", "GPE"),
        ent(text, "محافظة القدس", "GPE"),
        ent(text, "الوزير", "OCC"),
        ent(text, "سامي عادل", "PERS"),
        ent(text, "نقابة المهندسين", "ORG"),
    ]
    assert ("part_of", "قرية عين كارم", "محافظة القدس") in patterns_triples(text, ents)
    text = "أطلقت جمعية البنوك، برئاسة المصرفي سامي عادل، جائزة جديدة، فيما تولت سلمى نصر رئاسة نقابة المهندسين."
    ents = [
        ent(text, "جمعية البنوك", "ORG"),
        ent(text, "المصرفي", "OCC"),
        ent(text, "سامي عادل", "PERS"),
        ent(text, "سلمى نصر", "PERS"),
        ent(text, "نقابة المهندسين", "ORG"),
    ]
    got = patterns_triples(text, ents)
    assert ("head_of", "سامي عادل", "جمعية البنوك") in got
    assert ("head_of", "سلمى نصر", "نقابة المهندسين") in got


def test_a_relation_read_off_a_name_does_not_carry_over_to_conjuncts() -> None:
    text = "تستخدم البرازيل وأنغولا لغة واحدة، وتعتمد البرازيل الريال البرازيلي عملة."
    ents = [
        ent(text, "البرازيل", "GPE"),
        ent(text, "وأنغولا", "GPE"),
        ent(text, "البرازيل", "GPE", 1),
        ent(text, "الريال البرازيلي", "CURR"),
        ent(text, "البرازيلي", "NORP"),
    ]
    got = {(r[0], r[2]) for r in patterns_triples(text, ents) if r[0] == "currency_of"}
    assert got == {("currency_of", "البرازيل")}


def test_report_on_the_recall_development_set() -> None:
    rows = read_gold(GOLD / "relations_dev_news.jsonl")
    report = relations_report(EXTRACTOR, rows)
    assert report["n"] == 78
    assert report["micro"]["f1"] >= F1_RECALL_SET, report["micro"]
    from tahqiq.analysis.ner import Recognizer

    end_to_end = relations_report(EXTRACTOR, rows, recognize=Recognizer().recognize)
    assert end_to_end["micro"]["f1"] >= F1_RECALL_SET_SYSTEM_ENTITIES, end_to_end["micro"]


def test_taking_part_stated_after_the_event_with_its_pronoun() -> None:
    text = "نظمت وزارة الثقافة معرض الكتاب الدولي بين 10 و20 أيار، وشاركت فيه دار النشر العربية."
    ents = [
        ent(text, "وزارة الثقافة", "ORG"),
        ent(text, "معرض الكتاب الدولي", "EVENT"),
        ent(text, "بين 10 و20 أيار", "DATE"),
        ent(text, "دار النشر العربية", "ORG"),
    ]
    got = patterns_triples(text, ents)
    assert ("participant_in", "دار النشر العربية", "معرض الكتاب الدولي") in got
    assert ("announced_by", "معرض الكتاب الدولي", "وزارة الثقافة") in got


def test_a_post_with_its_possessive_heads_the_sentences_organisation() -> None:
    # the pronoun of رئيسها، مديره، وزيرها، رئيس مجلس إدارته … is the sentence's first organisation, at any distance
    text = "أعلنت شركة الأفق للطاقة في بيان صدر أمس أن رئيسها التنفيذي سامر الخطيب سيزور الرياض."
    ents = [
        ent(text, "شركة الأفق للطاقة", "ORG"),
        ent(text, "رئيسها التنفيذي", "OCC"),
        ent(text, "سامر الخطيب", "PERS"),
        ent(text, "الرياض", "GPE"),
    ]
    assert ("head_of", "سامر الخطيب", "شركة الأفق للطاقة") in patterns_triples(text, ents)
    text = "وقع بنك الأمل، الذي يرأس مجلس إدارته فادي نصر، اتفاقية مع الحكومة."
    ents = [ent(text, "بنك الأمل", "ORG"), ent(text, "فادي نصر", "PERS")]
    assert ("head_of", "فادي نصر", "بنك الأمل") in patterns_triples(text, ents)
    text = "افتتحت وزارة الصحة الكويتية مستشفى جديدا بحضور وزيرها خالد السعد."
    ents = [ent(text, "وزارة الصحة الكويتية", "ORG"), ent(text, "وزيرها", "OCC"), ent(text, "خالد السعد", "PERS")]
    assert ("head_of", "خالد السعد", "وزارة الصحة الكويتية") in patterns_triples(text, ents)


def test_a_later_clause_verb_right_before_the_object_takes_the_sentence_topic_at_any_distance() -> None:
    # the elided subject of تعمل is the sentence's first person, fourteen words and four entities back
    text = (
        "ولدت الروائية سلمى الخطيب في مدينة حمص عام 1970 ثم درست الأدب في جامعة دمشق وانتقلت إلى كندا حيث تعمل في "
        "شركة النور للنشر"
    )
    ents = [
        ent(text, "سلمى الخطيب", "PERS"),
        ent(text, "مدينة حمص", "GPE"),
        ent(text, "عام 1970", "DATE"),
        ent(text, "جامعة دمشق", "ORG"),
        ent(text, "كندا", "GPE"),
        ent(text, "شركة النور للنشر", "ORG"),
    ]
    got = triples(text, ents)
    assert ("employee_of", "سلمى الخطيب", "شركة النور للنشر") in got
    # … but not past another person who could be the verb's subject
    text2 = (
        "ولدت الروائية سلمى الخطيب في مدينة حمص عام 1970 ثم تزوجت سامر نادر وانتقلا إلى كندا حيث يعمل في شركة "
        "النور للنشر"
    )
    ents2 = [
        ent(text2, "سلمى الخطيب", "PERS"),
        ent(text2, "مدينة حمص", "GPE"),
        ent(text2, "عام 1970", "DATE"),
        ent(text2, "سامر نادر", "PERS"),
        ent(text2, "كندا", "GPE"),
        ent(text2, "شركة النور للنشر", "ORG"),
    ]
    got2 = triples(text2, ents2)
    assert ("employee_of", "سلمى الخطيب", "شركة النور للنشر") not in got2
    assert ("employee_of", "سامر نادر", "شركة النور للنشر") in got2


def test_a_far_trigger_before_the_titles_of_a_later_subject_relates_it_to_the_topic_event() -> None:
    # بمشاركة (object first) stands before the director's title, far from the festival
    text = (
        "افتتحت الدورة الثالثة من مهرجان الواحة للسينما في مدينة توزر يوم 5 أيار 2025 وسط حضور جماهيري كبير "
        "بمشاركة المخرج التونسي فريد بوغدير"
    )
    ents = [
        ent(text, "مهرجان الواحة للسينما", "EVENT"),
        ent(text, "مدينة توزر", "GPE"),
        ent(text, "يوم 5 أيار 2025", "DATE"),
        ent(text, "المخرج التونسي", "OCC"),
        ent(text, "التونسي", "NORP"),
        ent(text, "فريد بوغدير", "PERS"),
    ]
    got = triples(text, ents)
    assert ("participant_in", "فريد بوغدير", "مهرجان الواحة للسينما") in got


def test_no_far_relation_between_two_persons() -> None:
    # نجلها (her son) is read as نجل (son of): far from the mother, the kinship word's direction is unclear
    text = (
        "استقبلت الملكة رانيا في قصر الحمر بعمان يوم الأحد 5 أيار 2025 وفدا من الطلبة الجامعيين يرافقها نجلها "
        "الأمير هاشم"
    )
    ents = [
        ent(text, "الملكة", "OCC"),
        ent(text, "رانيا", "PERS"),
        ent(text, "قصر الحمر", "FAC"),
        ent(text, "بعمان", "GPE"),
        ent(text, "يوم الأحد 5 أيار 2025", "DATE"),
        ent(text, "الأمير", "OCC"),
        ent(text, "هاشم", "PERS"),
    ]
    got = triples(text, ents)
    assert ("parent_of", "هاشم", "رانيا") not in got


def test_an_object_first_verb_before_the_first_entity_with_its_preposition_between() -> None:
    # تعاقد … مع: the club is the verb's subject, the player after مع is the relation's subject
    text = "تعاقد نادي الزمالك المصري مع المهاجم التونسي سيف الجزيري لمدة ثلاثة مواسم."
    ents = [
        ent(text, "نادي الزمالك المصري", "ORG"),
        ent(text, "المصري", "NORP"),
        ent(text, "المهاجم التونسي", "OCC"),
        ent(text, "التونسي", "NORP"),
        ent(text, "سيف الجزيري", "PERS"),
    ]
    assert ("employee_of", "سيف الجزيري", "نادي الزمالك المصري") in patterns_triples(text, ents)


def test_an_object_first_trigger_right_before_the_titles_passes_the_places_between() -> None:
    # بحضور stands right before the guest's title, after the stadium and the city: the guest attends
    text = "افتتح وزير الشباب بطولة الخليج للشباب على ملعب الصداقة في مدينة صلالة بحضور رئيس الاتحاد سالم الوهيبي."
    ents = [
        ent(text, "وزير الشباب", "OCC"),
        ent(text, "بطولة الخليج للشباب", "EVENT"),
        ent(text, "ملعب الصداقة", "FAC"),
        ent(text, "مدينة صلالة", "GPE"),
        ent(text, "رئيس الاتحاد", "OCC"),
        ent(text, "سالم الوهيبي", "PERS"),
    ]
    got = patterns_triples(text, ents)
    assert ("participant_in", "سالم الوهيبي", "بطولة الخليج للشباب") in got
    assert ("participant_in", "مدينة صلالة", "بطولة الخليج للشباب") not in got


def test_no_object_first_trigger_to_an_organisation_inside_a_title() -> None:
    # the federation is part of the guest's title: the title's holder attends, not the federation
    text = "افتتح الوزير بطولة الخليج للشباب في مدينة صلالة بحضور رئيس الاتحاد العماني لكرة القدم سالم الوهيبي."
    ents = [
        ent(text, "بطولة الخليج للشباب", "EVENT"),
        ent(text, "مدينة صلالة", "GPE"),
        ent(text, "رئيس الاتحاد العماني لكرة القدم", "OCC"),
        ent(text, "الاتحاد العماني لكرة القدم", "ORG"),
        ent(text, "سالم الوهيبي", "PERS"),
    ]
    got = patterns_triples(text, ents)
    assert ("participant_in", "سالم الوهيبي", "بطولة الخليج للشباب") in got
    assert ("participant_in", "الاتحاد العماني لكرة القدم", "بطولة الخليج للشباب") not in got


def test_a_heading_title_naming_the_organisation_again_heads_it() -> None:
    cases = [
        # its head noun with ل: أمينا عاما للحزب
        (
            "انتخب مؤتمر حزب النهضة سمير ديلو أمينا عاما للحزب لولاية ثانية.",
            [("ORG", "حزب النهضة"), ("PERS", "سمير ديلو")],
            ("head_of", "سمير ديلو", "حزب النهضة"),
        ),
        # a pronoun: رئيسا له
        (
            "انتخب مجلس الشورى القطري حسن الغانم رئيسا له لدورة جديدة.",
            [("ORG", "مجلس الشورى القطري"), ("PERS", "حسن الغانم")],
            ("head_of", "حسن الغانم", "مجلس الشورى القطري"),
        ),
        # the title before the name: وقال رئيس النادي …
        (
            "فاز نادي الوحدة الإماراتي بالكأس، وقال رئيس النادي بشار النعيمي إن الفريق يستحق اللقب.",
            [("ORG", "نادي الوحدة الإماراتي"), ("PERS", "بشار النعيمي")],
            ("head_of", "بشار النعيمي", "نادي الوحدة الإماراتي"),
        ),
    ]
    for text, spans, want in cases:
        ents = [ent(text, frag, typ) for typ, frag in spans]
        assert want in patterns_triples(text, ents), text
    # a head noun that names no organisation before it relates nothing (النادي after a company)
    text = "أعلنت شركة الأفق للتقنية أن رئيس النادي بشار النعيمي زار مقرها."
    ents = [ent(text, "شركة الأفق للتقنية", "ORG"), ent(text, "بشار النعيمي", "PERS")]
    assert not any(p == "head_of" for p, _, _ in patterns_triples(text, ents))


def test_who_was_beaten_in_an_event_took_part_in_it() -> None:
    text = "فاز العداء الكيني بيتر كوتش بسباق الماراثون في دورة ألعاب المتوسط، متقدما على الإثيوبي تولا ديريبا."
    ents = [
        ent(text, "العداء الكيني", "OCC"),
        ent(text, "بيتر كوتش", "PERS"),
        ent(text, "بسباق الماراثون", "EVENT"),
        ent(text, "دورة ألعاب المتوسط", "EVENT"),
        ent(text, "الإثيوبي", "NORP"),
        ent(text, "تولا ديريبا", "PERS"),
    ]
    got = patterns_triples(text, ents)
    assert ("won", "بيتر كوتش", "بسباق الماراثون") in got
    assert ("participant_in", "تولا ديريبا", "بسباق الماراثون") in got
    # … and after فاز فيها على, in the event the subject took part in
    text = "شارك منتخب المغرب في كأس العالم 2022، وفاز فيها على البرتغال."
    ents = [ent(text, "منتخب المغرب", "ORG"), ent(text, "كأس العالم 2022", "EVENT"), ent(text, "البرتغال", "GPE")]
    got = patterns_triples(text, ents)
    assert ("participant_in", "البرتغال", "كأس العالم 2022") in got
    # but not when another of the winner's kind starts the clause (the beaten one's win is not the first's event)
    text = "شارك منتخب المغرب في كأس العالم 2022، وقال منتخب تونس إنه فاز على فرنسا."
    ents = [
        ent(text, "منتخب المغرب", "ORG"),
        ent(text, "كأس العالم 2022", "EVENT"),
        ent(text, "منتخب تونس", "ORG"),
        ent(text, "فرنسا", "GPE"),
    ]
    assert ("participant_in", "فرنسا", "كأس العالم 2022") not in patterns_triples(text, ents)


def test_a_work_trigger_with_the_post_between_its_verb_and_preposition() -> None:
    # يعمل * في: the post (an OCC) between يعمل and في, after a university that could fill the slot
    text = "درس الطبيب سامي حداد في جامعة دمشق، ويعمل جراحا في مستشفى الشامي بدمشق."
    ents = [
        ent(text, "الطبيب", "OCC"),
        ent(text, "سامي حداد", "PERS"),
        ent(text, "جامعة دمشق", "ORG"),
        ent(text, "جراحا", "OCC"),
        ent(text, "مستشفى الشامي", "ORG"),
        ent(text, "بدمشق", "GPE"),
    ]
    got = patterns_triples(text, ents)
    assert ("employee_of", "سامي حداد", "مستشفى الشامي") in got
    assert ("employee_of", "سامي حداد", "جامعة دمشق") not in got
    text = "قالت ليلى عمران، التي تعمل حاليا في شركة الأفق، إن المشروع تأخر."
    ents = [ent(text, "ليلى عمران", "PERS"), ent(text, "شركة الأفق", "ORG")]
    assert ("employee_of", "ليلى عمران", "شركة الأفق") in patterns_triples(text, ents)


def test_an_organisation_named_again_by_its_head_noun_stands_in_for_it() -> None:
    # النادي names نادي الشباب again: what is said of it is said of the club (no relation of its own)
    text = "أعلن نادي الشباب السعودي تعيين المدرب ماجد الحربي، وقال إن الإدارة قررت مشاركة النادي في بطولة الخليج."
    ents = [
        ent(text, "نادي الشباب السعودي", "ORG"),
        ent(text, "السعودي", "NORP"),
        ent(text, "المدرب", "OCC"),
        ent(text, "ماجد الحربي", "PERS"),
        ent(text, "بطولة الخليج", "EVENT"),
    ]
    got = RelationExtractor(classifier=None).extract(text, ents)
    triples = {(r["predicate"], r["subject"]["text"], r["object"]["text"]) for r in got}
    assert ("participant_in", "نادي الشباب السعودي", "بطولة الخليج") in triples
    assert all(r["subject"]["text"] != "النادي" and r["object"]["text"] != "النادي" for r in got)


def test_an_organisation_named_again_may_be_a_name_inside_another() -> None:
    # النادي names the club inside the board's name; the word is no entity standing between board and player
    text = "قال رئيس مجلس إدارة نادي النصر السعودي خالد الحربي إن النادي تعاقد مع المدافع سامي النجار."
    ents = [
        ent(text, "رئيس مجلس إدارة نادي النصر السعودي", "OCC"),
        ent(text, "مجلس إدارة نادي النصر السعودي", "ORG"),
        ent(text, "نادي النصر السعودي", "ORG"),
        ent(text, "السعودي", "NORP"),
        ent(text, "خالد الحربي", "PERS"),
        ent(text, "المدافع", "OCC"),
        ent(text, "سامي النجار", "PERS"),
    ]
    got = patterns_triples(text, ents)
    assert ("employee_of", "سامي النجار", "نادي النصر السعودي") in got
    assert ("employee_of", "سامي النجار", "مجلس إدارة نادي النصر السعودي") not in got


def shifted(relations: list[dict[str, object]], offset: int) -> list[dict[str, object]]:
    out = []
    for r in relations:
        moved = dict(r)
        for role in ("subject", "object"):
            part = dict(r[role])  # type: ignore[call-overload]
            part["start"] += offset
            part["end"] += offset
            moved[role] = part
        out.append(moved)
    return out


def test_each_sentence_is_read_on_its_own() -> None:
    first = "أسس محمد العلي شركة الأفق عام 2010 ومقرها رام الله."
    second = "عمان عاصمة الأردن."
    text = f"{first} {second}"
    offset = len(first) + 1
    ents_first = [ent(first, "محمد العلي", "PERS"), ent(first, "شركة الأفق", "ORG"), ent(first, "رام الله", "GPE")]
    ents_second = [ent(second, "عمان", "GPE"), ent(second, "الأردن", "GPE")]
    ents = ents_first + [{**e, "start": e["start"] + offset, "end": e["end"] + offset} for e in ents_second]  # type: ignore[operator]
    expected = EXTRACTOR.extract(first, ents_first) + shifted(EXTRACTOR.extract(second, ents_second), offset)
    assert EXTRACTOR.extract(text, ents) == expected
    # a pair across the sentence boundary is never related (read as one sentence, رام الله would be the capital's)
    assert not any(r["subject"]["end"] <= len(first) < r["object"]["start"] for r in EXTRACTOR.extract(text, ents))  # type: ignore[index]


def test_the_work_grows_linearly_with_the_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pairs read per text: a text of n sentences costs n times one sentence (quadratic before: every pair of
    entities in the text was read, and each read scanned every entity)."""
    sentence = "استقبل الرئيس المصري عبد الفتاح السيسي في القاهرة رئيس الوزراء الهندي ناريندرا مودي."
    ents = [
        ent(sentence, "الرئيس المصري", "OCC"),
        ent(sentence, "عبد الفتاح السيسي", "PERS"),
        ent(sentence, "القاهرة", "GPE"),
        ent(sentence, "رئيس الوزراء الهندي", "OCC"),
        ent(sentence, "ناريندرا مودي", "PERS"),
    ]
    reads = 0
    view = RelationExtractor._view

    def counted(self: RelationExtractor, *args: object) -> object:
        nonlocal reads
        reads += 1
        return view(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(RelationExtractor, "_view", counted)

    def reads_for(copies: int) -> int:
        nonlocal reads
        reads = 0
        step = len(sentence) + 1
        text = " ".join([sentence] * copies)
        many = [{**e, "start": e["start"] + k * step, "end": e["end"] + k * step} for k in range(copies) for e in ents]  # type: ignore[operator]
        EXTRACTOR.extract(text, many)
        return reads

    one = reads_for(1)
    assert one > 0
    assert reads_for(20) == 20 * one
