"""What morphology in context says of the resolved entities: everyday words are no names (docs/design/ner.md,
"Everyday words"). The rule layers consult the same reading earlier, for the places of minor lists
(``layers.listed``) and for persons of one word (``layers.persons``); these rules see the learned layer's spans too.

- No one-word entity other than a person starts on a word that opens a sentence as a verb: طالب in «طالب نواب
  البرلمان» is "demanded", not the post. No post, organisation, place or facility starts on a frequent verb
  anywhere (وقد طالب السكان).
- No post, organisation, place, facility or event holds a frequent present-tense verb after its first word («كل
  يوم تحمي القلب»).
- A person's name ends before a word that cannot continue it: a frequent verb (سعيد يخرج; a past one only when
  more frequent still: ناصر صار), a noun with its possessive pronoun (خالد عمله, نوال خاتمها), a word in و (نبيل
  وصعب); unless a list knows the word as a name part. A definite noun may end a name (حنادي الحمد, عبد الله
  الفيصل), so it does not end one.
- A person of one word needs name evidence (a title or a kinship noun right before it) when morphology reads it as
  an adjective, a verb or a function word (متعب, مالك in «مالك لا يكفي»; a function word even after a title:
  «فحكم المعلم بينهما»), or, when no list knows it as a first
  name, as any common word (وسأله, طلبه: the learned layer's guesses). A name opens on no verb, function word or
  adjective no list knows (يزيد عادة), and two common words, the first surely no proper noun and the second a
  frequent definite word or adjective no list knows, are no name (جمال القصص "the beauty of stories", فعلا ماضيا).
  A one-word name read as a frequent noun with its pronoun is none (نوره "its light").
- A nisba of one word that reads as a kinship noun with a possessive pronoun is no people (جدي "my grandfather",
  not of Jeddah; وأبي, أبيه; the kinship lemmas are cues kin_lemma), and one that reads as an adjective whose
  lemma is no nisba is none (اليمنى "the right one", of أيمن, not of Yemen).
- A post of one word that reads as a function word is none (أمامه "in front of him", not إمام), nor a feminine
  post whose chosen lemma is the feminine noun itself rather than the title's (السباحة "swimming", not the
  swimmer; الصيدلية "the pharmacy"), while الممرضة reads as ممرض and stays; nor a post's sound plural (المزارعين).
- A town that reads as a common word is none in a common word's frame with no place around it (أي حائل, الحواس
  الخمس, العريش المصنوع); a region or an organisation read as a common word is none as a definition's subject
  (الجزيرة أرض …); a place spelled as a noun's indefinite accusative is that noun (كوبا "a cup", نارا "a fire").
- No name of a place, body, post or event starts right after a particle that only a verb follows (إذا دار العقرب).
- A person of one word read as a common noun with a pronoun or a preposition (راتبه, بالسيارة, بعصا) is none even
  after a title.
"""

from __future__ import annotations

from tahqiq.analysis.ner.cues import (
    ADJECTIVE_NEGATION,
    FRACTION_WORDS,
    GENERIC_PLACES,
    GPE_PREFIX,
    KIN_LEMMAS,
    PLACE_PREPOSITIONS,
    QUANTIFIERS,
    REGNAL,
    SPAN_NOUNS,
    SPATIAL_ADVERBS,
    VERB_PARTICLES,
)
from tahqiq.analysis.ner.layers.listed import COMMON_FREQUENCY, reads_as_common_word
from tahqiq.analysis.ner.lexicon import Lexicon
from tahqiq.analysis.ner.reading import FUNCTION_POS, NOT_NAME_POS, Reading, Span, WordInContext
from tahqiq.arabic.clitics import strip_article
from tahqiq.arabic.keys import bare, key

# a lemma this frequent in the lexicon's corpus is read as the common word; below it, a family name no list knows
# may be what morphology reads as a verb or a noun (تبون as بان 5)
FREQUENT = 100
FREQUENT_PAST_VERB = 300  # a past verb has no prefix to tell it, and more names read as one (شوكت 30, كين)
# a bare ك is left out: it ends too many foreign names (ماسك)
PRONOUN_SUFFIXES = ("هما", "ها", "هم", "هن", "كما", "كم", "كن", "ه")
PRESENT_PREFIXES = "يتن"
NOUN_TYPES = frozenset({"OCC", "ORG", "GPE", "LOC", "FAC"})  # names that are nouns: no verb reads as one
NAME_TYPES = NOUN_TYPES | {"EVENT"}
PLACE_TYPES = frozenset({"GPE", "LOC"})  # names that hold no present-tense verb inside
# a noun this frequent in the lexicon's corpus, read with the alif of the indefinite accusative, is that noun rather
# than a place spelled the same (كوب 28: كوبا "a cup"; نار 1,452)
ACCUSATIVE_FREQUENCY = 20
# a function word this frequent ends a person's name (إذا 4,439, منه as من 134,899): names hold no particle; أمام
# (1,654) is left out, since إمام reads as it (أكرم إمام أوغلو)
VERY_FREQUENT_FUNCTION = 4000
SURELY_COMMON = 0.12  # P(proper noun) below which a first name read in context is a common word: set between
# جمال in «جمال القصص» (0.10) and خليل in «خليل الحية» (0.15), a narrow margin the next tagger may move


def read_in_context(lex: Lexicon, doc: Reading, spans: list[Span]) -> list[Span]:
    """The resolved spans with the rules above applied (a cut person keeps its first words)."""
    out: list[Span] = []
    for s in spans:
        if s.j - s.i == 1 and s.type != "PERS" and _opens_as_verb(doc, s.i):
            continue
        if s.type in NOUN_TYPES and _frequent_verb(doc, s.i):
            continue
        if s.j - s.i == 1 and s.type == "ORDINAL" and _beginning_of_a_span(lex, doc, s.i):
            continue  # «في أول الشهر» "at the start of the month"
        if s.j - s.i == 2 and s.type in ("ORG", "FAC") and doc.keys[s.i + 1] in GENERIC_PLACES:
            continue  # «مكتبة المدرسة» "the school's library": a part of a place no name names
        if s.type in NAME_TYPES and s.i > 0 and _after_a_verb_particle(lex, doc, s.i):
            continue  # «إذا دار العقرب الطويل» "when the long hand turned": a verb, whatever the tagger says
        if s.type in NAME_TYPES and any(_frequent_present_verb(doc, x) for x in range(s.i + 1, s.j)):
            continue  # «كل يوم تحمي القلب»: a clause, not an event
        if s.j - s.i == 1 and s.type == "NORP" and _no_nisba(lex, doc, s.i):
            continue
        if s.j - s.i == 1 and s.type in PLACE_TYPES and _common_word_not_a_place(doc, s.i):
            continue  # «قرية تحت جبل» "under", «ورثها عن جده» "his grandfather": no place
        if s.j - s.i == 1 and s.type in ("LOC", "ORG") and _subject_read_as_common_word(lex, doc, s, spans):
            continue  # «الجزيرة أرض يحيط بها الماء» "an island", «، والخليج جزء من البحر» "a gulf"
        if s.j - s.i == 1 and s.type == "GPE" and _indefinite_accusative(lex, doc, s, spans):
            continue  # «شربت كوبا من الشاي» "a cup", «أشعلوا نارا» "a fire"; «وصل إلى كوبا» stays
        if s.j - s.i == 1 and s.type == "GPE" and _town_as_common_word(lex, doc, s, spans):
            continue  # «أي حائل» "any obstacle", «الحواس الخمس» "the five senses"; but «في حلب», «مدينة حمص»
        if s.j - s.i == 1 and s.type == "OCC" and (_not_a_post(doc, s.i) or _plural_of_post(doc, s.i)):
            continue
        if s.type == "PERS":
            if s.j - s.i == 1 and doc.read_as(s.i, FUNCTION_POS):
                continue  # «فحكم المعلم بينهما»: not even a title makes بينهما a name
            if s.j - s.i == 1 and (_coordinated_definite_noun(lex, doc, s.i) or _from_one_to_the_next(doc, s.i)):
                continue  # «الموظف والعامل والتلميذ», «من زهرة إلى زهرة» "from flower to flower"
            if _common_noun_with_clitic(lex, doc, s.i, rare=s.j - s.i == 1):
                continue  # «ينتظر زوجها راتبه», «الحارس بعصا»; «قاضي التحقيق بتهمة اختلاس» (بتهمة is frequent)
            if s.j - s.i > 1 and s.i not in doc.anchors and _opens_no_name(lex, doc, s.i):
                continue
            if doc.keys[s.i] in FRACTION_WORDS:
                continue  # «تسمى نصف القطر» "the radius": no name opens on a fraction, even after a verb of naming
            if s.j - s.i == 2 and s.i not in doc.anchors and _two_common_words(lex, doc, s.i):
                continue
            if s.i not in doc.anchors and _qualify_the_noun_before(lex, doc, s):
                continue  # «هذا رجل كريم أمين»: adjectives of the man, no name
            cut = next((x for x in range(s.i + 1, s.j) if _ends_a_name(lex, doc, x)), s.j)
            cut_before_and = cut < s.j and doc.keys[cut].startswith("و")
            if cut < s.j:
                s = Span(s.type, s.i, cut, s.rank)
                if s.j - s.i == 1 and (doc.read_as(s.i, FUNCTION_POS) or _common_noun_with_clitic(lex, doc, s.i)):
                    continue  # «أستاذة اللغة الفرنسية حين دخلت»: what the cut leaves is "when"; «العامل راتبه وعاد»
            if s.j - s.i == 1 and s.i not in doc.anchors and _not_a_name_alone(lex, doc, s.i):
                continue
            if s.j - s.i == 1 and (
                _noun_and_its_adjective(doc, s.i) or _after_negation(doc, s.i) or _adverb_accusative(lex, doc, s.i)
            ):
                continue  # «ستجدون حلا مناسبا» "a suitable solution", «غير صالح للمشي» "not fit", «فورا» "at once"
            if cut_before_and and s.j - s.i == 1 and s.i not in doc.anchors and lex.is_everyday(doc.keys[s.i]):
                continue  # what is left of «سليم والحمد» is the everyday word (but «سعيد يخرج» is a subject)
        out.append(s)
    return out


def _opens_as_verb(doc: Reading, i: int) -> bool:
    word = doc.context[i]
    return word is not None and word.opens_sentence and word.pos == "verb"


def _no_nisba(lex: Lexicon, doc: Reading, i: int) -> bool:
    word = doc.context[i]
    if word is None or not word.common:
        return False
    if word.pos in FUNCTION_POS:
        return True  # «حلمت أني أطير» "that I"
    if word.pos == "noun" and word.lemma.endswith("يه") and word.lemma_frequency >= FREQUENT:
        # «لحماية يديك» "to protect": a noun in ية, not a nisba (whose lemma ends in ي); السعودية read as a noun
        # is the country, which the gazetteer lists
        return not any(lex.gaz_match([st], 0) is not None for st, _p in lex.stems(doc.keys[i]))
    k = doc.keys[i].lstrip("و")
    if word.pos == "noun":
        return word.lemma in KIN_LEMMAS and (
            (k.endswith("ي") and k[:-1] == word.lemma) or _has_possessive(bare(doc.toks[i].text), word.lemma)
        )
    return word.pos == "adj" and k.endswith(("ي", "يه")) and not word.lemma.endswith("ي")


def _not_a_post(doc: Reading, i: int) -> bool:
    word = doc.context[i]
    if word is None or not word.common:
        return False
    if word.pos in FUNCTION_POS:
        return True
    written = bare(doc.toks[i].text)
    return written.endswith("ة") and word.lemma.endswith("ه") and key(written).endswith(word.lemma)


def _common_noun(doc: Reading, i: int, floor: int) -> WordInContext | None:
    """How token i reads when morphology reads it as a common noun whose lemma is `floor` or more in the corpus."""
    word = doc.context[i]
    if word is not None and word.common and word.pos == "noun" and word.lemma_frequency >= floor:
        return word
    return None


def _noun_accusative(doc: Reading, i: int) -> bool:
    """Token i is a frequent noun's indefinite accusative: the lemma and alif (حل → حلا, فور → فورا)."""
    word = _common_noun(doc, i, FREQUENT)
    return word is not None and key(bare(doc.toks[i].text)) == word.lemma + "ا"


def _noun_and_its_adjective(doc: Reading, i: int) -> bool:
    """Token i is a noun's indefinite accusative and an indefinite accusative adjective follows it: «ستجدون حلا
    مناسبا» "you will find a suitable solution", not the name حلا."""
    after = doc.context[i + 1] if i + 1 < doc.n else None
    return (
        _noun_accusative(doc, i)
        and after is not None
        and after.common
        and after.pos == "adj"
        and doc.keys[i + 1].endswith("ا")
        and not doc.keys[i + 1].startswith("ال")
    )


def _adverb_accusative(lex: Lexicon, doc: Reading, i: int) -> bool:
    """Token i is a noun's indefinite accusative that no list knows as a name (فورا "at once", even after a post:
    «اتصل بالطبيب فورا»); a listed name stays (نورا)."""
    return _noun_accusative(doc, i) and doc.keys[i] not in lex.name_part


def _after_negation(doc: Reading, i: int) -> bool:
    """Token i comes right after a word that negates an adjective (cues `adjective_negation`: غير صالح)."""
    return i > 0 and doc.keys[i - 1] in ADJECTIVE_NEGATION


def _coordinated_definite_noun(lex: Lexicon, doc: Reading, i: int) -> bool:
    """Token i is و and a definite common noun no list knows as a name part: the next item of a list («الموظف
    والعامل والتلميذ»), not a name after the post before it."""
    k = doc.keys[i]
    return _common_noun(doc, i, COMMON_FREQUENCY) is not None and k.startswith("وال") and k[1:] not in lex.name_part


def _from_one_to_the_next(doc: Reading, i: int) -> bool:
    """Token i is the word repeated in «من X إلى X» ("from flower to flower"): a common noun, not a name."""
    key_at, k = doc.plain_key, doc.keys[i]
    return (i > 0 and i + 2 < doc.n and key_at(i - 1) == "من" and key_at(i + 1) == "الي" and doc.keys[i + 2] == k) or (
        i > 2 and key_at(i - 1) == "الي" and key_at(i - 3) == "من" and doc.keys[i - 2] == k
    )


def _plural_of_post(doc: Reading, i: int) -> bool:
    """Token i is the sound plural of the post morphology chose for it (المزارعين of مزارع, اللاعبون, الصيدليات):
    a group, not a post someone holds (the conventions: OCC is singular)."""
    word = doc.context[i]
    if word is None or not word.common or word.pos != "noun":
        return False
    written = strip_article(key(bare(doc.toks[i].text)).lstrip("وف"))
    lemma = word.lemma
    plurals = (lemma + "ين", lemma + "ون") if not lemma.endswith("ه") else ()
    return written in plurals or written == (lemma[:-1] if lemma.endswith("ه") else lemma) + "ات"


def _common_noun_with_clitic(lex: Lexicon, doc: Reading, i: int, *, rare: bool = True) -> bool:
    """Token i reads as a frequent common noun with a possessive pronoun (راتبه "his salary", كتابه) or as a
    preposition on a frequent or dictionary noun (بالسيارة "by car", بصبر "patiently", بعصا "with a stick"), and no
    list knows it as a name part: no title or kinship noun before it makes it a name, nor the first word of one
    (there only a frequent noun: `rare` False; للطيب صالح, لسعد الدين العثماني hold listed names)."""
    word = doc.context[i]
    k = doc.keys[i]
    if word is None or not word.common or word.pos != "noun":
        return False
    if any(st in lex.name_part or strip_article(st) in lex.name_part for st, _p in lex.stems(k)):
        return False
    if word.lemma_frequency >= FREQUENT and _has_possessive(bare(doc.toks[i].text), word.lemma):
        return True
    # a preposition on a dictionary noun (a reading with a root), however rare in the corpus: بعصا "with a stick"
    return (word.lemma_frequency >= FREQUENT or (rare and word.rooted)) and any(
        p and any(c in k[:p] for c in "بلك") and strip_article(st) == word.lemma for st, p in lex.stems(k)
    )


def _ends_a_name(lex: Lexicon, doc: Reading, x: int) -> bool:
    """Token x cannot continue a person's name (see the module's docstring)."""
    k = doc.keys[x]
    word = doc.context[x]
    if word is None or k in lex.name_part:
        return False
    if k in FRACTION_WORDS:
        return True  # «أكل حسن نصف البرتقالة»
    if k[:1] == "و" and word.frequency > 0:
        # «عملك نبيل وصعب», «سليم والحمد لله»: a name part in و is listed whole (وهبة) or a word the lexicon's
        # corpus never saw (بيني وونغ)
        return True
    if not word.common:
        return False
    if word.pos in FUNCTION_POS and word.lemma_frequency >= VERY_FREQUENT_FUNCTION:
        return True  # «فورا إذا», «وأنور منه»: a name holds no particle or preposition
    if word.pos == "verb":
        if k.lstrip("وف")[:1] in PRESENT_PREFIXES:
            return word.lemma_frequency >= FREQUENT
        return word.lemma_frequency >= FREQUENT_PAST_VERB  # ناصر صار
    if word.pos in ("noun", "adj"):
        return _has_possessive(bare(doc.toks[x].text), word.lemma)
    return False


def _beginning_of_a_span(lex: Lexicon, doc: Reading, i: int) -> bool:
    """Token i is «أول» (a clitic allowed) right before a noun of a span (cues `span_noun`): its beginning."""
    return i + 1 < doc.n and doc.keys[i + 1] in SPAN_NOUNS and any(st == "اول" for st, _p in lex.stems(doc.keys[i]))


def _after_a_verb_particle(lex: Lexicon, doc: Reading, i: int) -> bool:
    """Token i comes right after a particle that only a verb follows (cues `verb_particle`: لم, لن, قد, سوف, إذا)."""
    return any(st in VERB_PARTICLES for st, _p in lex.stems(doc.plain_key(i - 1)))


def _frequent_verb(doc: Reading, i: int) -> bool:
    word = doc.context[i]
    return word is not None and word.common and word.pos == "verb" and word.lemma_frequency >= FREQUENT


def _frequent_present_verb(doc: Reading, x: int) -> bool:
    # ي or ت: a name inside a name may open on ن like a first-person verb (جائزة نوبل)
    return _frequent_verb(doc, x) and doc.keys[x].lstrip("وف")[:1] in "يت"


def _two_common_words(lex: Lexicon, doc: Reading, i: int) -> bool:
    """Token i reads as a common word, surely no proper noun, and token i + 1 as a frequent common word no list
    knows as a name part, definite or an adjective: جمال القصص "the beauty of stories", فعلا ماضيا "a past verb" (a
    family name is rarely that frequent a word: ماجد الفطيم; but a nisba is often one: نادر عباسي)."""
    first, second = doc.context[i], doc.context[i + 1]
    return (
        first is not None
        and second is not None
        and first.common
        and first.proper < SURELY_COMMON
        and second.common
        # a definite word (جمال القصص) or an adjective (فعلا ماضيا "a past verb")
        and (doc.keys[i + 1].startswith("ال") or (second.pos == "adj" and not doc.keys[i + 1].endswith("ي")))
        and second.lemma_frequency >= FREQUENT
        and doc.keys[i + 1] not in lex.name_part
        and doc.keys[i + 1] not in REGNAL  # محمد السادس
    )


def _common_word_not_a_place(doc: Reading, i: int) -> bool:
    """Token i reads in context as a frequent function word (تحت, حين) or as a frequent noun with its possessive
    pronoun (جده "his grandfather", not جدة: the letters as written tell ه from ة)."""
    word = doc.context[i]
    if word is None or not word.common or word.lemma_frequency < FREQUENT:
        return False
    if word.lemma in KIN_LEMMAS and doc.keys[i].endswith("ي"):
        return True  # «لأمي» "for my mother"
    return word.pos in FUNCTION_POS or _has_possessive(bare(doc.toks[i].text), word.lemma)


def _town_as_common_word(lex: Lexicon, doc: Reading, s: Span, spans: list[Span]) -> bool:
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
    if not _town_read_as_common_word(lex, doc, i):
        return False
    if any(o is not s and o.i <= i and s.j <= o.j for o in spans):
        return False  # جامعة حلب ⊃ GPE: the organisation says it
    if _place_context(lex, doc, s, spans):
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


def _subject_read_as_common_word(lex: Lexicon, doc: Reading, s: Span, spans: list[Span]) -> bool:
    """A one-word region or organisation (الخليج, الجزيرة) that morphology reads as a common word, inside no
    other entity, opening a clause (after a sentence's end, a comma or a colon) before a word that is no verb, with
    no place around it: a definition's subject, «الجزيرة أرض يحيط بها الماء». News names them in construct (دول
    الخليج, قناة الجزيرة) or as a verb's subject («الجزيرة تبث»)."""
    i = s.i
    word = doc.context[i]
    if word is None or not reads_as_common_word(lex, doc, i) or word.lemma_frequency < FREQUENT:
        return False
    if any(o is not s and o.i <= i and s.j <= o.j for o in spans) or _place_context(lex, doc, s, spans):
        return False
    opens = word.opens_sentence or i == 0 or doc.toks[i - 1].text in ("،", ",", ":", "؛")
    after = doc.context[i + 1] if i + 1 < doc.n else None
    return opens and after is not None and after.pos != "verb"


def _indefinite_accusative(lex: Lexicon, doc: Reading, s: Span, spans: list[Span]) -> bool:
    """A one-word place spelled as a common noun's indefinite accusative (the noun and alif: كوب → كوبا, نار →
    نارا, صبي → صبيا) that morphology reads as that noun, with no place around it; a country is never a nisba's
    accusative (روسيا, سوريا read as روسي, سوري + ا stay)."""
    word = doc.context[s.i]
    if word is None or not word.common or word.pos != "noun" or word.frequency < ACCUSATIVE_FREQUENCY:
        return False
    written = key(bare(doc.toks[s.i].text))
    if written[:1] in ("و", "ف") and written[1:] == word.lemma + "ا":
        written = written[1:]
    if written != word.lemma + "ا":
        return False
    if word.lemma.endswith("ي") and not any(st in lex.towns for st, _p in lex.stems(doc.keys[s.i])):
        return False  # روسيا, سوريا: a country is no nisba's accusative; a town may be one («العمل صبيا» "as a boy")
    return not _place_context(lex, doc, s, spans)


def _place_context(lex: Lexicon, doc: Reading, s: Span, spans: list[Span]) -> bool:
    """Something around token s.i says it is a place (see `_town_as_common_word`)."""
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
    return any(
        o is not s
        and o.type in ("GPE", "LOC", "NORP")
        and (abs(o.i - i) <= 3 or abs(o.j - 1 - i) <= 3)
        and not (o.j - o.i == 1 and doc.read_as(o.i, NOT_NAME_POS - {"adj"}))  # فلنكن is no place beside حماة
        and not (o.j - o.i == 1 and _town_read_as_common_word(lex, doc, o.i))  # «باب العمارة الزرقاء»
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


def _town_read_as_common_word(lex: Lexicon, doc: Reading, i: int) -> bool:
    return any(st in lex.towns for st, _p in lex.stems(doc.keys[i])) and reads_as_common_word(lex, doc, i)


def _qualify_the_noun_before(lex: Lexicon, doc: Reading, s: Span) -> bool:
    """Every word of the span is an everyday word (data/everyday.txt: كريم, أمين, حسن) with no article, right after
    a frequent indefinite common noun of the first word's gender: they qualify it as indefinite adjectives do
    («رجل كريم أمين», «زاد حسن» "good provisions"). A name in construct with the noun keeps a word of its own
    (نفق سليم سلام), a definite one (شارع الحبيب بورقيبة) or another gender (بقيادة نادر عباسي)."""
    i = s.i
    words = [doc.keys[x].lstrip("و") for x in range(s.i, s.j)]
    if i == 0 or any(w.startswith("ال") or not lex.is_everyday(w) for w in words):
        return False
    if doc.toks[i - 1].text.endswith("ة") != doc.toks[i].text.endswith("ة"):
        return False
    before = doc.context[i - 1]
    k = doc.keys[i - 1]
    return (
        before is not None
        and before.common
        and before.pos == "noun"
        and before.lemma_frequency >= FREQUENT
        and not k.startswith(("ال", "وال", "بال", "فال", "لل"))
        and not _has_possessive(bare(doc.toks[i - 1].text), before.lemma)
    )


def _opens_no_name(lex: Lexicon, doc: Reading, i: int) -> bool:
    """Token i reads as a verb or a function word, or as an adjective no list knows as a name part (يزيد عادة,
    بينهما; but محمد read as an adjective still opens محمد السادس)."""
    word = doc.context[i]
    if word is None or not word.common:
        return False
    if word.pos == "adj":
        return doc.keys[i].lstrip("و") not in lex.name_part
    return word.pos in NOT_NAME_POS


def _not_a_name_alone(lex: Lexicon, doc: Reading, i: int) -> bool:
    if doc.read_as(i, NOT_NAME_POS):
        return True
    if not doc.read_common(i):
        return False
    word = doc.context[i]
    # a frequent noun with its pronoun, even where a list knows the letters as a name: نوره "its light", not نورة
    if word is not None and word.lemma_frequency >= FREQUENT and _has_possessive(bare(doc.toks[i].text), word.lemma):
        return True
    return doc.keys[i].lstrip("و") not in lex.name_part


def _has_possessive(word: str, lemma: str) -> bool:
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
