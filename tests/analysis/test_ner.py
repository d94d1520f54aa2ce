"""NER: each type, each nesting rule of NER.md, flat mode, offsets, odd input, and the gold sets."""

from __future__ import annotations

from pathlib import Path

import pytest
from tahqiq.analysis.ner import TYPES, Entity, Recognizer

from tools.evaluate.ner import development_gold_paths, ner_report
from tools.evaluate.ner import main as evaluate_ner_main

GOLD = Path(__file__).parents[1] / "gold"
# measured: dev 0.96, ner_msa 0.92 (was 0.83, then 0.88, 0.89 before the issue-5 rules for LOC, LAW, EVENT,
# PRODUCT and ORDINAL), its held-out second half (ids 76-150) 0.89 (was 0.79, then 0.85, 0.87), ner_types 0.93
# (0.81 when first measured), ner_news 0.89 (its ids 1-73 trained on; ids 1-73 0.84 when first measured, ids
# 74-98 0.86 when measured once at the end); the floors sit a little under
MIN_F1 = {
    "ner_dev.jsonl": 0.93,
    "ner_msa.jsonl": 0.89,
    "ner_types.jsonl": 0.90,
    "ner_news.jsonl": 0.86,
    "ner_everyday_dev.jsonl": 0.48,
    "ner_everyday_dev2.jsonl": 0.58,  # harder still (2026-11-29: 0.62 without morphology, 0.68 with it)
    "ner_everyday_dev3.jsonl": 0.47,  # (2026-11-29: 0.50 without morphology, 0.59 with it)
    "ner_everyday_dev4.jsonl": 0.53,  # (2026-11-29: 0.56 without morphology, 0.63 with it)
    "ner_everyday_dev5.jsonl": 0.65,  # (2026-11-29: 0.69 without morphology, 0.75 with it)
    "ner_everyday_dev6.jsonl": 0.60,  # (2026-11-29: 0.64 without morphology, 0.69 with it)
    "ner_everyday_dev7.jsonl": 0.54,  # (2026-11-29: 0.58 without morphology, 0.68 with it)
    "ner_everyday_dev8.jsonl": 0.55,  # (2026-11-29: 0.59 without morphology, 0.72 with it)
    "ner_everyday_dev9.jsonl": 0.65,  # (2026-11-29: 0.69 without morphology, 0.77 with it)
    "ner_everyday_dev10.jsonl": 0.63,  # (2026-11-29: 0.67 without morphology, 0.71 with it)
    "ner_everyday_dev11.jsonl": 0.64,  # (2026-11-29: 0.68 without morphology, 0.74 with it)
    "ner_everyday_dev12.jsonl": 0.63,  # (2026-11-29: 0.67 without morphology, 0.70 with it)
    "ner_everyday_dev13.jsonl": 0.61,  # (2026-11-29: 0.65 without morphology, 0.69 with it)
    "ner_everyday_dev14.jsonl": 0.55,  # (2026-11-29, after round seven: 0.60 without morphology, 0.75 with it)
    "ner_everyday_dev15.jsonl": 0.64,  # (2026-11-29, after round seven: 0.68 without morphology, 0.78 with it)
    "ner_everyday_dev16.jsonl": 0.62,  # (2026-11-29, after round seven: 0.67 without morphology, 0.75 with it)
    "ner_everyday_dev17.jsonl": 0.60,  # (2026-11-29, after round seven: 0.65 without morphology, 0.79 with it)
}
MIN_F1_HELD_OUT = 0.87


@pytest.fixture(scope="module")
def rec() -> Recognizer:
    return Recognizer()


def spans(rec: Recognizer, text: str) -> set[tuple[str, str, int]]:
    return {(e.type, e.text, e.depth) for e in rec.recognize(text)}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("زار محمود عباس المدينة", ("PERS", "محمود عباس")),
        ("قال الشعب الفلسطيني", ("NORP", "الفلسطيني")),
        ("تحدث الوزير أمس", ("OCC", "الوزير")),
        ("قرار الأمم المتحدة", ("ORG", "الأمم المتحدة")),
        ("سافر إلى القاهرة", ("GPE", "القاهرة")),
        ("المياه في البحر الميت", ("LOC", "البحر الميت")),
        ("صلى في المسجد الأقصى", ("FAC", "المسجد الأقصى")),
        ("افتتح مهرجان جرش", ("EVENT", "مهرجان جرش")),
        ("وصل في 15 أيار 2024", ("DATE", "15 أيار 2024")),
        ("يبدأ الساعة 10:30 صباحا", ("TIME", "الساعة 10:30 صباحا")),
        ("حضر 120 شخصا", ("CARDINAL", "120")),
        ("حل في المركز الثالث", ("ORDINAL", "الثالث")),
        ("ارتفع بنسبة 30 بالمئة", ("PERCENT", "30 بالمئة")),
        ("ارتفع بنسبة 30%", ("PERCENT", "30%")),
        ("كتب باللغة العربية", ("LANGUAGE", "العربية")),
        ("قطع 5 كيلومترات", ("QUANTITY", "5 كيلومترات")),
        ("زوروا www.example.ps اليوم", ("WEBSITE", "www.example.ps")),
        ("زوروا example.com اليوم", ("WEBSITE", "example.com")),
        ("قطع 5 كيلومترات", ("UNIT", "كيلومترات")),
        ("عدل قانون العمل الأردني", ("LAW", "قانون العمل الأردني")),
        ("دفع 20 دولارا", ("MONEY", "20 دولارا")),
        ("اشترى هاتف آيفون جديدا", ("PRODUCT", "آيفون")),
        ("دفع 20 دولارا", ("CURR", "دولارا")),
    ],
)
def test_each_type(rec: Recognizer, text: str, expected: tuple[str, str]) -> None:
    assert expected in {(e.type, e.text) for e in rec.recognize(text)}


def test_all_types_are_wojood() -> None:
    assert len(TYPES) == 21 and len(set(TYPES)) == 21


def test_org_holds_gpe(rec: Recognizer) -> None:
    assert {("ORG", "جامعة بيرزيت", 0), ("GPE", "بيرزيت", 1)} <= spans(rec, "درس في جامعة بيرزيت")


def test_occ_holds_norp(rec: Recognizer) -> None:
    assert {("OCC", "وزير الخارجية الأردني", 0), ("NORP", "الأردني", 1)} <= spans(rec, "قال وزير الخارجية الأردني")


def test_occ_holds_org_holds_gpe(rec: Recognizer) -> None:
    got = spans(rec, "قال رئيس بلدية رام الله")
    assert {("OCC", "رئيس بلدية رام الله", 0), ("ORG", "بلدية رام الله", 1), ("GPE", "رام الله", 2)} <= got


def test_date_numbers_not_tagged_but_ordinal_is(rec: Recognizer) -> None:
    got = spans(rec, "في 15 أيار 2024")
    assert got == {("DATE", "15 أيار 2024", 0)}
    got = spans(rec, "في الخامس عشر من أيار")
    assert got == {("DATE", "الخامس عشر من أيار", 0), ("ORDINAL", "الخامس عشر", 1)}


def test_calendars(rec: Recognizer) -> None:
    for text, date in [
        ("في 3 شباط 2023", "3 شباط 2023"),
        ("في 3 فبراير 2023", "3 فبراير 2023"),
        ("في 3 شتنبر 2023", "3 شتنبر 2023"),
        ("في 3 دجنبر 2023", "3 دجنبر 2023"),
        ("في 10 ذي الحجة 1445 هـ", "10 ذي الحجة 1445 هـ"),
        ("في تشرين الأول", "تشرين الأول"),
    ]:
        assert ("DATE", date) in {(e.type, e.text) for e in rec.recognize(text)}, text


def test_money_percent_quantity(rec: Recognizer) -> None:
    assert spans(rec, "دفع 20 دولارا") == {("MONEY", "20 دولارا", 0), ("CURR", "دولارا", 1)}
    assert spans(rec, "زاد 30%") == {("PERCENT", "30%", 0)}
    assert spans(rec, "مشى 5 كيلومترات") == {("QUANTITY", "5 كيلومترات", 0), ("UNIT", "كيلومترات", 1)}


def test_title_separate_from_person(rec: Recognizer) -> None:
    got = spans(rec, "الرئيس الفلسطيني محمود عباس")
    assert got == {("OCC", "الرئيس الفلسطيني", 0), ("NORP", "الفلسطيني", 1), ("PERS", "محمود عباس", 0)}


def test_law_holds_norp(rec: Recognizer) -> None:
    assert {("LAW", "قانون العمل الأردني", 0), ("NORP", "الأردني", 1)} <= spans(rec, "قانون العمل الأردني")


def test_clitic_token_covered_whole(rec: Recognizer) -> None:
    ents = rec.recognize("زار عمان وبيروت")
    assert Entity("GPE", "وبيروت", 9, 15, 0) in ents


def test_tags_outermost_first_and_offsets(rec: Recognizer) -> None:
    text = "قال رئيس بلدية رام الله إن"
    out = rec.tag(text, include_offsets=True)
    for row in out["tokens"]:
        assert text[row["start"] : row["end"]] == row["token"]
    tags = {row["token"]: row["tags"] for row in out["tokens"]}
    assert tags["قال"] == ["O"]
    assert tags["رئيس"] == ["B-OCC"]
    assert tags["بلدية"] == ["I-OCC", "B-ORG"]
    assert tags["رام"] == ["I-OCC", "I-ORG", "B-GPE"]
    assert tags["الله"] == ["I-OCC", "I-ORG", "I-GPE"]
    for e in out["entities"]:
        assert text[e["start"] : e["end"]] == e["text"]
        assert set(e) == {"type", "text", "start", "end", "depth"}


def test_flat_mode_one_tag_outer_wins(rec: Recognizer) -> None:
    text = "قال رئيس بلدية رام الله إن"
    out = rec.tag(text, mode="flat")
    assert all(len(row["tags"]) == 1 for row in out["tokens"])
    assert [row["tags"][0] for row in out["tokens"]] == ["O", "B-OCC", "I-OCC", "I-OCC", "I-OCC", "O"]
    assert [e["type"] for e in out["entities"]] == ["OCC"]
    assert "start" not in out["tokens"][0]


def test_bad_mode(rec: Recognizer) -> None:
    with pytest.raises(ValueError, match="mode"):
        rec.tag("نص", mode="both")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "Hello world, this is English only.",
        "😀😀 🇵🇸",
        "\u064e\u0651\u0650",
        "\u200f\u200e\ufeff",
        "مرحبا hello عالم 123 ٤٥٦",
        "x" * 10_000,
        "جامعة " * 2_000,
        "الساعة",
        "15",
        "في",
        "\ud800",
    ],
)
def test_odd_input_never_raises(rec: Recognizer, text: str) -> None:
    out = rec.tag(text, include_offsets=True)
    assert set(out) == {"tokens", "entities"}
    for row in out["tokens"]:
        assert row["tags"]
    rec.tag(text, mode="flat")


def test_empty_answer(rec: Recognizer) -> None:
    assert rec.tag("") == {"tokens": [], "entities": []}
    assert rec.tag("Hello world")["entities"] == []


def test_sizes(rec: Recognizer) -> None:
    s = rec.sizes()
    assert s["gazetteer_entries"] > 5_000
    assert s["cldr_GPE"] > 100 and s["geonames_GPE"] > 1_000 and s["pyarabic_GPE"] > 1_000
    assert s["person_first_names"] > 200


# The development sets only: the blind ner_test* sets have their own floors in test_unseen_gold.py, and a new one
# must not be scored (an uncounted look) before it is measured once on purpose.
@pytest.mark.parametrize("path", development_gold_paths(GOLD), ids=lambda p: p.name)
def test_gold_f1(rec: Recognizer, path: Path) -> None:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            import json

            row = json.loads(line)
            for e in row["entities"]:
                assert row["text"][e["start"] : e["end"]] == e["text"]
    report = ner_report([path], rec)
    assert report["micro"]["f1"] >= MIN_F1.get(path.name, 0.80), report["micro"]


def test_gold_f1_on_the_held_out_half(rec: Recognizer, tmp_path: Path) -> None:
    lines = [x for x in (GOLD / "ner_msa.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
    held_out = tmp_path / "held_out.jsonl"
    held_out.write_text("\n".join(lines[75:]) + "\n", encoding="utf-8")
    report = ner_report([held_out], rec)
    assert report["sentences"] == 75
    assert report["micro"]["f1"] >= MIN_F1_HELD_OUT, report["micro"]


def assert_entity_found(rec: Recognizer, text: str, expected: tuple[str, str], absent: tuple[str, str] | None) -> None:
    """`expected` (type, text) is among the entities of `text`, and `absent` (when given) is not."""
    got = {(e.type, e.text) for e in rec.recognize(text)}
    assert expected in got, got
    if absent is not None:
        assert absent not in got, got


@pytest.mark.parametrize(
    ("text", "expected", "absent"),
    [
        # a name no list knows after a multi-word title; a listed name takes unlisted family names after a title
        ("قال مدير عام الشركة كارلوس غصن إن الأرباح ارتفعت", ("PERS", "كارلوس غصن"), None),
        ("قال محافظ البنك المركزي عبد الرحيم الحلاوي إن", ("PERS", "عبد الرحيم الحلاوي"), ("PERS", "عبد الرحيم")),
        # a plural title takes no name, a verb after a title is no name
        ("حذر الموظفين العموميين لشهر آب", ("DATE", "لشهر آب"), ("PERS", "لشهر")),
        ("قال الرئيس يزور المدينة غدا", ("OCC", "الرئيس"), ("PERS", "يزور")),
        # a family name that is also a title stays in the name
        ("انضم اللاعب أحمد النجار إلى الفريق", ("PERS", "أحمد النجار"), ("OCC", "النجار")),
        # quoted organisation names, products by maker and model
        ("نشرت صحيفة «الأيام» تقريرا", ("ORG", "الأيام"), None),
        ("اشترت الخطوط طائرات بوينغ 777 جديدة", ("PRODUCT", "بوينغ 777"), ("CARDINAL", "777")),
        # events: race and distance, war and date, host city attached with ب, hamza-alef head
        ("فاز في سباق 1500 متر حرة أمس", ("EVENT", "سباق 1500 متر حرة"), None),
        ("منذ ثورة يناير 2011 تغير", ("EVENT", "ثورة يناير 2011"), None),
        ("شارك في دورة الألعاب الآسيوية بالدوحة", ("EVENT", "دورة الألعاب الآسيوية بالدوحة"), None),
        ("فاز بذهبية ألعاب طوكيو 2020", ("EVENT", "ألعاب طوكيو 2020"), None),
        ("الحائز جائزة نوبل للآداب عام 1988", ("EVENT", "جائزة نوبل للآداب"), ("EVENT", "جائزة نوبل للآداب عام 1988")),
        # languages named in context
        ("ترجم الكتاب من الفرنسية إلى العربية", ("LANGUAGE", "الفرنسية"), ("NORP", "العربية")),
        ("تعد الإنجليزية لغة رسمية في الهند", ("LANGUAGE", "الإنجليزية"), None),
        ("مسرحية باللغتين العربية والأمازيغية", ("LANGUAGE", "والأمازيغية"), None),
        # dates: a day name with its date, a Hijri range, season and year
        ("يصل يوم الأحد 5 أيار إلى المدينة", ("DATE", "يوم الأحد 5 أيار"), None),
        ("يقام من 2 إلى 9 شوال 1445 هـ في مكة", ("DATE", "من 2 إلى 9 شوال 1445 هـ"), None),
        ("تبدأ البطولة صيف 2027", ("DATE", "صيف 2027"), None),
        # places: a town no list knows after مدينة (the head outside), a capital after العاصمة and a nisba, a state
        # by form and nisba
        ("ولد في مدينة لوريان الفرنسية", ("GPE", "لوريان"), None),
        ("وصل إلى العاصمة الغانية أكرا أمس", ("GPE", "أكرا"), None),
        ("زار الجمهورية التونسية أمس", ("GPE", "الجمهورية التونسية"), ("NORP", "التونسية")),
        ("تقع في جهة فاس مكناس وسط المغرب", ("GPE", "جهة فاس مكناس"), ("GPE", "مكناس")),
        # a facility's own name no list knows, but not a common noun after دار
        ("هبط المسبار قرب قاعدة بايكونور أمس", ("FAC", "قاعدة بايكونور"), None),
        ("بمشاركة 500 دار نشر عربية", ("CARDINAL", "500"), ("FAC", "دار نشر")),
        # a player's title holds the game; participles after an event are no part of its name
        ("ولد لاعب كرة القدم المغربي حكيم زياش في هولندا", ("OCC", "لاعب كرة القدم المغربي"), None),
        ("تنظيم الألعاب الأفريقية المقررة في أكرا", ("EVENT", "الألعاب الأفريقية"), None),
        # a third name part no list knows when short and no clitic: باسيرو ديوماي فاي, not … وفد
        ("التقى الرئيس السنغالي باسيرو ديوماي فاي أمس", ("PERS", "باسيرو ديوماي فاي"), None),
        ("ترأس الوزير سالم البلوشي وفد بلاده", ("PERS", "سالم البلوشي"), ("PERS", "سالم البلوشي وفد")),
        # common words that GeoNames lists as places
        ("سجلت هزة أرضية بقوة 4 درجات", ("UNIT", "درجات"), ("GPE", "هزة")),
    ],
)
def test_pattern_families(
    rec: Recognizer, text: str, expected: tuple[str, str], absent: tuple[str, str] | None
) -> None:
    assert_entity_found(rec, text, expected, absent)


# issue 5: relation arguments need whole names, laws, languages, facilities and products; each case fails on the
# recognizer before these patterns (the ones marked "guard" check that a pattern does not reach too far)
@pytest.mark.parametrize(
    ("text", "expected", "absent"),
    [
        # transliterated names after a title: a first name in ا when the name goes on, a family name in ا, a
        # two-letter part, particles, a middle name in ا before a third
        ("قالت المغنية الأمريكية مادونا لويز إن الحفل ألغي", ("PERS", "مادونا لويز"), None),
        # guard: a listed family name after an unlisted first name
        ("أكد الروائي الياباني هاروكي موراكامي أن روايته", ("PERS", "هاروكي موراكامي"), ("PERS", "هاروكي")),
        ("قال الكاتب الصيني مو يان إن الرواية", ("PERS", "مو يان"), None),
        ("التقى الوزير الهولندي كاسبار فان دير بيرغ نظيره", ("PERS", "كاسبار فان دير بيرغ"), None),
        ("رحب اللاعب البرازيلي لويس ألبرتو سواريز بالقرار", ("PERS", "لويس ألبرتو سواريز"), None),
        # a name spelt with hamza and lam has no article (ألبرتو, ألبرت); a former post keeps السابق
        ("قال المدرب الإيطالي ألبرتو زاكيروني إن", ("PERS", "ألبرتو زاكيروني"), None),
        ("وقع الأمير ألبرت الثاني المرسوم", ("PERS", "ألبرت الثاني"), ("OCC", "الأمير ألبرت الثاني")),
        ("انتقد النائب السابق حسن علي القرار", ("OCC", "النائب السابق"), None),
        # a feminine title (but not a governorate), a nisba right after a first name at a title, a company's bare name
        ("قالت المستشارة النمساوية كارين كنايسل إن", ("OCC", "المستشارة النمساوية"), None),
        ("وصل إلى محافظة الغربية أمس", ("GPE", "محافظة الغربية"), ("OCC", "محافظة الغربية")),
        ("غنت المطربة نجوى الحلبي في الحفل", ("PERS", "نجوى الحلبي"), ("NORP", "الحلبي")),
        ("وقعت شركة مرسول عقدا مع الوزارة", ("ORG", "شركة مرسول"), None),
        # guards: an indefinite noun and its adjective after a name are no part of it, nor a verb with و
        (
            "أجرى الرئيس الفرنسي إيمانويل ماكرون اتصالا هاتفيا",
            ("PERS", "إيمانويل ماكرون"),
            ("PERS", "إيمانويل ماكرون اتصالا"),
        ),
        ("قال المهندس سامي الخطيب ويعمل في الشركة", ("PERS", "سامي الخطيب"), ("PERS", "سامي الخطيب ويعمل")),
        # a kinship noun anchors a name; a family name of the sentence continues one
        ("أعلن المدرب خالد النمر أن ابنه كريستيانو سيلعب غدا", ("PERS", "كريستيانو"), ("PERS", "كريستيانو سيلعب")),
        ("قال رجل الأعمال سعد الهاجري إن نجله فيصل الهاجري سيتولى", ("PERS", "فيصل الهاجري"), ("PERS", "فيصل")),
        # a regnal number after a name under a regnal title, a house after آل
        ("خلف الملك فيليب السادس والده الملك خوان كارلوس الأول", ("PERS", "خوان كارلوس الأول"), None),
        ("استقبل الشيخ عبد الله بن حمد آل ثاني الوفد", ("PERS", "عبد الله بن حمد آل ثاني"), None),
        # an age is no name; a preposition on a name-like word is none
        ("توفي عن عمر ناهز 80 عاما", ("DATE", "80 عاما"), ("PERS", "عمر ناهز")),
        ("صوت المجلس لصالح القرار في 5 أيار 2024", ("DATE", "5 أيار 2024"), ("PERS", "لصالح القرار")),
        # languages in context
        ("العربية هي اللغة الرسمية في مصر", ("LANGUAGE", "العربية"), ("NORP", "العربية")),
        ("يتحدث سكان الجبال الأمازيغية في بيوتهم", ("LANGUAGE", "الأمازيغية"), None),
        ("الفرنسية لغة رسمية في السنغال إلى جانب الولوفية", ("LANGUAGE", "الولوفية"), None),
        ("يحافظ الأكراد على لغتهم الكردية", ("LANGUAGE", "الكردية"), None),
        ("للبلاد ثلاث لغات رسمية هي العربية والإنجليزية والسواحلية", ("LANGUAGE", "العربية"), None),
        # nisbas of places whose ال is no article, of a compass-named state, in -اوي
        ("وصل الوفد الألماني إلى عمان", ("NORP", "الألماني"), None),
        ("وقعت الشركة الكورية عقدا", ("NORP", "الكورية"), None),
        ("قال السفير النمساوي في عمان", ("NORP", "النمساوي"), None),
        # laws: الجديد, رقم/عدد after a bare or definite head, not a bare عام after it; مدونة, المرسوم
        ("أقر المجلس قانون الضمان الجديد بالأغلبية", ("LAW", "قانون الضمان الجديد"), None),
        ("نشر المرسوم عدد 117 في الرائد الرسمي", ("LAW", "المرسوم عدد 117"), ("CARDINAL", "117")),
        ("صدر قانون التقاعد عام 2019 بعد نقاش", ("LAW", "قانون التقاعد"), ("LAW", "قانون التقاعد عام 2019")),
        ("ناقش البرلمان مدونة الشغل أمس", ("LAW", "مدونة الشغل"), None),
        # organisations: a body of an organisation, a body and its party
        ("اجتمع مجلس هيئة الأوراق المالية أمس", ("ORG", "مجلس هيئة الأوراق المالية"), None),
        ("قال المكتب السياسي لحزب الأمة إن", ("ORG", "المكتب السياسي لحزب الأمة"), None),
        # events: a head of two words takes its ل complement; a run of nisbas
        ("فاز بذهبية بطولة العالم للجودو أمس", ("EVENT", "بطولة العالم للجودو"), None),
        ("انطلقت القمة الخليجية الأوروبية في الرياض", ("EVENT", "القمة الخليجية الأوروبية"), None),
        # facilities: a listed common word after the head, a bare name and its city, new heads
        ("تجمع المتظاهرون في ساحة الاستقلال مساء", ("FAC", "ساحة الاستقلال"), None),
        ("أقيم السباق على حلبة ياس أبوظبي", ("FAC", "حلبة ياس أبوظبي"), None),
        ("رصد العلماء الظاهرة من مرصد القطامية", ("FAC", "مرصد القطامية"), None),
        # products: a letter on a model number, a maker and its model's name after a product noun
        ("تسلمت الشركة طائرة بوينغ 737MAX جديدة", ("PRODUCT", "بوينغ 737MAX"), None),
        ("طرحت الشركة سيارة هيونداي توسان الجديدة", ("PRODUCT", "هيونداي توسان"), None),
    ],
)
def test_argument_patterns(
    rec: Recognizer, text: str, expected: tuple[str, str], absent: tuple[str, str] | None
) -> None:
    assert_entity_found(rec, text, expected, absent)


# news at large (relations_dev_more ids 242-341): posts and names the lists do not know; each case fails on the
# recognizer before these rules (the guards check that a rule does not reach too far)
@pytest.mark.parametrize(
    ("text", "expected", "absent"),
    [
        # a definite noun no list knows, a nisba, then a listed name: the noun and the nisba are a post
        ("قدم الطباخ اللبناني سامي خوري وصفة جديدة", ("OCC", "الطباخ اللبناني"), None),
        ("قالت الطباخة المغربية نادية الشامي في برنامجها", ("OCC", "الطباخة المغربية"), None),
        # guard: a plural noun and its nisba are no post
        ("رفع المتظاهرون الأعلام التونسية أمس", ("NORP", "التونسية"), ("OCC", "الأعلام التونسية")),
        # a compass adjective belongs to the nisba before it, and the post then anchors a name no list knows
        ("وصل الرئيس الكوري الجنوبي يون سوك يول إلى واشنطن", ("NORP", "الكوري الجنوبي"), ("NORP", "الكوري")),
        ("أعلن الزعيم الكوري الشمالي كيم جونغ أون تجربة جديدة", ("PERS", "كيم جونغ أون"), None),
        # … or a name of two words no list knows (guard: a word with a clitic and a verb are no name)
        ("أعلن الملياردير الهندي موكيش أمباني استثمارا جديدا", ("OCC", "الملياردير الهندي"), None),
        ("طرحت الشركة الهاتف في الأسواق السعودية بسعر يبدأ من 100 ريال", ("NORP", "السعودية"), ("PERS", "بسعر")),
        # a complementiser of reported speech ends a name
        ("صرح المتحدث باسم الخارجية الصينية لين جيان بأن بكين ترفض", ("PERS", "لين جيان"), ("PERS", "لين جيان بأن")),
        # a leader's post "in" a party holds it
        ("انتخب القيادي في حزب الاستقلال نزار بركة أمينا عاما", ("OCC", "القيادي في حزب الاستقلال"), None),
        # a counterpart noun and a nisba anchor a name as a title does
        ("بحث الوزير مع نظيره التركي هاكان فيدان الأزمة", ("PERS", "هاكان فيدان"), None),
        # guard: … but not a noun after them
        ("ترأس مع نظيره التونسي أشغال اللجنة المشتركة", ("NORP", "التونسي"), ("PERS", "أشغال")),
        # a name no list knows set off before its title by a comma
        ("قال جوزيب بوريل، مسؤول السياسة الخارجية في الاتحاد الأوروبي، إن الاتفاق قريب", ("PERS", "جوزيب بوريل"), None),
        # new heads of posts
        ("أعلن الزعيم المعارض أحمد الفقيه مقاطعة الانتخابات", ("OCC", "الزعيم المعارض"), None),
        # organisations named by a word in ة after a masculine head, a party by a common noun, a company by two
        # transliterated words; guards: a function word after a company's name, an adjective after a feminine head
        ("منح بنك عودة قرضا للشركة", ("ORG", "بنك عودة"), None),
        ("فاز حزب العمال البريطاني بالانتخابات", ("ORG", "حزب العمال البريطاني"), None),
        ("استحوذت شركة أكتيفيجن بليزارد على الاستوديو", ("ORG", "شركة أكتيفيجن بليزارد"), None),
        ("وقعت شركة سوناطراك عبر فرعها عقدا", ("ORG", "شركة سوناطراك"), ("ORG", "شركة سوناطراك عبر")),
        ("أسست شركة جديدة في عمان", ("GPE", "عمان"), ("ORG", "شركة جديدة")),
    ],
)
def test_news_posts_and_names(
    rec: Recognizer, text: str, expected: tuple[str, str], absent: tuple[str, str] | None
) -> None:
    assert_entity_found(rec, text, expected, absent)


def test_evaluate_ner_by_default_scores_the_development_sets_only() -> None:
    """The blind sets are scored only when named, so a default run of the report is never an uncounted look."""
    names = [path.name for path in development_gold_paths(GOLD)]
    assert "ner_msa.jsonl" in names and "ner_types.jsonl" in names and "ner_everyday_dev.jsonl" in names
    assert not [name for name in names if name.startswith("ner_test") or name == "ner_everyday.jsonl"]
    blind = {
        "ner_everyday.jsonl",
        "ner_test.jsonl",
        "ner_test2.jsonl",
        "ner_test3.jsonl",
        "ner_test4.jsonl",
        "ner_test5.jsonl",
        "ner_test6.jsonl",
    }
    assert blind <= {p.name for p in GOLD.glob("ner_*.jsonl")}


def test_evaluate_ner_command_line_explains_itself_and_names_a_missing_file(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`--help` prints the usage (it used to be read as a file name and end in a traceback); a file that does
    not exist gets a one-line error that names it."""
    with pytest.raises(SystemExit) as help_exit:
        evaluate_ner_main(["--help"])
    assert help_exit.value.code == 0
    assert "--errors" in capsys.readouterr().out
    assert evaluate_ner_main(["tests/gold/no_such_set.jsonl"]) == 1
    assert "no such gold file: tests/gold/no_such_set.jsonl" in capsys.readouterr().err


@pytest.fixture(scope="module")
def rules() -> Recognizer:
    return Recognizer(learned=False)


# relation arguments in news at large (tests/gold/ner_news.jsonl ids 1-73): each case fails on the rules before
# the rule it names; the guards check that the rule does not reach too far
@pytest.mark.parametrize(
    ("text", "expected", "absent"),
    [
        # a post of two words, or an indefinite one, holds the body it is of (ل with the article)
        ("قال الرئيس التنفيذي للمجموعة إبراهيم الخطيب إن", ("OCC", "الرئيس التنفيذي للمجموعة"), None),
        ("قال الرئيس التنفيذي للمجموعة إبراهيم الخطيب إن", ("PERS", "إبراهيم الخطيب"), None),
        ("عين المجلس مديرا فنيا للمنتخب الأول حتى نهاية العام", ("OCC", "مديرا فنيا للمنتخب الأول"), None),
        # guards: a bare title and a plural after ل; a title at the end of the text
        ("قال الرئيس للصحفيين إن الاتفاق قريب", ("OCC", "الرئيس"), ("OCC", "الرئيس للصحفيين")),
        ("قال الرئيس للصحفيين إن الاتفاق قريب", ("OCC", "الرئيس"), ("PERS", "للصحفيين")),
        ("قال الرئيس التنفيذي", ("OCC", "الرئيس التنفيذي"), None),
        # ل with the article opens no name
        ("بحضور الممثلة العليا للسياسة الخارجية أمس", ("OCC", "الممثلة العليا"), ("PERS", "للسياسة الخارجية")),
        # a facility named by a person's name no list knows, its first part in ي, and الدولي
        ("وصل الوفد إلى مطار هواري بومدين الدولي أمس", ("FAC", "مطار هواري بومدين الدولي"), None),
        ("احتضنها ملعب شكري سراج أوغلو مساء الأحد", ("FAC", "ملعب شكري سراج أوغلو"), None),
        # guard: a facility's one-word name keeps what follows out
        ("استضاف استاد لوسيل في الدوحة النهائي", ("FAC", "استاد لوسيل"), ("FAC", "استاد لوسيل في")),
        # a bare product noun and one word no list knows that reads as no adjective
        ("أوصت الهيئة باستخدام عقار ريمديسيفير لعلاج المرضى", ("PRODUCT", "ريمديسيفير"), None),
        ("بحث الوزيران صفقة مقاتلات قآن التي تنتجها الشركة", ("PRODUCT", "قآن"), None),
        # guards: an adjective after the noun is no model, nor a common noun after a noun outside the list
        ("اشترت الشركة سيارة جديدة للمدير", ("OCC", "للمدير"), ("PRODUCT", "جديدة")),
        ("طورت شركة مصرية عقار جديد لعلاج المرض", ("NORP", "مصرية"), ("PRODUCT", "جديد")),
        ("وصلت طائرة شحن إلى القاهرة", ("GPE", "القاهرة"), ("PRODUCT", "شحن")),
        # one more family name no list knows after a title: compound, or definite before the clause goes on
        ("قضت المحكمة على رجل الأعمال حسام الدين عبد الغفار بتهمة الاحتيال", ("PERS", "حسام الدين عبد الغفار"), None),
        ("قال الدكتور عبد الرزاق الخشمان إن المستشفى استقبل المرضى", ("PERS", "عبد الرزاق الخشمان"), None),
        # guard: a definite noun before a preposition is the verb's object
        ("استقبل الرئيس محمود عباس الوفد في رام الله", ("PERS", "محمود عباس"), ("PERS", "محمود عباس الوفد")),
        # a post with its possessive is a post and anchors a name no list knows; it keeps only its adjective
        ("بطلب من الجمهورية التي مثلها وزيرها رالف ريغنفانو أمس", ("OCC", "وزيرها"), None),
        ("بطلب من الجمهورية التي مثلها وزيرها رالف ريغنفانو أمس", ("PERS", "رالف ريغنفانو"), None),
        ("وقال رئيسها التنفيذي سام ألتمان إن النموذج جديد", ("OCC", "رئيسها التنفيذي"), None),
        ("بعد أن أعلن مؤسسها إيلون ماسك تأجيل الإطلاق", ("OCC", "مؤسسها"), None),
        # guard: a company after a possessive post is in apposition, not the post's complement
        ("تبيعها عبر وكيلها شركة عبد اللطيف جميل في جدة", ("GPE", "جدة"), ("OCC", "وكيلها شركة")),
        # an envoy's post holds where the envoy serves; a governor's post its bank
        ("وقال ممثلها في السودان شبل صهباني إن الإصابات كثيرة", ("OCC", "ممثلها في السودان"), None),
        ("أحال القاضي حاكم مصرف لبنان السابق رياض سلامة إلى المحكمة", ("OCC", "حاكم مصرف لبنان السابق"), None),
        # a nisba standing for a person after a preposition anchors two words no list knows
        ("فاز في النهائي على الإيطالي لوكا نارديه بمجموعتين", ("PERS", "لوكا نارديه"), None),
        # guard: … but not a phrase with a clitic
        ("فاز الفريق على الإسباني بهدفين نظيفين", ("NORP", "الإسباني"), ("PERS", "بهدفين نظيفين")),
        # organisations: a body named by its members (no post inside), a name listing its fields with و, a bourse
        # by its own name, an orchestra
        ("نعت نقابة الفنانين السوريين الممثل القدير", ("ORG", "نقابة الفنانين السوريين"), ("OCC", "الفنانين السوريين")),
        ("تستضيف هيئة الأدب والنشر والترجمة المعرض في الرياض", ("ORG", "هيئة الأدب والنشر والترجمة"), None),
        (
            "أطلقت هيئة الاتصالات وتقنية المعلومات السعودية شبكة جديدة",
            ("ORG", "هيئة الاتصالات وتقنية المعلومات السعودية"),
            None,
        ),
        ("تراجعت الأسهم في بورصة ناسداك بعد الإعلان", ("ORG", "بورصة ناسداك"), None),
        ("عزفت الأوركسترا الوطنية اللبنانية في بيروت", ("ORG", "الأوركسترا الوطنية اللبنانية"), None),
        # guard: و with a verb after an organisation starts a new clause
        ("دعت منظمة الصحة وطالبت الحكومة بالتحرك", ("ORG", "منظمة الصحة"), ("ORG", "منظمة الصحة وطالبت الحكومة")),
        # no name: و/ف on على (وعلى تعيين), two clitics on a short name (ولاية = و + ل + آية), a first name that
        # is also a common word standing alone (حصة, رائد); ل with the article ends a name inside an event
        ("صادق المجلس على القانون وعلى تعيين ولاة جدد في تونس", ("GPE", "تونس"), ("PERS", "وعلى تعيين")),
        ("تفشى المرض في ولاية الخرطوم", ("GPE", "ولاية الخرطوم"), ("PERS", "ولاية")),
        ("استحوذت الشركة على حصة 51% في الميناء", ("PERCENT", "51%"), ("PERS", "حصة")),
        ("بينهم أول رائد فضاء من هونغ كونغ", ("GPE", "هونغ كونغ"), ("PERS", "رائد")),
        ("قال رائد صلاح إن الأمر انتهى", ("PERS", "رائد صلاح"), None),
        ("فازت الروائية بجائزة الشيخ زايد للكتاب أمس", ("PERS", "زايد"), ("PERS", "زايد للكتاب")),
        # a deputy's post holds the post it deputises; an envoy's holds its host after لدى; a definite post keeps
        # العام before its organisation
        ("التقى نائب الرئيس الأمريكي جيه دي فانس أمس", ("OCC", "نائب الرئيس الأمريكي"), None),
        ("اختير النائب عبد الله العطية نائبا للرئيس أمس", ("OCC", "نائبا للرئيس"), None),
        ("عينت الحكومة ريم أبو حسان سفيرة لدى اليابان أمس", ("OCC", "سفيرة لدى اليابان"), None),
        (
            "قالت المديرة العامة لمنظمة التجارة العالمية إن",
            ("OCC", "المديرة العامة لمنظمة التجارة العالمية"),
            None,
        ),
        # events: a listed one ending in a region or العالم takes its ل complement and a bare year (not after
        # عام); an ordinal of two words ends an event's name
        ("تأهل المنتخب إلى كأس العالم للأندية في أمريكا", ("EVENT", "كأس العالم للأندية"), None),
        ("تستضيف السعودية كأس آسيا 2027 في الرياض", ("EVENT", "كأس آسيا 2027"), None),
        ("فاز المنتخب بكأس العالم عام 2022 في قطر", ("DATE", "عام 2022"), ("EVENT", "بكأس العالم عام")),
        ("انطلقت أعمال المؤتمر الوطني الثامن عشر للحزب", ("EVENT", "المؤتمر الوطني الثامن عشر"), None),
        # the late is a post held before; a post takes a run of nisbas; أمينها العام is a post
        ("ولد الرئيس المصري الراحل محمد أنور السادات في المنوفية", ("OCC", "الرئيس المصري الراحل"), None),
        ("قالت المصممة الفلسطينية الأمريكية ريم حمدان إن", ("OCC", "المصممة الفلسطينية الأمريكية"), None),
        ("ويشغل أحمد أبو الغيط منصب أمينها العام منذ عام 2016", ("OCC", "أمينها العام"), None),
        # no name or company: العربي alone, باسم after a spokesperson, a month after في; no post: محافظات
        ("نفذ الهلال الأحمر العربي السوري حملة تلقيح", ("NORP", "السوري"), ("PERS", "العربي")),
        ("وفقا للمتحدث باسم الوزارة أحمد أبو زيد", ("PERS", "أحمد أبو زيد"), ("PERS", "باسم")),
        ("ينظم الماراثون في نيسان في مدينة بيت لحم", ("GPE", "بيت لحم"), ("ORG", "نيسان")),
        ("تعد إربد ثاني أكبر محافظات المملكة", ("GPE", "إربد"), ("OCC", "محافظات")),
        # guard: الخليج العربي is a name, its nisba no NORP
        ("ترتفع حرارة مياه الخليج العربي كل صيف", ("LOC", "الخليج العربي"), ("NORP", "العربي")),
        # a listed name of two words takes a family name in ي no list knows, with no title before it
        ("وصل عبد الكريم السامرائي إلى بغداد أمس", ("PERS", "عبد الكريم السامرائي"), None),
        # guard: a post that is no envoy keeps في outside
        ("قال الرئيس في القاهرة إن الاتفاق قريب", ("OCC", "الرئيس"), ("OCC", "الرئيس في القاهرة")),
    ],
)
def test_relation_arguments_in_news(
    rules: Recognizer, text: str, expected: tuple[str, str], absent: tuple[str, str] | None
) -> None:
    assert_entity_found(rules, text, expected, absent)


@pytest.mark.parametrize(
    ("text", "expected", "absent"),
    [
        # a transliterated first name that reads as a present or future verb (ت…, سي…) opens a name after a title
        # when an unlisted bare word follows it, or when it is too long for a verb without a suffix
        ("فاز العداء الكيني تيموثي شيرويوت بالسباق أمس", ("PERS", "تيموثي شيرويوت"), None),
        ("وصل المدرب الفرنسي سيباستيان ديسابر إلى القاهرة", ("PERS", "سيباستيان ديسابر"), None),
        # … and a long one is a family name after a first name in ا
        ("توج العداء الكيني جوشوا تيتشيبيري بالذهبية", ("PERS", "جوشوا تيتشيبيري"), None),
        # guards: a verb after a title still takes no name
        ("قال المدرب البرتغالي سيقود الفريق في النهائي", ("OCC", "المدرب البرتغالي"), ("PERS", "سيقود الفريق")),
        ("الرئيس الفرنسي يستقبل نظيره في باريس", ("OCC", "الرئيس الفرنسي"), ("PERS", "يستقبل نظيره")),
        ("اللاعب المصري يسجل هدفين", ("OCC", "اللاعب المصري"), ("PERS", "يسجل هدفين")),
    ],
)
def test_transliterated_names_that_read_as_verbs(
    rules: Recognizer, text: str, expected: tuple[str, str], absent: tuple[str, str] | None
) -> None:
    assert_entity_found(rules, text, expected, absent)


@pytest.mark.parametrize(
    ("text", "expected", "absent"),
    [
        # international first names the project lists take an unlisted family name with no title before them
        ("أعلن ستيف بالمر أن الشركة ستتوسع", ("PERS", "ستيف بالمر"), None),
        # … through the links of a foreign name, or a middle name in ا before the family name
        ("سجل نيمار دا سيلفا هدفا", ("PERS", "نيمار دا سيلفا"), ("PERS", "نيمار")),
        ("التقت أورسولا فون دير لاين بالوفد", ("PERS", "أورسولا فون دير لاين"), None),
        ("كتب غابرييل غارسيا ماركيز روايته", ("PERS", "غابرييل غارسيا ماركيز"), None),
        # guard: a short word in ا is no middle name
        ("وقالت ريم بنا ذكرى جميلة", ("PERS", "ريم"), ("PERS", "ريم بنا ذكرى")),
    ],
)
def test_international_first_names(
    rules: Recognizer, text: str, expected: tuple[str, str], absent: tuple[str, str] | None
) -> None:
    assert_entity_found(rules, text, expected, absent)


def test_a_feminine_post_with_a_masculine_possessive_is_a_post_and_anchors_a_name(rules: Recognizer) -> None:
    # رئيسته: رئيسة + ه (the festival's president), as رئيستها and وزيرها are posts
    got = {(e.type, e.text) for e in rules.recognize("قالت رئيسته إيلينا موراتي إن الدورة ستفتتح غدا")}
    assert ("OCC", "رئيسته") in got and ("PERS", "إيلينا موراتي") in got, got


@pytest.mark.parametrize(
    ("text", "expected", "absent"),
    [
        # a range across two months after من or بين is one DATE, the year included
        ("أقيمت الدورة بين 12 آذار و3 نيسان 2019 في عمان", ("DATE", "بين 12 آذار و3 نيسان 2019"), ("CARDINAL", "و3")),
        ("يستمر المعرض من 28 كانون الثاني إلى 4 شباط في جدة", ("DATE", "من 28 كانون الثاني إلى 4 شباط"), None),
        # the range within one month stays as it was
        ("أقيم المهرجان بين 10 و20 أيار 2025 في الرباط", ("DATE", "بين 10 و20 أيار 2025"), None),
    ],
)
def test_a_range_across_two_months_is_one_date(
    rules: Recognizer, text: str, expected: tuple[str, str], absent: tuple[str, str] | None
) -> None:
    assert_entity_found(rules, text, expected, absent)


@pytest.mark.parametrize(
    ("text", "expected", "absent"),
    [
        # a listed name of two words takes a family name no list knows when the clause goes on after it
        ("قال المدرب محمد حسن علوان إن الفريق جاهز", ("PERS", "محمد حسن علوان"), ("PERS", "محمد حسن")),
        ("وصل محمد حسن علوان إلى الرياض", ("PERS", "محمد حسن علوان"), None),
        ("شارك الرئيس رجب طيب أوزكان في القمة", ("PERS", "رجب طيب أوزكان"), None),
        # … in ة or ي too (عودة, أديتشي), but not a noun with a pronoun nor one before a noun in ت
        ("قال المدير محمد شوكت عودة إن المرصد جاهز", ("PERS", "محمد شوكت عودة"), None),
        ("وصلت الكاتبة سارة أمين أديتشي إلى القاهرة", ("PERS", "سارة أمين أديتشي"), None),
        ("كتب الشاعر محمود درويش قصائده في حيفا", ("PERS", "محمود درويش"), ("PERS", "محمود درويش قصائده")),
        ("أعلن الوزير محمد مصطفى إعادة تأهيل المستشفى", ("PERS", "محمد مصطفى"), ("PERS", "محمد مصطفى إعادة")),
        # guard: a noun after the word makes it the object of the verb before the name, not a family name
        ("أحرز اللاعب محمد حسن هدف الفوز", ("PERS", "محمد حسن"), ("PERS", "محمد حسن هدف")),
        ("افتتح المدير أحمد خالد مقر الشركة", ("PERS", "أحمد خالد"), ("PERS", "أحمد خالد مقر")),
    ],
)
def test_an_unlisted_family_name_after_two_listed_words(
    rules: Recognizer, text: str, expected: tuple[str, str], absent: tuple[str, str] | None
) -> None:
    assert_entity_found(rules, text, expected, absent)


@pytest.mark.parametrize(
    ("text", "expected", "absent"),
    [
        # a listed family name that is also a common word continues a name after a title
        ("قالت الفنانة سمر الحاج إن العرض سيبدأ", ("PERS", "سمر الحاج"), ("PERS", "سمر")),
        ("فازت الممثلة الأردنية إلهام علي بالجائزة", ("PERS", "إلهام علي"), ("PERS", "إلهام")),
        # a name in أل… carries no article: ألونسو is a bare name after a first name that reads as a verb
        ("أعلن المدرب الإسباني تشابي ألونسو قائمة الفريق", ("PERS", "تشابي ألونسو"), None),
    ],
)
def test_names_after_a_title_with_a_family_word_or_an_alef_name(
    rules: Recognizer, text: str, expected: tuple[str, str], absent: tuple[str, str] | None
) -> None:
    assert_entity_found(rules, text, expected, absent)


def test_two_children_named_one_by_one_are_two_names(rules: Recognizer) -> None:
    # after a dual kinship noun the word with و opens the second name, not a family name of the first
    got = {(e.type, e.text) for e in rules.recognize("سافر الزوجان مع ابنيهما أمين وحمزة إلى عمان")}
    assert ("PERS", "أمين") in got and ("PERS", "وحمزة") in got, got
    assert ("PERS", "أمين وحمزة") not in got, got


@pytest.mark.parametrize(
    ("text", "expected", "absent"),
    [
        # a kinship or companion noun after a first name is its apposition, not a family name
        ("هند زوجة كريم وشقيقة سلمى", ("PERS", "هند"), ("PERS", "هند زوجة")),
        ("رثى الشاعر أدونيس صديقه الراحل", ("PERS", "أدونيس"), ("PERS", "أدونيس صديقه")),
        # nothing follows a regnal number as a family name
        ("وزار الملك محمد السادس الجرحى في المستشفى", ("PERS", "محمد السادس"), ("PERS", "محمد السادس الجرحى")),
    ],
)
def test_no_family_name_after_an_apposition_noun_or_a_regnal_number(
    rules: Recognizer, text: str, expected: tuple[str, str], absent: tuple[str, str] | None
) -> None:
    assert_entity_found(rules, text, expected, absent)


def test_a_post_takes_its_field_of_affairs_and_anchors_the_name_after_it(rules: Recognizer) -> None:
    text = "قالت المبعوثة الأوروبية للشؤون الإنسانية ماريا لوبيز إن الوضع خطير"
    got = {(e.type, e.text) for e in rules.recognize(text)}
    assert ("OCC", "المبعوثة الأوروبية للشؤون الإنسانية") in got, got
    assert ("PERS", "ماريا لوبيز") in got and ("PERS", "للشؤون الإنسانية") not in got, got
    # and a plural with a preposition after it is no name
    got = {(e.type, e.text) for e in rules.recognize("شغل منصب المفوض السامي لشؤون اللاجئين لسنوات")}
    assert ("OCC", "المفوض السامي لشؤون اللاجئين") in got and ("PERS", "لسنوات") not in got, got


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a head of government or of a board in a construct chain takes its country or company
        ("قالت رئيسة وزراء إيطاليا جورجيا ميلوني إن حكومتها مستعدة", ("OCC", "رئيسة وزراء إيطاليا")),
        ("أعلن رئيس مجلس إدارة بنك عودة سمير حنا افتتاح فرع جديد", ("OCC", "رئيس مجلس إدارة بنك عودة")),
        ("وقال رئيس مجلس إدارتها خالد يوسف إن الأرباح ارتفعت", ("OCC", "رئيس مجلس إدارتها")),
    ],
)
def test_heads_of_government_and_boards_in_a_construct_chain(
    rules: Recognizer, text: str, expected: tuple[str, str]
) -> None:
    assert_entity_found(rules, text, expected, None)


@pytest.mark.parametrize(
    ("text", "expected", "absent"),
    [
        # an event whose name holds a place leaves the city after it out: where it is held
        ("شارك الوزير في منتدى دافوس الاقتصادي بسويسرا", ("EVENT", "منتدى دافوس الاقتصادي"), None),
        # an event with no name of its own takes its city
        ("فاز العداء في دورة الألعاب الأولمبية بباريس", ("EVENT", "دورة الألعاب الأولمبية بباريس"), None),
    ],
)
def test_an_event_named_after_a_place_takes_no_host_city(
    rules: Recognizer, text: str, expected: tuple[str, str], absent: tuple[str, str] | None
) -> None:
    assert_entity_found(rules, text, expected, absent)


@pytest.mark.parametrize(
    ("text", "expected", "absent"),
    [
        # a first name that reads as a common noun or an accusative, before an unlisted family name ending the name
        ("وصل وزير الدفاع الأمريكي بيت هيغسيث إلى الدوحة", ("PERS", "بيت هيغسيث"), None),
        ("قالت الناشطة السويدية غريتا تونبرغ إنها ستشارك", ("PERS", "غريتا تونبرغ"), None),
        # guard: a definite word after the noun is its complement, not a family name
        ("قال الوزير الأمريكي بيت القصيد في الأمر", ("OCC", "الوزير الأمريكي"), ("PERS", "بيت القصيد")),
        # أبو or ولد and a family name no list knows after a listed name
        ("أجرى الطبيب الفلسطيني غسان أبو ستة عمليات جراحية", ("PERS", "غسان أبو ستة"), None),
        ("التقى الوزير نظيره الموريتاني محمد سالم ولد مرزوك، وبحثا", ("PERS", "محمد سالم ولد مرزوك"), None),
        # guard: ولد before a preposition is the verb (was born)
        ("قال الرئيس محمد سالم ولد في القاهرة", ("PERS", "محمد سالم"), ("PERS", "محمد سالم ولد في")),
        # a family name opening with ل/ب right before a mark
        ("ابنة الزعيم القبلي عبد الغفار لانغو، بعد مشاركتها", ("PERS", "عبد الغفار لانغو"), None),
        # guard: a word with ب before a mark reads as a noun with its preposition
        ("استقبل الوزير أحمد خالد بحفاوة.", ("PERS", "أحمد خالد"), ("PERS", "أحمد خالد بحفاوة")),
        # a word no list knows before a foreign link after a listed name of two words goes on with the link
        ("استقبل الرئيس البرازيلي لويس إيناسيو لولا دا سيلفا في قصر", ("PERS", "لويس إيناسيو لولا دا سيلفا"), None),
    ],
)
def test_names_read_as_nouns_linked_family_names_and_family_names_in_l_or_b(
    rules: Recognizer, text: str, expected: tuple[str, str], absent: tuple[str, str] | None
) -> None:
    assert_entity_found(rules, text, expected, absent)


@pytest.mark.parametrize(
    ("text", "expected", "absent"),
    [
        # two daughters named one by one: a name of two letters with و is the second name
        ("أنجب منها ابنتيه سارة ومي.", ("PERS", "ومي"), ("PERS", "سارة ومي")),
        # no definite family name after a regnal number, even when the clause goes on after it
        ("تولى الملك محمد السادس العرش خلفا لوالده", ("PERS", "محمد السادس"), ("PERS", "محمد السادس العرش")),
        # the feminine of a listed head of government holds its body and anchors the name after it
        ("لقاء بين الرئيس ورئيسة الحكومة سارة الزعفراني الزنزري.", ("OCC", "ورئيسة الحكومة"), None),
        # a minister's head takes the field with its state's possessive
        ("التقى الرئيس السوري ووزير خارجيته أسعد الشيباني.", ("OCC", "ووزير خارجيته"), ("OCC", "ووزير")),
        ("التقى وزير جيته", ("OCC", "وزير"), ("OCC", "وزير جيته")),
    ],
)
def test_short_second_names_regnal_numbers_and_posts_of_government(
    rules: Recognizer, text: str, expected: tuple[str, str], absent: tuple[str, str] | None
) -> None:
    assert_entity_found(rules, text, expected, absent)


def test_every_word_list_of_cues_txt_is_read_and_every_list_read_exists() -> None:
    # a list added to data/cues.txt that no rule reads would be dead data; a name misspelt in cues.py would
    # fail at import with a KeyError, so reading the module at all checks the other direction
    from tahqiq.analysis.ner import cues

    assert cues.UNREAD == frozenset()
    assert "سيارتها" in cues.MODEL_NOUNS and "على" in cues.KEEP_SPELLING  # possessives added, spelling kept


def test_every_approximator_opens_the_number_it_qualifies() -> None:
    # قرابة was listed but never matched: its list kept ta marbuta while token keys fold it
    rec = Recognizer()
    for word in ("نحو", "حوالي", "قرابة", "زهاء"):
        found = [(e.type, e.text) for e in rec.recognize(f"قتل {word} 300 شخص في الزلزال")]
        assert ("CARDINAL", f"{word} 300") in found, (word, found)


class _Scripted:
    """A recognizer that answers the same entities for every text (for the report's arithmetic)."""

    def __init__(self, entities: list[Entity]) -> None:
        self.entities = entities

    def recognize(self, text: str) -> list[Entity]:
        return self.entities


def test_the_report_tells_unfounded_entities_from_wrong_boundaries_and_types(tmp_path: Path) -> None:
    import json

    text = "زار سعيد حديقة الجيران أمس"  # gold: PERS سعيد only
    gold = tmp_path / "gold.jsonl"
    row = {"id": 1, "text": text, "entities": [{"type": "PERS", "start": 4, "end": 8, "text": "سعيد"}]}
    gold.write_text(json.dumps(row, ensure_ascii=False) + "\n", encoding="utf-8")
    predicted = [
        Entity("PERS", "زار سعيد", 0, 8),  # a wrong boundary: spurious, founded
        Entity("GPE", "سعيد", 4, 8),  # a wrong type: spurious, founded
        Entity("FAC", "حديقة الجيران", 9, 22),  # overlaps no gold entity: unfounded
    ]
    report = ner_report([gold], _Scripted(predicted))  # type: ignore[arg-type]
    assert report["micro"]["fp"] == 3 and report["unfounded"] == 1
    assert report["words"] == 5
    assert report["unfounded_per_1000_words"] == 200.0 and report["fp_per_1000_words"] == 600.0
