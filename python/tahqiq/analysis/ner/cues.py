"""The word lists the NER rules read, as sets of token keys (``tahqiq.arabic.keys.key``), and the patterns they use.

Each set is one list of ``data/cues.txt``, named there in lower case (``TIME_OF_DAY`` is the list ``time_of_day``);
the comments in that file say what each list is for. Sets made of others are unions here. A rule that needs a new
word list adds it to the file and one line here; ``UNREAD`` (checked by the tests) names any list nothing reads.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from tahqiq.analysis.ner.datafiles import read_lists
from tahqiq.arabic.keys import key
from tahqiq.core import normalize

_LISTS = read_lists("cues.txt")
_read: set[str] = set()


def _folded(name: str, fold: Callable[[str], str]) -> frozenset[str]:
    _read.add(name)
    return frozenset(fold(w) for w in _LISTS[name])


def _keys(name: str) -> frozenset[str]:
    return _folded(name, key)


def _phrases(name: str) -> frozenset[tuple[str, ...]]:
    """The list's entries of several words, each as the tuple of its words' keys."""
    _read.add(name)
    return frozenset(tuple(key(w) for w in entry.split()) for entry in _LISTS[name])


def _with_possessives(words: Iterable[str]) -> frozenset[str]:
    """Keys of nouns and of their possessives (سيارة → سيارتها, سيارته; هاتف → هاتفها)."""
    out: set[str] = set()
    for k in words:
        out.add(k)
        if not k.startswith("ال"):
            base = k[:-1] + "ت" if k.endswith("ه") else k
            out.update(base + p for p in ("ها", "ه", "هم", "نا"))
    return frozenset(out)


TYPES: tuple[str, ...] = (
    "PERS", "NORP", "OCC", "ORG", "GPE", "LOC", "FAC", "EVENT", "DATE", "TIME", "CARDINAL", "ORDINAL",
    "PERCENT", "LANGUAGE", "QUANTITY", "WEBSITE", "UNIT", "LAW", "MONEY", "PRODUCT", "CURR",
)  # fmt: skip
MAX_COMPLEMENT = {"ORG": 3, "FAC": 3, "EVENT": 3, "LAW": 3, "OCC": 2}
NUMERIC_HOSTS = frozenset({"DATE", "TIME", "PERCENT", "MONEY", "QUANTITY"})
LISTED_NAMES = frozenset(("LAW", "EVENT", "PRODUCT"))
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
LATIN_SUFFIX = re.compile(r"^[A-Za-z]{1,3}$")
DIGIT_ORDINAL = re.compile(r"^[وبلف]?ال\d+$")  # الـ25, والـ4: an ordinal in digits (tatweel folded away)
MODEL_CODE = re.compile(r"^(?=.*\d)[A-Za-z0-9]{2,8}$")  # A350, 787, S24
QUOTE_OPEN = frozenset(("«", '"', "“", "„"))
QUOTE_CLOSE = frozenset(("»", '"', "”"))

TIME_OF_DAY = _keys("time_of_day")
TIME_HEAD = _keys("time_head")
YEAR_HEAD = _keys("year_head")
MONTH_HEAD = _keys("month_head")
YEAR_MARK = _keys("year_mark")
DAYS = _keys("days")
DAY_HEAD = _keys("day_head")
RELATIVE_DATE = _keys("relative_date")
RELATIVE_HEAD = _keys("relative_head")
DAY_PARTS = _keys("day_parts")
DURATION = _keys("duration")
DUAL_TIME = _keys("dual_time")
DUAL_DATE = _keys("dual_date")
DATE_PREFIX = _keys("date_prefix")
NOT_NAME_PARTS = _keys("not_name_parts")
NATURAL_HEADS = _keys("natural_heads")
WATER_HEADS_DEFINITE = _keys("water_heads_definite")
NATURAL_HEADS_LISTED = _keys("natural_heads_listed")
NATURAL_ADJ = _keys("natural_adj")
COMPASS_NOUNS = _keys("compass_nouns")
BARE_MODEL_NOUNS = _keys("bare_model_nouns")
MODEL_WORDS = _keys("model_words")
MODEL_SUFFIX = _keys("model_suffix")
EVENT_PREFIX = _keys("event_prefix")
ELECTION_KINDS = _keys("election_kinds")
NAME_ADJ = _keys("name_adj")
AGREEMENTS = _keys("agreements")
CONSTITUTION = _keys("constitution")
PRESS = _keys("press")
NAMED_EVENT_HEADS = _keys("named_event_heads")
FACILITY_ADJ = _keys("facility_adj")
RESOLUTION = _keys("resolution")
EVENT_NOUNS = _keys("event_nouns")
QUALIFYING = _keys("qualifying")
SEASON_HEADS = _keys("season_heads")
NOT_COMPLEMENTS = _keys("not_complements")
RANK_WORDS = _keys("rank_words")
PRODUCT_HEADS = _keys("product_heads")
PLACE_HEADS_FEMININE = _keys("place_heads_feminine")
BARE_NAMED_ORGS = _keys("bare_named_orgs")
MEMBER_BODIES = _keys("member_bodies")
PARTY_HEADS = _keys("party_heads")
PARTY_NAME_HEADS = _keys("party_name_heads")
PREPOSITION_WORDS = _keys("preposition_words")
COMPANY_NAME_HEADS = _keys("company_name_heads")
COMPANY_HEADS = _keys("company_heads")
NOT_NISBA = _keys("not_nisba")
TITLES = _keys("titles")
LONE_UNIT_BLOCK = _keys("lone_unit_block")
GPE_PREFIX = _keys("gpe_prefix")
PLACE_PREPOSITIONS = _keys("place_preposition")
DOOR_HEADS = _keys("door_head")
VERB_PARTICLES = _keys("verb_particle")
SPATIAL_ADVERBS = _keys("spatial_adverb")
GENERIC_PLACES = _keys("generic_place")
SPAN_NOUNS = _keys("span_noun")
SERVICE_HEADS = _keys("service_head")
COMPANY_SERVICE_HEADS = _keys("company_service_head")
PART_HEADS = _keys("part_head")
GENERIC_QUALIFIERS = _keys("generic_qualifier")
IDEAL_NOUNS = _keys("ideal_noun")
NAMED_DAYS = _keys("named_day")
COLOURS = _keys("colour")
OTHER_ONE = _keys("other_one")
NAME_IDIOMS = _phrases("name_idiom")
NUMBER_LABELS = _keys("number_label")
QUALITY_NOUNS = _keys("quality_noun")
PLACE_IDIOMS = _phrases("place_idiom")
ADJECTIVE_NEGATION = _keys("adjective_negation")
QUANTIFIERS = _keys("quantifier")
SETTLEMENT_HEADS = _keys("settlement_head")
STATE_FORMS = _keys("state_forms")
CAPITAL_WORDS = _keys("capital_words")
SEASONS = _keys("seasons")
APPROX = _keys("approx")
LONE_ONE = _keys("lone_one")
TIME_UNIT_ORDINAL = _keys("time_unit_ordinal")
FRACTION_WORDS = _keys("fraction_word")
EVERY_WORD = _keys("every_word")
MORE_LESS = _keys("more_less")
DATE_UNITS = _keys("date_units")
REGNAL = _keys("regnal")
REGNAL_TITLES = _keys("regnal_titles")
SINGLE_DATES = _keys("single_dates")
LANGUAGE_HEAD = _keys("language_head")
COMPASS = _keys("compass")
SPEAK = _keys("speak")
COPULA = _keys("copula")
POST_ADJECTIVES = _keys("post_adjective")
FRACTION_CARDINALS = _keys("fraction_cardinal")
BEING_VERBS = _keys("being_verb")
MARK_NOUNS = _keys("mark_noun")
DRINKS = _keys("drink")
NAME_GIVEN = _keys("name_given")
MARKS_NAMED = _keys("marks_named")
ONE_TIME = _keys("one_time")
ONE_DATE = _keys("one_date")
TRADES = _keys("trade")
SELLERS = _keys("seller")
PICTURE_NOUNS = _keys("picture_noun")
WORD_NAMED_HEADS = _keys("word_named_head")
PLANT_HEADS = _keys("plant_head")
RESPONSIBLE = _keys("responsible")
DEMONSTRATIVES = _keys("demonstrative")
DEGREE_UNITS = _keys("degree_unit")
HEAT_NOUNS = _keys("heat_noun")
LANGUAGE_AFTER = _keys("language_after")
OF = _keys("of")
LAW_NUMBER = _keys("law_number")
NEW_LAW = _keys("new_law")
BALL_GAMES = _keys("ball_games")
RACE_HEADS = _keys("race_heads")
RACE_STYLES = _keys("race_styles")
WAR_HEADS = _keys("war_heads")
FORMER = _keys("former")
NISBA_PERSON_PREPS = _keys("nisba_person_preps")
EVENT_REGIONS = _keys("event_regions")
SPOKESPERSONS = _keys("spokespersons")
MONTH_BEFORE = _keys("month_before")
DEPUTIES = _keys("deputies")
POST_ADJ = _keys("post_adj")
ENVOYS = _keys("envoys")
NOT_FACILITY_NAMES = _keys("not_facility_names")
KINSHIP = _keys("kinship")
VOCATIVE = _keys("vocative")
CLAUSE_OPENERS = _keys("clause_opener")
IS_CALLED = _keys("is_called")
KIN_MINE = _keys("kin_mine")
NAME_CUES = _keys("name_cue")
KIN_LEMMAS = _keys("kin_lemma")
KIN_PAIRS = _keys("kin_pairs")
AFFAIRS = _keys("affairs")
LEADER_IN = _keys("leader_in")
COMPLEMENTISERS = _keys("complementisers")
NAME_ENDERS = _keys("name_enders")
NAME_LINKS = _keys("name_links")
MINISTERS = _keys("ministers")
FAMILY_LINKS = _keys("family_links")
FOREIGN_LINKS = _keys("foreign_links")
NOT_NAMES = _keys("not_names")
NOT_NAME_PHRASES = _keys("not_name_phrases")
SECT_WORDS = _keys("sect_word")
PRAYER_HEADS = _keys("prayer_head")
PRAYER_TIMES = _keys("prayer_time")
TIME_PREPOSITIONS = _keys("time_preposition")
PRAY_VERBS = _keys("pray_verb")
WORD_TOWNS = _keys("word_town")
WORD_NOUNS = _keys("word_noun")
CONSTRUCT_NAMES = _keys("construct_name")
SESSION_HEADS = _keys("session_head")
SESSION_GAMES = _keys("session_games")
COMMON_PHRASES = _phrases("common_phrase")
KEEP_SPELLING = _folded("keep_spelling", lambda w: normalize(w, alef=False, ya=False))
CONTENT_STOP = _keys("content_stop")
RANGE_LINK = _folded("range_link", normalize) | {"\u200b" + key(w) for w in ("إلى", "حتى")}  # على, إلى keep a mark
MODEL_NOUNS = _with_possessives(_keys("model_nouns"))
PRODUCT_NOUN_FORMS = _with_possessives(_keys("product_noun_forms"))
PRODUCT_CUES = MODEL_NOUNS | MODEL_WORDS | {"نظام"}
NATURAL_CUES = NATURAL_HEADS | NATURAL_HEADS_LISTED | WATER_HEADS_DEFINITE | COMPASS_NOUNS | {"سلسله"}
PLACE_WORDS = GPE_PREFIX | CAPITAL_WORDS
PLACE_HEADS = PLACE_WORDS | NATURAL_HEADS  # a place's head ends an event's construct chain (زلزال جبال الأطلس)
COMPASS_NISBA = COMPASS | _keys("compass_masculine")
# a language after another, joined by a phrase instead of و: الأمازيغية … إلى جانب العربية
LANGUAGE_BESIDE = (("الى", "جانب"), ("بجانب",), ("جانب",))
ANNIVERSARY = key("الذكرى")
TO = key("إلى")
WORLD = key("العالم")
GULF = key("الخليج")
COUNTERPART = key("نظير")

UNREAD = frozenset(_LISTS) - _read
