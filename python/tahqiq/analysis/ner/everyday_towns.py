"""Towns, regions and peoples that are everyday words, and what around a word says it is a place (docs/design/
ner.md, "Everyday words"): the rules of ``everyday_places.not_a_name_in_context`` for one-word places and nisbas,
kept apart because they share the place's context (`place_context`)."""

from __future__ import annotations

from tahqiq.analysis.ner.cues import (
    BEING_VERBS,
    DEMONSTRATIVES,
    GPE_PREFIX,
    KIN_LEMMAS,
    KIN_MINE,
    PLACE_PREPOSITIONS,
    PLACE_WORDS,
    QUANTIFIERS,
    SPATIAL_ADVERBS,
    WORD_TOWNS,
)
from tahqiq.analysis.ner.in_context import (
    FREQUENT,
    SURELY_COMMON,
    elative,
    has_possessive,
    held_by_another,
    kin_with_pronoun,
    verb_at_least,
)
from tahqiq.analysis.ner.layers.listed import COMMON_FREQUENCY, reads_as_common_word
from tahqiq.analysis.ner.lexicon import Lexicon
from tahqiq.analysis.ner.reading import FUNCTION_POS, NOT_NAME_POS, Reading, Span
from tahqiq.arabic.keys import bare, key

# a noun this frequent in the lexicon's corpus, read with the alif of the indefinite accusative, is that noun rather
# than a place spelled the same (كوب 28: كوبا "a cup"; نار 1,452)
ACCUSATIVE_FREQUENCY = 20
PREDICATE_OPENERS = DEMONSTRATIVES | BEING_VERBS  # «هذا مالي», «ليس مالي»: what comes next is a predicate


def no_nisba(lex: Lexicon, doc: Reading, i: int) -> bool:
    """Token i, tagged as a people's nisba, reads in context as something else: a kinship noun with "my", a function
    word, a noun in ية or a noun in construct, a frequent noun with "my", or an adjective whose lemma is no nisba."""
    word = doc.context[i]
    if word is None:
        return False
    if any(st in KIN_MINE or kin_with_pronoun(st) for st, _p in lex.stems(doc.keys[i])):
        return True  # «شفي جدي», «رحم الله جدي» "my grandfather", «في حقل أبيه»: however morphology reads it
    if not word.common:
        return False
    if word.pos in FUNCTION_POS:
        return True  # «حلمت أني أطير» "that I"
    if _noun_in_construct(doc, i):
        return True  # «بصينية الفول», «نحمل صينية العجين» "a tray of dough": a noun, not صينية "Chinese"
    if word.pos == "noun" and word.lemma.endswith("يه") and word.lemma_frequency >= FREQUENT:
        # «لحماية يديك» "to protect": a noun in ية, not a nisba (whose lemma ends in ي); السعودية read as a noun
        # is the country, which the gazetteer lists
        return not any(lex.gaz_match([st], 0) is not None for st, _p in lex.stems(doc.keys[i]))
    k = doc.keys[i].lstrip("و")
    if word.pos == "noun":
        if word.lemma in KIN_LEMMAS:  # جدي, لجدي "for my grandfather", جده: a kinship noun and its owner
            mine = any(st.endswith("ي") and st[:-1] == word.lemma for st, _p in lex.stems(doc.keys[i]))
            return mine or has_possessive(bare(doc.toks[i].text), word.lemma)
        # «يطرق بابي» "my door": a frequent noun and "my", where the noun is no place (مصري is no "my Egypt")
        return (
            k.endswith("ي")
            and k[:-1] == word.lemma
            and word.lemma_frequency >= FREQUENT
            and lex.gaz_match([word.lemma], 0) is None
            and lex.gaz_match(["ال" + word.lemma], 0) is None
        )
    return word.pos == "adj" and k.endswith(("ي", "يه")) and not word.lemma.endswith("ي")


def _noun_in_construct(doc: Reading, i: int) -> bool:
    """Token i, a feminine nisba's letters (ية) without the article, carries ب, ل or ك or follows no indefinite
    noun it could qualify, and comes before a definite noun: a noun in construct («بصينية الفول», «نحمل صينية
    العجين» "a tray of dough"), since an indefinite adjective takes no definite noun after it but in «سيارة صينية
    الصنع», where the noun before it is indefinite."""
    k = doc.keys[i]
    after = doc.context[i + 1] if i + 1 < doc.n else None
    before = doc.context[i - 1] if i > 0 else None
    qualifies = (
        before is not None and before.pos == "noun" and not doc.keys[i - 1].lstrip("وف").startswith(("ال", "بال", "لل"))
    )
    return (
        (k[:1] in ("ب", "ل", "ك") or not qualifies)
        and not k.startswith(("ال", "وال", "بال", "لل"))
        and k.endswith("يه")
        and after is not None
        and after.common
        and after.pos == "noun"
        and doc.keys[i + 1].startswith("ال")
    )


def kin_of_mine(lex: Lexicon, doc: Reading, i: int) -> bool:
    """Token i, which no list knows as a place, is a kinship or friendship noun with "my" (cues `kin_mine`: جدتي,
    أمي, صديقي), as a head's guess makes it one: «قرية جدتي» "my grandmother's village"; a town takes no pronoun."""
    return lex.gaz_match(doc.keys, i) is None and bool(lex.heads(doc.keys[i]) & KIN_MINE)


def country_as_my_noun(doc: Reading, i: int) -> bool:
    """Token i, a place in ي that morphology reads as a common word, surely no proper noun, is a predicate right
    after a demonstrative or a verb of being (cues `demonstrative`, `being_verb`): a noun with "my" («هذا المال ليس
    مالي» "not my money"), not Mali; «أعلنت مالي», «في مالي» stay. (Before a definite adjective, as in «من مالي
    الخاص», it would be too, but so is دبي in «موانئ دبي العالمية».)"""
    word = doc.context[i]
    if word is None or not word.common or word.proper >= SURELY_COMMON or not doc.keys[i].endswith("ي"):
        return False
    return i > 0 and doc.plain_key(i - 1).lstrip("و") in PREDICATE_OPENERS


def common_word_not_a_place(doc: Reading, i: int) -> bool:
    """Token i reads in context as a frequent function word (تحت, حين) or as a frequent noun with its possessive
    pronoun (جده "his grandfather", not جدة: the letters as written tell ه from ة)."""
    word = doc.context[i]
    if word is None or not word.common or word.lemma_frequency < FREQUENT:
        return False
    if word.lemma in KIN_LEMMAS and doc.keys[i].endswith("ي"):
        return True  # «لأمي» "for my mother"
    text = bare(doc.toks[i].text)
    if text[:1] in ("و", "ف") and not word.lemma.startswith(text[:1]):
        text = text[1:]  # «ضغطه وسكره» "his blood sugar"
    return word.pos in FUNCTION_POS or has_possessive(text, word.lemma)


def town_as_common_word(lex: Lexicon, doc: Reading, s: Span, spans: list[Span]) -> bool:
    """Token s.i is a town (``Lexicon.towns``: no country, no capital) that morphology in context reads as a common
    word, inside no other entity and with no place around it, in a frame a common word takes and a place rarely:
    - after a quantifier (cues `quantifier`): «أي حائل» "any obstacle";
    - definite, read as an adjective or a number right after a definite common noun that no verb comes right
      before: «الحواس الخمس» "the five senses", «باب العمارة الزرقاء» "the blue building" (after a verb the noun
      may be its subject, and the town its object: «ودخلت القوات الحديدة»);
    - definite, before a definite participle that describes it: «العريش المصنوع من سعف النخيل» "the arbour made
      of palm fronds", «الحديدة المعقوفة» "the hooked iron".
    A place's context keeps the town: a preposition of place or ب/ل on it (في الزاوية, بالحديدة: cues
    `place_preposition`), a head (مدينة حماة), a list after a preposition of place (في الجرف الأصفر وآسفي), or
    another place or people within three words (حمص وحماة, حلب السورية). A town in any other frame stays a
    place: towns are the subjects and objects of news («شهدت غزة», «قصفت الطائرات حلب»)."""
    i = s.i
    k = doc.keys[i]
    if not town_read_as_common_word(lex, doc, i):
        return False
    if any(o is not s and o.i <= i and s.j <= o.j for o in spans):
        return False  # جامعة حلب ⊃ GPE: the organisation says it
    if place_context(lex, doc, s, spans):
        return False
    before = doc.plain_key(i - 1) if i > 0 else ""
    if before in QUANTIFIERS or before in SPATIAL_ADVERBS:
        return True  # «أي حائل» "any obstacle", «فوق التل» "above the hill"
    if k.startswith("وال") and _coordinated_with_a_common_noun(doc, i, spans):
        return True  # «الساحات والميادين» "the squares and the fields"
    if not k.startswith("ال"):
        return False
    word = doc.context[i]
    noun_before = doc.context[i - 1] if i > 0 else None
    if (
        word is not None
        and word.pos in ("adj", "num")
        and noun_before is not None
        and noun_before.common
        and noun_before.pos == "noun"
        and before.startswith("ال")
        and not (i > 1 and doc.read_as(i - 2, frozenset({"verb"})))
    ):
        return True  # الحواس الخمس, العمارة الزرقاء
    after = doc.context[i + 1] if i + 1 < doc.n else None
    k_after = doc.keys[i + 1] if i + 1 < doc.n else ""
    return (
        after is not None
        and after.pos in ("adj", "noun")
        and k_after.startswith("الم")
        and after.lemma.startswith("م")
        and len(k_after) >= 6
        and not k_after.endswith(("ي", "يه"))
    )  # العريش المصنوع, الحديدة المعقوفة


OLD_TOWN = frozenset({"القديمه", "القديم"})  # «الموصل القديمة» "the old city" is a place's adjective


def word_town(lex: Lexicon, doc: Reading, s: Span, spans: list[Span]) -> bool:
    """A town whose word is an everyday noun of a thing (cues `word_town`: الرباط "the bandage", الموصل "the
    plug"), read by morphology in context, inside no other entity, that has no place's context: before a definite
    adjective of a thing (العقبة الوحيدة, بالحديدة المثبتة; not a nisba, a compass point or القديمة), or with
    nothing that says place: no preposition of place, ب or ل, head or place near (`place_context`), no head such
    as عاصمة right after it, and not after a noun whose complement or object it may be (أسواق الموصل, دخلت القوات
    الموصل). The issue's rule for listed words that are also common words: they need context to count."""
    i = s.i
    if doc.context[i] is None or held_by_another(s, spans, i):
        return False
    if not any(st in WORD_TOWNS for st, _p in lex.stems(doc.keys[i])):  # the list holds the article: الرباط
        return False
    if (
        i + 1 < doc.n
        and doc.keys[i + 1].endswith("ه")
        and not doc.keys[i].endswith("ه")
        and _definite_adjective(doc, i + 1)
    ):
        return False  # «زرنا الموصل القديمة»: a town is feminine, the plug is not
    if i + 1 < doc.n and _adjective_of_a_thing(doc, i + 1) and not place_near(lex, doc, s, spans):
        return True  # «نزعت الحسكة الكبيرة», «ارتدى الحلة الجديدة»
    if place_context(lex, doc, s, spans):
        return False
    if i + 1 < doc.n and _place_word(lex, doc, i + 1):
        return False  # «يحدد الرباط عاصمة للبلاد», «وتعد الرباط عاصمتها»
    return not (i > 0 and doc.read_as(i - 1, frozenset({"noun"})))


def _place_word(lex: Lexicon, doc: Reading, x: int) -> bool:
    """Token x is a place's head (cues `gpe_prefix`, `capital_words`), a pronoun on it or not (عاصمتها)."""
    word = doc.context[x]
    return any(st in PLACE_WORDS for st, _p in lex.stems(doc.keys[x])) or (
        word is not None and word.lemma in PLACE_WORDS
    )


def _definite_adjective(doc: Reading, x: int) -> bool:
    """Token x is a definite adjective or participle (مفعول, فاعل read as a noun in م) in context."""
    k = doc.keys[x]
    word = doc.context[x]
    return (
        word is not None
        and word.common
        and k.startswith("ال")
        and (word.pos == "adj" or (word.pos == "noun" and k.startswith("الم") and word.lemma.startswith("م")))
    )


def _adjective_of_a_thing(doc: Reading, x: int) -> bool:
    """Token x is a definite adjective no place takes: not a nisba, a compass point or «old»."""
    k = doc.keys[x]
    return _definite_adjective(doc, x) and not k.endswith(("ي", "يه")) and k not in OLD_TOWN


def town_read_as_verb(lex: Lexicon, doc: Reading, s: Span, spans: list[Span]) -> bool:
    """A town (``Lexicon.towns``) that morphology reads as a frequent verb, inside no other entity and with no
    place around it: «جدول ينبع من بين الصخر» "a brook that springs"; news names towns as nouns, so morphology
    reads them as nouns there («شهدت غزة»)."""
    i = s.i
    return (
        verb_at_least(doc, i, COMMON_FREQUENCY)
        and town_read_as_common_word(lex, doc, i)
        and not held_by_another(s, spans, i)
        and not place_context(lex, doc, s, spans)
    )


def _coordinated_with_a_common_noun(doc: Reading, i: int, spans: list[Span]) -> bool:
    """The word right before token i is a definite common noun inside no entity: a town in و after it is the next
    noun of the same list («الساحات والميادين»)."""
    before = doc.context[i - 1] if i > 0 else None
    return (
        before is not None
        and before.common
        and before.pos == "noun"
        and doc.keys[i - 1].lstrip("و").startswith("ال")
        and not any(o.i <= i - 1 < o.j for o in spans)
    )


def subject_read_as_common_word(lex: Lexicon, doc: Reading, s: Span, spans: list[Span]) -> bool:
    """A one-word region or organisation (الخليج, الجزيرة) that morphology reads as a common word, inside no
    other entity, opening a clause (after a sentence's end, a comma or a colon) before a word that is no verb, with
    no place around it: a definition's subject, «الجزيرة أرض يحيط بها الماء». News names them in construct (دول
    الخليج, قناة الجزيرة) or as a verb's subject («الجزيرة تبث»)."""
    i = s.i
    word = doc.context[i]
    if word is None or not reads_as_common_word(lex, doc, i) or word.lemma_frequency < FREQUENT:
        return False
    if any(o is not s and o.i <= i and s.j <= o.j for o in spans) or place_context(lex, doc, s, spans):
        return False
    opens = word.opens_sentence or i == 0 or doc.toks[i - 1].text in ("،", ",", ":", "؛")
    after = doc.context[i + 1] if i + 1 < doc.n else None
    return opens and after is not None and after.pos != "verb"


def indefinite_accusative(lex: Lexicon, doc: Reading, s: Span, spans: list[Span]) -> bool:
    """A one-word place spelled as a common noun's or adjective's indefinite accusative (`accusative_word`) with
    no place around it."""
    return accusative_word(lex, doc, s, spans) and not place_context(lex, doc, s, spans)


def accusative_word(lex: Lexicon, doc: Reading, s: Span, spans: list[Span]) -> bool:
    """A one-word place spelled as a common noun's or adjective's indefinite accusative (the word and alif: كوب →
    كوبا, نار → نارا, صبي → صبيا, كسل → كسلا "lazily") that morphology reads as that word, inside no other entity;
    a country is never a nisba's accusative (روسيا, سوريا read as روسي, سوري + ا stay)."""
    word = doc.context[s.i]
    if word is None or not word.common or word.pos not in ("noun", "adj"):
        return False
    if word.frequency < ACCUSATIVE_FREQUENCY and not word.rooted:
        return False  # بخارا "as vapour" is a dictionary word however rare
    if word.pos == "adj" and elative(word.lemma):
        return False  # an elative or a colour (أفعل) takes no tanween: أريحا is no "more comfortable"
    if held_by_another(s, spans, s.i):
        return False  # «مستشفى كسلا التعليمي» holds it: a name
    written = key(bare(doc.toks[s.i].text))
    if written[:1] in ("و", "ف") and written[1:] == word.lemma + "ا":
        written = written[1:]
    if written != word.lemma + "ا":
        return False
    if word.lemma.endswith("ي") and not any(st in lex.towns for st, _p in lex.stems(doc.keys[s.i])):
        return False  # روسيا, سوريا: a country is no nisba's accusative; a town may be one («العمل صبيا» "as a boy")
    return True


def place_context(lex: Lexicon, doc: Reading, s: Span, spans: list[Span]) -> bool:
    """Something around token s.i says it is a place (see `town_as_common_word`)."""
    i = s.i
    k = doc.keys[i]
    if any(p and ("ب" in k[:p] or "ل" in k[:p]) for _st, p in lex.stems(k)):
        return True  # بالحديدة, لحلب
    if i > 0:
        before = doc.plain_key(i - 1)
        if any(st in PLACE_PREPOSITIONS or st in GPE_PREFIX for st, _p in lex.stems(before)):
            return True
        if k.startswith("و") and _listed_after_a_preposition_of_place(doc, i):
            return True  # في الجرف الأصفر وآسفي
    return place_near(lex, doc, s, spans)


def place_near(lex: Lexicon, doc: Reading, s: Span, spans: list[Span]) -> bool:
    """Another place or people within three words of token s.i (حمص وحماة, حلب السورية)."""
    i = s.i
    return any(
        o is not s
        and o.type in ("GPE", "LOC", "NORP")
        and (abs(o.i - i) <= 3 or abs(o.j - 1 - i) <= 3)
        and not (o.j - o.i == 1 and doc.read_as(o.i, NOT_NAME_POS - {"adj"}))  # فلنكن is no place beside حماة
        and not (o.j - o.i == 1 and town_read_as_common_word(lex, doc, o.i))  # «باب العمارة الزرقاء»
        and not (o.type == "NORP" and o.j - o.i == 1 and no_nisba(lex, doc, o.i))  # «عاد أبي» "my father"
        and not (o.type == "GPE" and o.j - o.i == 1 and accusative_word(lex, doc, o, spans))  # «كوبا من الخل الأبيض»
        for o in spans
    )


def _listed_after_a_preposition_of_place(doc: Reading, i: int) -> bool:
    """A preposition of place up to four words before token i, in the same clause (no mark between): في الجرف
    الأصفر وآسفي, not «من كل جهة، والخليج جزء من البحر»."""
    for x in range(i - 1, max(-1, i - 6), -1):
        if doc.toks[x].kind != "word":
            return False
        if doc.plain_key(x) in PLACE_PREPOSITIONS:
            return True
    return False


def town_read_as_common_word(lex: Lexicon, doc: Reading, i: int) -> bool:
    return any(st in lex.towns for st, _p in lex.stems(doc.keys[i])) and reads_as_common_word(lex, doc, i)
