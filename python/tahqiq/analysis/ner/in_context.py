"""Readers of morphology in context that the everyday rules share (``ner/everyday.py`` for persons,
``ner/everyday_places.py`` for every other type): how frequent a reading must be to count as the common word, and
the small tests on one token."""

from __future__ import annotations

from tahqiq.analysis.ner.cues import KIN_LEMMAS
from tahqiq.analysis.ner.lexicon import Lexicon
from tahqiq.analysis.ner.reading import Reading, Span, WordInContext
from tahqiq.arabic.keys import key

# a lemma this frequent in the lexicon's corpus is read as the common word; below it, a family name no list knows
# may be what morphology reads as a verb or a noun (تبون as بان 5)
FREQUENT = 100
VERY_COMMON = 1000  # a noun this frequent opens no name even after a post (رجل, بطل)
FREQUENT_PAST_VERB = 300  # a past verb has no prefix to tell it, and more names read as one (شوكت 30, كين)
# a bare ك is left out: it ends too many foreign names (ماسك)
SURELY_COMMON = 0.12  # P(proper noun) below which a first name read in context is a common word: set between
# جمال in «جمال القصص» (0.10) and خليل in «خليل الحية» (0.15), a narrow margin the next tagger may move
PRONOUN_SUFFIXES = ("هما", "ها", "هم", "هن", "كما", "كم", "كن", "ه")
OWNER_SUFFIXES = (*PRONOUN_SUFFIXES, "ي", "ك", "نا")  # a noun's possessive pronouns (حظي, حظك, حظنا)
PRESENT_PREFIXES = "يتن"


def common_noun(doc: Reading, i: int, floor: int) -> WordInContext | None:
    """How token i reads when morphology reads it as a common noun whose lemma is `floor` or more in the corpus."""
    word = doc.context[i]
    if word is not None and word.common and word.pos == "noun" and word.lemma_frequency >= floor:
        return word
    return None


def has_possessive(word: str, lemma: str) -> bool:
    """The word (letters as written: ة is no pronoun) is the lemma's key with a possessive pronoun (عمله = عمل + ه,
    جدته = جدة + ه, خاتمها = خاتم + ها)."""
    k = key(word)
    if k == lemma or len(lemma) < 2 or word.endswith("ة"):
        return False
    base = lemma[:-1] + "ت" if lemma.endswith("ه") else lemma  # the ta marbuta is written ت before a pronoun
    for suffix in PRONOUN_SUFFIXES:
        if k.endswith(suffix) and len(k) - len(suffix) >= 2:
            stem = k[: -len(suffix)]
            if stem.startswith(base) or stem.startswith(lemma):
                return True
    return False


def kin_with_pronoun(k: str, suffixes: tuple[str, ...] = PRONOUN_SUFFIXES) -> bool:
    """The key is a kinship noun (cues `kin_lemma`) and a possessive pronoun: أمه, أخاه, أخوه, أبيه, ابنته (and
    with ``OWNER_SUFFIXES`` أمي, ابنك, أخونا)."""
    for suffix in suffixes:
        if not k.endswith(suffix) or len(k) <= len(suffix) + 1:
            continue
        base = k[: -len(suffix)]
        if base in KIN_LEMMAS or (base[-1] in "اوي" and base[:-1] in KIN_LEMMAS):
            return True  # أمه; أخاه, أخوه, أخيه (the five nouns keep their case vowel before a pronoun)
        if base.endswith("ت") and base[:-1] + "ه" in KIN_LEMMAS:
            return True  # ابنته, عمتها
    return False


def verb_at_least(doc: Reading, i: int, floor: int) -> bool:
    """Morphology in context reads token i as a verb whose lemma is `floor` or more in the lexicon's corpus."""
    word = doc.context[i]
    return word is not None and word.common and word.pos == "verb" and word.lemma_frequency >= floor


def frequent_verb(doc: Reading, i: int) -> bool:
    return verb_at_least(doc, i, FREQUENT)


def frequent_verb_no_name(lex: Lexicon, doc: Reading, i: int) -> bool:
    """Token i reads as a verb frequent enough for a past one (`FREQUENT_PAST_VERB`) and no list knows it as a name
    part: «وقلت» "and I said" after a post is no name."""
    return verb_at_least(doc, i, FREQUENT_PAST_VERB) and doc.keys[i] not in lex.name_part


def held_by_another(s: Span, spans: list[Span], x: int) -> bool:
    """Another entity than s holds token x (مستشفى كسلا holds كسلا; مهرجان كان holds كان)."""
    return any(o is not s and o.i <= x < o.j for o in spans)


def elative(lemma: str) -> bool:
    """The lemma is on the pattern أفعل (an elative or a colour: أجمل, أريح), which takes no tanween."""
    return len(lemma) == 4 and lemma[0] == "ا"
