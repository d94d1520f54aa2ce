"""NER for the types issue 5 found weakest (LOC, LAW, EVENT, PRODUCT, ORDINAL): each pattern, and floors on the
development sentences written for them (tests/gold/ner_types.jsonl)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tahqiq.analysis.ner import Recognizer

from tools.evaluate.ner import ner_report

GOLD = Path(__file__).parents[1] / "gold"
# per-type F1 measured with the issue-5 rules (first measurement of ner_types, before them: LOC 0.51, LAW 0.59,
# EVENT 0.63, PRODUCT 0.14, ORDINAL 0.91; the older sets before them: LOC 0.61, LAW 0.86, EVENT 0.70, PRODUCT 0.70,
# ORDINAL 0.87); ner_types is in-sample (its misses led the rules), the floors sit a little under
FLOORS_TYPES = {"LOC": 0.95, "LAW": 0.95, "EVENT": 0.86, "PRODUCT": 0.95, "ORDINAL": 0.97}  # 0.98 1.0 0.90 1.0 1.0
FLOORS_OLDER = {"LOC": 0.70, "LAW": 0.91, "EVENT": 0.84, "PRODUCT": 0.85, "ORDINAL": 0.93}  # 0.74 .94 .87 .88 .96


@pytest.fixture(scope="module")
def rec() -> Recognizer:
    return Recognizer()


def found(rec: Recognizer, text: str) -> set[tuple[str, str]]:
    return {(e.type, e.text) for e in rec.recognize(text)}


@pytest.mark.parametrize(
    ("text", "expected", "absent"),
    [
        # ordinals: teens in both genders, الحادي/الحادية with a ten, digits after الـ, indefinite forms
        ("حل الفريق في المركز الحادي عشر هذا الموسم", ("ORDINAL", "الحادي عشر"), ("ORG", "المركز الحادي")),
        ("بلغت الجولة الرابعة عشرة من الدوري", ("ORDINAL", "الرابعة عشرة"), ("ORDINAL", "الرابعة")),
        ("عقد المجلس جلسته الحادية والعشرين أمس", ("ORDINAL", "الحادية والعشرين"), ("ORDINAL", "والعشرين")),
        ("تراجع المنتخب إلى المرتبة الـ33 عالميا", ("ORDINAL", "الـ33"), None),
        ("واعتبرها خطوة أولى نحو الحل", ("ORDINAL", "أولى"), None),
        ("احتفلت الجامعة بالذكرى الخمسين لتأسيسها", ("ORDINAL", "الخمسين"), None),
        # a rank after المركز is no organisation's name; a parliament's number stays in its name
        ("صعدت الشركة إلى المركز الثالث عالميا", ("ORDINAL", "الثالث"), ("ORG", "المركز الثالث")),
        ("في الدورة العادية الأولى من عمر المجلس العشرين", ("ORG", "المجلس العشرين"), None),
        # quarters and centuries hold their ordinal; a quarter takes من العام
        ("ارتفعت الأرباح في الربع الأول من العام الجاري", ("DATE", "الربع الأول من العام الجاري"), None),
        ("ارتفعت الأرباح في الربع الأول من العام الجاري", ("ORDINAL", "الأول"), None),
        ("بنيت في القرن العشرين", ("ORDINAL", "العشرين"), None),
        # natural places: head + definite name, unlisted name, listed place (which it holds untagged), adjectives,
        # a nisba inside; a compass word before a listed region; not an adjective سهل, not a state (جنوب أفريقيا)
        ("يمر نهر الليطاني في جنوب لبنان", ("LOC", "نهر الليطاني"), None),
        ("تسلق الفريق جبل إيفرست أمس", ("LOC", "جبل إيفرست"), None),
        ("انخفض منسوب بحيرة فيكتوريا هذا العام", ("LOC", "بحيرة فيكتوريا"), ("PERS", "فيكتوريا")),
        ("رست السفن في خليج العقبة", ("LOC", "خليج العقبة"), ("GPE", "العقبة")),
        ("عبرت الناقلة مضيق باب المندب", ("LOC", "مضيق باب المندب"), ("FAC", "باب المندب")),
        ("قطع المغامر صحراء الربع الخالي", ("LOC", "صحراء الربع الخالي"), None),
        ("تساقطت الثلوج بغزارة على جبال الأطلس الكبير", ("LOC", "جبال الأطلس الكبير"), ("LOC", "جبال الأطلس")),
        ("تساقطت الثلوج على جبال الأطلس المغربية", ("NORP", "المغربية"), None),
        ("ضرب الجفاف دول غرب أفريقيا", ("LOC", "غرب أفريقيا"), ("LOC", "أفريقيا")),
        ("وقعت جنوب أفريقيا الاتفاق", ("GPE", "جنوب أفريقيا"), ("LOC", "جنوب أفريقيا")),
        ("التطبيق سهل الاستخدام للجميع", ("O", ""), ("LOC", "سهل الاستخدام")),
        ("بدأ الحصاد في سهل البقاع", ("LOC", "سهل البقاع"), ("GPE", "البقاع")),
        ("يهدد الجفاف القرن الأفريقي", ("NORP", "الأفريقي"), None),
        # products: من طراز, a product noun (possessive, its own definite words) + maker/line/unlisted words + a
        # model number and model words; a price is no model number; نظام التشغيل and لقاح stay in the name
        ("تسلم الجيش مقاتلات من طراز رافال", ("PRODUCT", "رافال"), None),
        ("طرحت الشركة سيارتها الجديدة كيا سبورتاج 2025", ("PRODUCT", "كيا سبورتاج 2025"), None),
        ("طرحت الشركة سيارتها الجديدة كيا سبورتاج 2025", ("ORG", "كيا"), None),
        ("أطلقت الشركة هاتفها الجديد بسعر 300 دولار", ("MONEY", "300 دولار"), ("PRODUCT", "بسعر 300")),
        ("كشفت عن هاتفها القابل للطي غالاكسي زد فليب 6", ("PRODUCT", "غالاكسي زد فليب 6"), None),
        ("هبطت طائرة من طراز بوينغ 737-800 في المطار", ("PRODUCT", "بوينغ 737-800"), ("CARDINAL", "800")),
        ("بدأ توزيع لقاح موديرنا في المراكز", ("PRODUCT", "لقاح موديرنا"), None),
        ("تعمل الأجهزة بنظام التشغيل لينكس", ("PRODUCT", "بنظام التشغيل لينكس"), ("LAW", "بنظام التشغيل")),
        ("عرض الفيلم المغربي «الجميع يحب تودا» في المهرجان", ("PRODUCT", "الجميع يحب تودا"), None),
        ("ارتفع سعر خام برنت أمس", ("PRODUCT", "خام برنت"), None),
        ("وصلت سيارة إسعاف إلى المكان", ("O", ""), ("PRODUCT", "إسعاف")),
        ("استدعت الشركة شاحنات من طراز سايبرترك بسبب خلل", ("PRODUCT", "سايبرترك"), ("PRODUCT", "سايبرترك بسبب")),
        # events: a tour, a feast's definite name, the kind of an election, ل + a word with hamza and its complement,
        # adjectives after the nisbas, a head before an event, a qualifying round, a season by its city, a feast
        # with ل after an anniversary; a head read as a name is no person
        ("فاز الدراج بطواف فرنسا", ("EVENT", "بطواف فرنسا"), None),
        ("احتفلت تونس بعيد الجلاء", ("EVENT", "بعيد الجلاء"), ("PERS", "بعيد")),
        ("أجريت الانتخابات البلدية في لبنان", ("EVENT", "الانتخابات البلدية"), None),
        ("شارك في بطولة آسيا لألعاب القوى بالدوحة", ("EVENT", "بطولة آسيا لألعاب القوى بالدوحة"), None),
        ("اختتمت القمة العربية الطارئة في القاهرة", ("EVENT", "القمة العربية الطارئة"), None),
        ("تأهل المنتخب إلى نهائيات كأس العالم 2030", ("EVENT", "نهائيات كأس العالم 2030"), None),
        (
            "يستعد الفريق للتصفيات الأفريقية المؤهلة لكأس العالم",
            ("EVENT", "للتصفيات الأفريقية المؤهلة لكأس العالم"),
            None,
        ),
        ("يعود موسم جدة هذا الصيف", ("EVENT", "موسم جدة"), None),
        ("احتفالات بالذكرى السبعين للتحرير", ("EVENT", "للتحرير"), None),
        ("فاز بلقب دوري أبطال أوروبا للمرة الثانية", ("EVENT", "دوري أبطال أوروبا"), None),
        ("نظم الاتحاد الدولي للاتصالات القمة العالمية للابتكار", ("ORG", "الاتحاد الدولي للاتصالات"), None),
        # laws: a number with - or ., a resolution by its number after another law, the states of an agreement,
        # its subject after بشأن, the bare constitution (not the newspaper), participles end the name, listed codes
        ("أصدر الرئيس المرسوم الرئاسي رقم 21-300 أمس", ("LAW", "المرسوم الرئاسي رقم 21-300"), ("PERS", "رقم")),
        ("استندت إلى ميثاق جامعة الدول العربية والقرار 1701", ("LAW", "والقرار 1701"), None),
        ("وقعت اتفاقية التجارة الحرة بين الأردن وكندا", ("LAW", "اتفاقية التجارة الحرة بين الأردن وكندا"), None),
        ("وقعت معاهدة أوتاوا بشأن حظر الألغام", ("LAW", "معاهدة أوتاوا بشأن حظر الألغام"), None),
        ("يضمن الدستور حرية التعبير", ("LAW", "الدستور"), None),
        ("نشرت صحيفة الدستور الخبر", ("O", ""), ("LAW", "الدستور")),
        ("ناقش النواب قانون الجمعيات المحال من الحكومة", ("LAW", "قانون الجمعيات"), None),
        ("قررت الحكومة تعديل مجلة الشغل", ("LAW", "مجلة الشغل"), ("ORG", "مجلة الشغل")),
        # a sea's bare name from the installed list is a LOC only with its head
        ("عبرت السفينة بحر مرمرة ثم البحر الأصفر", ("LOC", "البحر الأصفر"), None),
        ("تجمد خليج جيمس في كندا", ("LOC", "خليج جيمس"), None),
        ("قال ليبرون جيمس إن الفريق جاهز", ("O", ""), ("LOC", "جيمس")),
        # what the check sentences (ner_types 81-100) led to: a place with ب after a chain is where, not the name;
        # a head read as a two-word name; a listed numbered line takes only model words; basins, planets, two-letter
        # names after a natural head; a law head with ل inside a law; the definite prize; participles end a law
        ("عقد الوزير مؤتمر صحفي بعمان أمس", ("O", ""), ("EVENT", "مؤتمر صحفي بعمان")),
        ("يحتفل الكويتيون اليوم عيد التحرير", ("EVENT", "عيد التحرير"), ("PERS", "عيد التحرير")),
        (
            "تسلمت طائرة من طراز بوينغ 737 ماكس ضمن صفقة",
            ("PRODUCT", "بوينغ 737 ماكس"),
            ("PRODUCT", "بوينغ 737 ماكس ضمن صفقة"),
        ),
        ("تسلمت طائرة من طراز بوينغ 737 ماكس ضمن صفقة", ("ORG", "بوينغ"), None),
        ("ارتفع إنتاج حقول حوض سرت", ("LOC", "حوض سرت"), ("GPE", "سرت")),
        ("زار السياح وادي رم أمس", ("LOC", "وادي رم"), None),
        ("يدرس المسبار سطح كوكب المريخ", ("LOC", "كوكب المريخ"), None),
        ("طالب بتطبيق اتفاقية الأمم المتحدة لقانون البحار", ("LAW", "اتفاقية الأمم المتحدة لقانون البحار"), None),
        ("فاز بالجائزة العالمية للرواية العربية", ("EVENT", "بالجائزة العالمية للرواية العربية"), None),
        ("تنفيذا لاتفاقية التعاون الموقعة في بغداد", ("LAW", "لاتفاقية التعاون"), None),
    ],
)
def test_patterns(rec: Recognizer, text: str, expected: tuple[str, str], absent: tuple[str, str] | None) -> None:
    got = found(rec, text)
    assert expected in got or expected == ("O", ""), got
    if absent is not None:
        assert absent not in got, got


def test_floors_on_the_sentences_written_for_these_types(rec: Recognizer) -> None:
    per_type = ner_report([GOLD / "ner_types.jsonl"], rec)["per_type"]
    for typ, floor in FLOORS_TYPES.items():
        assert per_type[typ]["f1"] >= floor, (typ, per_type[typ])


def test_floors_on_the_older_development_sets(rec: Recognizer, tmp_path: Path) -> None:
    """ner_msa, ner_dev and relations_dev_more ids 73-241 (the sentences that list every entity, as they stood when
    these floors were set; ids 242 on came with the relations work and have their own floors in test_relations)."""
    rows = [json.loads(x) for x in (GOLD / "relations_dev_more.jsonl").read_text(encoding="utf-8").splitlines() if x]
    full = tmp_path / "dev_more_full.jsonl"
    full.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows if 73 <= r["id"] <= 241), encoding="utf-8"
    )
    per_type = ner_report([GOLD / "ner_msa.jsonl", GOLD / "ner_dev.jsonl", full], rec)["per_type"]
    for typ, floor in FLOORS_OLDER.items():
        assert per_type[typ]["f1"] >= floor, (typ, per_type[typ])
