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
- A local service named by what it is for (cues `service_head`: مكتب البريد, مستشفى الأطفال) or a head with a generic
  qualifier (المركز التجاري) is no name; a place before a colour, «one» or «other» (الخرطوم الأخضر, الضفة الأخرى)
  or in construct (بحجة قلة الميزانية) is a thing; no entity starts inside an everyday phrase (cues `name_idiom`:
  جوز الهند, أحمد الله); identifying numbers count nothing (البناية رقم 14, a telephone number).
- A name ends before a preposition with the article or on a noun (بالشمس, بحذر, لأمه), a part of the day, an
  elative, ل and a verb, or a very common noun in construct (صور الرحلة); a name of everyday words with no evidence
  (نور الصباح), one opening on a plain very common noun (رجل عادل) or on a plain function word (تحت) is none, and so
  is a name-like word before a noun of a quality (سعيد الحظ).
"""

from __future__ import annotations

from tahqiq.analysis.ner.cues import (
    ADJECTIVE_NEGATION,
    COLOURS,
    DAY_PARTS,
    EVERY_WORD,
    FRACTION_WORDS,
    GENERIC_PLACES,
    GENERIC_QUALIFIERS,
    GPE_PREFIX,
    IDEAL_NOUNS,
    KIN_LEMMAS,
    LONE_ONE,
    NAME_IDIOMS,
    NUMBER_LABELS,
    OTHER_ONE,
    PLACE_HEADS,
    PLACE_PREPOSITIONS,
    PRAYER_HEADS,
    QUALITY_NOUNS,
    QUANTIFIERS,
    REGNAL,
    SERVICE_HEADS,
    SPAN_NOUNS,
    SPATIAL_ADVERBS,
    TIME_OF_DAY,
    VERB_PARTICLES,
)
from tahqiq.analysis.ner.layers.heads import frequent_common_noun
from tahqiq.analysis.ner.layers.listed import COMMON_FREQUENCY, reads_as_common_word
from tahqiq.analysis.ner.lexicon import Lexicon
from tahqiq.analysis.ner.reading import FUNCTION_POS, NOT_NAME_POS, Reading, Span, WordInContext
from tahqiq.arabic.clitics import strip_article
from tahqiq.arabic.keys import bare, key

# a lemma this frequent in the lexicon's corpus is read as the common word; below it, a family name no list knows
# may be what morphology reads as a verb or a noun (تبون as بان 5)
FREQUENT = 100
VERY_COMMON = 1000  # a noun this frequent opens no name even after a post (رجل, بطل)
FREQUENT_PAST_VERB = 300  # a past verb has no prefix to tell it, and more names read as one (شوكت 30, كين)
# a bare ك is left out: it ends too many foreign names (ماسك)
PRONOUN_SUFFIXES = ("هما", "ها", "هم", "هن", "كما", "كم", "كن", "ه")
PRESENT_PREFIXES = "يتن"
OWNER_SUFFIXES = (*PRONOUN_SUFFIXES, "ي", "ك", "نا")  # a noun's possessive pronouns (حظي, حظك, حظنا)
NOUN_TYPES = frozenset({"OCC", "ORG", "GPE", "LOC", "FAC"})  # names that are nouns: no verb reads as one
NAME_TYPES = NOUN_TYPES | {"EVENT"}
PLACE_TYPES = frozenset({"GPE", "LOC"})  # names that hold no present-tense verb inside
IDIOMS_BY_SECOND_WORD: dict[str, list[tuple[str, ...]]] = {}  # cues `name_idiom`, looked up by their second word
for _idiom in NAME_IDIOMS:
    IDIOMS_BY_SECOND_WORD.setdefault(_idiom[1], []).append(_idiom)
AFTER_NO_NOUN = frozenset({"prep", "verb"})  # readings no adjective follows as the word's qualifier
# words after which a one-word place read as a common word is a thing: a colour, «one», «other»
THING_AFTER = COLOURS | LONE_ONE | OTHER_ONE
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
    in_idiom = _inside_idioms(lex, doc)
    spans = [s for s in spans if s.i not in in_idiom]  # «جوز الهند» "coconut", «أحمد الله» "I praise God"
    out: list[Span] = []
    for s in spans:
        if s.type == "PERS":
            person = _person_in_context(lex, doc, s)
            if person is not None:
                out.append(person)
        elif not _not_a_name_in_context(lex, doc, s, spans):
            out.append(s)
    return out


def _not_a_name_in_context(lex: Lexicon, doc: Reading, s: Span, spans: list[Span]) -> bool:
    """A span of any type but PERS that morphology in context says is everyday words (the module's docstring)."""
    if s.j - s.i == 1 and _opens_as_verb(doc, s.i):
        return True
    if s.type in NOUN_TYPES and _frequent_verb(doc, s.i) and not _listed_whole(lex, doc, s):
        return True  # «وقد طالب السكان»; but «وقال: شبه الجزيرة العربية» is a listed name
    if s.j - s.i == 1 and s.type == "CARDINAL" and _identifying_number(lex, doc, s, spans):
        return True  # «البناية رقم 14», «الشقة 9», a telephone number: they count nothing
    if s.j - s.i == 1 and s.type == "DATE" and s.i > 0 and lex.heads(doc.keys[s.i - 1]) & PRAYER_HEADS:
        return True  # «صلاة الجمعة» "the Friday prayer": a prayer, not a date
    if s.j - s.i == 1 and s.type == "ORDINAL" and _beginning_of_a_span(lex, doc, s.i):
        return True  # «في أول الشهر» "at the start of the month"
    if s.j - s.i == 2 and s.type in ("ORG", "FAC") and doc.keys[s.i + 1] in GENERIC_PLACES:
        return True  # «مكتبة المدرسة» "the school's library": a part of a place no name names
    if s.type in ("ORG", "FAC", "EVENT") and _generic_service(lex, doc, s, spans):
        return True  # «مكتب البريد» "the post office", «المركز التجاري» "the shopping centre"
    if s.j - s.i == 1 and s.type in PLACE_TYPES and _place_as_a_thing(lex, doc, s, spans):
        return True  # «الخرطوم الأخضر» "the green hose", «قشر ليمونة واحدة» "one lemon's peel"
    if s.j - s.i == 1 and s.type in PLACE_TYPES and _place_in_construct(lex, doc, s, spans):
        return True  # «بحجة قلة الميزانية» "on the pretext of", «قطر الطاولة» "the table's diameter"
    if s.type in NAME_TYPES and s.i > 0 and _after_a_verb_particle(lex, doc, s.i):
        return True  # «إذا دار العقرب الطويل» "when the long hand turned": a verb, whatever the tagger says
    if s.type in NAME_TYPES and any(_frequent_present_verb(doc, x) for x in range(s.i + 1, s.j)):
        return True  # «كل يوم تحمي القلب»: a clause, not an event
    if s.type == "EVENT" and s.i > 0 and doc.plain_key(s.i - 1) in EVERY_WORD:
        return True  # «كل يوم الحجة نفسها» "every day the same excuse": a span of time, not an event
    if s.type == "EVENT" and _verb_after_the_head(lex, doc, s, spans):
        return True  # «ذات يوم سقطت الجرة» "one day the jar fell", «في سباق أقيم»: a clause after the head
    if s.j - s.i == 1 and s.type == "NORP" and (_no_nisba(lex, doc, s.i) or _nisba_as_a_noun(doc, s, spans)):
        return True
    if s.j - s.i == 1 and s.type in PLACE_TYPES and _common_word_not_a_place(doc, s.i):
        return True  # «قرية تحت جبل» "under", «ورثها عن جده» "his grandfather": no place
    if s.j - s.i == 1 and s.type in ("LOC", "ORG") and _subject_read_as_common_word(lex, doc, s, spans):
        return True  # «الجزيرة أرض يحيط بها الماء» "an island", «، والخليج جزء من البحر» "a gulf"
    if s.j - s.i == 1 and s.type == "GPE" and _indefinite_accusative(lex, doc, s, spans):
        return True  # «شربت كوبا من الشاي» "a cup", «أشعلوا نارا» "a fire"; «وصل إلى كوبا» stays
    if s.j - s.i == 1 and s.type == "GPE" and _town_read_as_verb(lex, doc, s, spans):
        return True  # «جدول ينبع من بين الصخر» "a brook that springs"
    if s.j - s.i == 1 and s.type == "GPE" and _town_as_common_word(lex, doc, s, spans):
        return True  # «أي حائل» "any obstacle", «الحواس الخمس» "the five senses"; but «في حلب», «مدينة حمص»
    if s.j - s.i == 1 and s.type == "OCC" and (_not_a_post(doc, s.i) or _plural_of_post(doc, s.i)):
        return True
    return False


def _person_in_context(lex: Lexicon, doc: Reading, s: Span) -> Span | None:
    """A person's span as morphology in context reads it: None for everyday words, or its first words where a word
    cannot continue a name (the module's docstring)."""
    if s.j - s.i == 1 and (doc.read_as(s.i, FUNCTION_POS) or _frequent_verb_no_name(lex, doc, s.i)):
        return None  # «فحكم المعلم بينهما», «دخلت على الطبيبة وقلت»: not even a title makes them names
    if _plain_function_word(lex, doc, s.i):
        return None  # «كتبت المعلمة تحت الموضوع» "under the essay": no name opens on a function word
    if s.j - s.i <= 2 and _noun_and_its_adjective(doc, s.i):
        return None  # «أعطتني الموظفة موعدا قريبا» "a close appointment", even after a post
    if s.j - s.i <= 2 and s.i + 1 < doc.n and _quality_noun(lex, doc, s.i + 1):
        return None  # «سعيد الحظ» "lucky", «من حسن حظي» "luckily for me": a quality, no name
    if _coordinated_definite_noun(lex, doc, s.i) or (s.j - s.i == 1 and _from_one_to_the_next(doc, s.i)):
        return None  # «الموظف والعامل والتلميذ», «والمعمول الطازج», «من زهرة إلى زهرة» "from flower to flower"
    if _common_noun_with_clitic(lex, doc, s.i, rare=s.j - s.i == 1):
        return None  # «ينتظر زوجها راتبه», «الحارس بعصا»; «قاضي التحقيق بتهمة اختلاس» (بتهمة is frequent)
    if s.j - s.i > 1 and s.i not in doc.anchors and _opens_no_name(lex, doc, s.i):
        return None
    if doc.keys[s.i] in FRACTION_WORDS:
        return None  # «تسمى نصف القطر» "the radius": no name opens on a fraction, even after a verb of naming
    if _plain_common_noun(lex, doc, s.i) and (s.j - s.i == 1 or doc.read_common(s.i + 1)):
        return None  # «المدير رجل عادل», «الحارس بطل المباراة»: no name opens on رجل, even after a post
    if s.j - s.i == 2 and s.i not in doc.anchors and _two_common_words(lex, doc, s.i):
        return None  # «جمال القصص» "the beauty of stories"
    if s.j - s.i > 1 and s.i not in doc.anchors and _everyday_words_alone(lex, doc, s):
        return None  # «دخل نور الصباح» "the morning light", «أعجبني جمال الحديقة», «حياة بسيطة»
    if s.i not in doc.anchors and _qualify_the_noun_before(lex, doc, s):
        return None  # «هذا رجل كريم أمين»: adjectives of the man, no name
    cut = next((x for x in range(s.i + 1, s.j) if _ends_a_name(lex, doc, x)), s.j)
    # what a cut before و leaves of an everyday word is the word (سليم والحمد), and so is an everyday noun before a
    # possessed noun, its construct («أعجبني وفاء جماهيركم» "your fans' loyalty"); an adjective there is a subject
    # before its object («رفع صابر يده»), as before a verb («سعيد يخرج»)
    cut_to_the_word = cut < s.j and (
        doc.keys[cut].startswith("و") or (_possessed_noun(doc, cut) and doc.keys[s.i].lstrip("و") in lex.everyday_nouns)
    )
    if cut < s.j:
        s = Span(s.type, s.i, cut, s.rank)
        if s.j - s.i == 1 and (
            doc.read_as(s.i, FUNCTION_POS)
            or _common_noun_with_clitic(lex, doc, s.i)
            or _frequent_verb_no_name(lex, doc, s.i)
        ):
            return None  # «أستاذة اللغة الفرنسية حين دخلت»: what the cut leaves is "when"; «العامل راتبه وعاد»
    if s.j - s.i == 1 and s.i not in doc.anchors and _not_a_name_alone(lex, doc, s.i):
        return None
    if s.j - s.i == 1 and (
        _noun_and_its_adjective(doc, s.i) or _after_negation(doc, s.i) or _adverb_accusative(lex, doc, s.i)
    ):
        return None  # «ستجدون حلا مناسبا» "a suitable solution", «غير صالح للمشي» "not fit", «فورا» "at once"
    if cut_to_the_word and s.j - s.i == 1 and s.i not in doc.anchors and lex.is_everyday(doc.keys[s.i]):
        return None
    return s


def _listed_whole(lex: Lexicon, doc: Reading, s: Span) -> bool:
    """A list holds the span's words as one name of several words (شبه الجزيرة العربية)."""
    match = lex.gaz_match(list(doc.keys), s.i) if s.j - s.i > 1 else None
    return match is not None and match[0] == s.j


def _inside_idioms(lex: Lexicon, doc: Reading) -> frozenset[int]:
    """The tokens of every everyday phrase (cues `name_idiom`) in the text; its first word may carry a clitic."""
    inside: set[int] = set()
    keys = doc.keys
    for x in range(1, doc.n):
        for phrase in IDIOMS_BY_SECOND_WORD.get(keys[x], ()):
            size = len(phrase)
            if tuple(keys[x : x - 1 + size]) == phrase[1:] and phrase[0] in lex.heads(keys[x - 1]):
                inside.update(range(x - 1, x - 1 + size))
    return frozenset(inside)


def _generic_service(lex: Lexicon, doc: Reading, s: Span, spans: list[Span]) -> bool:
    """The span is a head and a generic qualifier (cues `generic_qualifier`: المركز التجاري, البنك القريب), or a
    local service's head (cues `service_head`: مكتب, مستشفى, محطة) and what kind it is: an indefinite qualifier,
    whatever follows (ملعب صغير للأطفال), or a frequent common noun no rule found as a name, no nisba and no ideal
    (cues `ideal_noun`: مستشفى العودة), alone or before a purpose (مكتب البريد, مستشفى الأطفال)."""
    i = s.i
    if s.j - i < 2:
        return False
    k = doc.keys[i + 1]
    if s.j - i == 2 and k.startswith("ال") and k in GENERIC_QUALIFIERS:
        return True
    if not any(strip_article(st) in SERVICE_HEADS for st, _p in lex.stems(doc.keys[i])):
        return False
    if k in GENERIC_QUALIFIERS:
        return True
    if k in IDEAL_NOUNS or not frequent_common_noun(doc, i + 1) or k.endswith(("ي", "يه")):
        return False  # مستشفى العودة: an ideal names it; النادي الأهلي: a nisba
    return s.j - i == 2 or _purpose_after(lex, doc, s, spans)


def _purpose_after(lex: Lexicon, doc: Reading, s: Span, spans: list[Span]) -> bool:
    """The span's words after its first two open on ل and hold no other entity: a purpose, not a name's part
    («مكتب البريد لإرسال الرسالة»; «مركز الملك سلمان للإغاثة» holds a person)."""
    k = doc.keys[s.i + 2]
    return any(p and "ل" in k[:p] for _st, p in lex.stems(k)) and not any(
        o is not s and s.i + 1 <= o.i < s.j for o in spans
    )


def _identifying_number(lex: Lexicon, doc: Reading, s: Span, spans: list[Span]) -> bool:
    """Digits that name rather than count: after a label (cues `number_label`: رقم, الشقة, المقاس), inside no
    other entity, a telephone number (eight digits or more, the first 0) or an IP address."""
    text = doc.toks[s.i].text
    if text.count(".") >= 3:
        return True  # 192.168.1.1, an address
    if not text.isdigit():
        return False
    if len(text) >= 8 and text.startswith("0"):
        return True
    return s.i > 0 and bool(lex.heads(doc.keys[s.i - 1]) & NUMBER_LABELS) and not _held_by_another(s, spans, s.i)


def _place_as_a_thing(lex: Lexicon, doc: Reading, s: Span, spans: list[Span]) -> bool:
    """A one-word place that morphology reads as a common word, followed by a colour or by «one» (cues `colour`,
    `lone_one`): a thing, not the town (الخرطوم الأخضر, ليمونة واحدة); a city's colour is a word of its name. A
    colour itself (الأبيض, a town in Sudan) is a place only in a place's context («لبست الأبيض» "I wore white")."""
    i = s.i
    if not reads_as_common_word(lex, doc, i):
        return False
    if doc.keys[i] in COLOURS:  # «بلدية الزرقاء», «البيت الأبيض» hold it: a name
        return not _held_by_another(s, spans, i) and not _place_context(lex, doc, s, spans)
    return i + 1 < doc.n and doc.keys[i + 1] in THING_AFTER


def _place_in_construct(lex: Lexicon, doc: Reading, s: Span, spans: list[Span]) -> bool:
    """A one-word place that morphology reads as a common noun, opening a sentence or right after a preposition
    (on it or before it), before a frequent definite common noun inside no entity and no place's head (or an
    indefinite one in construct with a definite word): the first term of a construct, a thing, since a town takes
    no genitive («بحجة قلة الميزانية» "on the pretext of", «قطر الطاولة» "the table's diameter"). After a verb
    the noun may be its subject («زارت حلب الوزيرة»), and a date or a name after the place is an entity of its
    own («في غزة الأسبوع الماضي»)."""
    i = s.i
    k = doc.keys[i]
    word = _common_noun(doc, i, FREQUENT)
    if word is None or i + 1 >= doc.n or not any(strip_article(st) == word.lemma for st, _p in lex.stems(k)):
        return False  # the noun read is the whole word, a clitic aside (بحجة is ب + حجة)
    framed = (
        word.opens_sentence
        or i == 0
        or doc.toks[i - 1].kind != "word"
        or doc.read_as(i - 1, frozenset({"prep"}))
        or _preposition_on_a_place(lex, k)
    )
    if not framed:
        return False
    after = _common_noun(doc, i + 1, FREQUENT)
    if after is None or any(o.i <= i + 1 < o.j for o in spans) or lex.heads(doc.keys[i + 1]) & PLACE_HEADS:
        return False
    if doc.keys[i + 1].startswith("ال"):
        return True
    return (  # «بحجة قلة الميزانية»; but «في مسقط بمئوية الموسيقار»: a preposition opens a phrase of its own
        len(lex.stems(doc.keys[i + 1])) == 1
        and i + 2 < doc.n
        and doc.keys[i + 2].startswith("ال")
        and doc.read_as(i + 2, frozenset({"noun"}))
    )


def _preposition_on_a_place(lex: Lexicon, k: str) -> bool:
    """The key is ب or ل on a listed place (بحجة), not a place that starts with the letter (بغداد, لندن)."""
    stems = lex.stems(k)
    if any(p == 0 and lex.gaz.get(st) for st, p in stems):
        return False
    return any(p and ("ب" in k[:p] or "ل" in k[:p]) and lex.gaz.get(st) for st, p in stems)


def _held_by_another(s: Span, spans: list[Span], x: int) -> bool:
    """Another entity than s holds token x (مستشفى كسلا holds كسلا; مهرجان كان holds كان)."""
    return any(o is not s and o.i <= x < o.j for o in spans)


def _elative(lemma: str) -> bool:
    """The lemma is on the pattern أفعل (an elative or a colour: أجمل, أريح), which takes no tanween."""
    return len(lemma) == 4 and lemma[0] == "ا"


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
        if word.lemma in KIN_LEMMAS:  # جدي, لجدي "for my grandfather", جده: a kinship noun and its owner
            mine = any(st.endswith("ي") and st[:-1] == word.lemma for st, _p in lex.stems(doc.keys[i]))
            return mine or _has_possessive(bare(doc.toks[i].text), word.lemma)
        # «يطرق بابي» "my door": a frequent noun and "my", where the noun is no place (مصري is no "my Egypt")
        return (
            k.endswith("ي")
            and k[:-1] == word.lemma
            and word.lemma_frequency >= FREQUENT
            and lex.gaz_match([word.lemma], 0) is None
            and lex.gaz_match(["ال" + word.lemma], 0) is None
        )
    return word.pos == "adj" and k.endswith(("ي", "يه")) and not word.lemma.endswith("ي")


def _nisba_as_a_noun(doc: Reading, s: Span, spans: list[Span]) -> bool:
    """A definite feminine nisba right after a preposition or a verb that is no entity's word, and before no
    entity: it qualifies no noun, so it is a noun of its own (the tray: «في الصينية», «وأدخل الصينية الفرن»), not
    a people («مدينة نيس الفرنسية», «مع الإيطالية كيارا روسي» stay)."""
    i = s.i
    k = doc.keys[i].lstrip("وف")
    return (
        i > 0
        and k.startswith("ال")
        and k.endswith("يه")
        and doc.read_as(i, frozenset({"adj", "noun"}))
        and doc.read_as(i - 1, AFTER_NO_NOUN)
        and not any(o.i <= i - 1 < o.j or o.i == i + 1 for o in spans)
    )


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
    """Token i is a frequent noun's indefinite accusative: the lemma and alif (حل → حلا, فور → فورا; موعدا, which
    morphology may read as an adjective)."""
    word = doc.context[i]
    return (
        word is not None
        and word.common
        and word.pos in ("noun", "adj")
        and word.lemma_frequency >= FREQUENT
        and key(bare(doc.toks[i].text)) == word.lemma + "ا"
    )


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


def _everyday_words_alone(lex: Lexicon, doc: Reading, s: Span) -> bool:
    """A name of several words with no evidence before it that opens on an everyday word (data/everyday.txt: نور,
    جمال, حياة) and holds only everyday words, or, of two words that no list holds as one name (نور الدين), goes on
    with a frequent definite common noun that no list knows as a name part and no nisba: the common words (نور
    الصباح "the morning light", جمال الحديقة "the garden's beauty", حياة بسيطة "a simple life")."""
    words = [doc.keys[x].lstrip("و") for x in range(s.i, s.j)]
    if not lex.is_everyday(words[0]):
        return False
    if all(lex.is_everyday(w) for w in words):
        return True
    second = words[1]
    return (
        s.j - s.i == 2
        and lex.name_at(list(doc.keys), s.i) < s.i + 2
        and second.startswith("ال")
        and not second.endswith("ي")
        and second not in lex.name_part
        and _common_noun(doc, s.i + 1, FREQUENT) is not None
    )


def _quality_noun(lex: Lexicon, doc: Reading, x: int) -> bool:
    """Token x is a noun of a quality (cues `quality_noun`), with the article or a possessive pronoun: الحظ,
    حظي, سيرته."""
    for st, _p in lex.stems(doc.keys[x]):
        base = st[2:] if st.startswith("ال") else st  # strip_article keeps a short word's letters: الحظ
        if base in QUALITY_NOUNS:
            return True
        for suffix in OWNER_SUFFIXES:
            stem = base[: -len(suffix)]
            if base.endswith(suffix) and (stem in QUALITY_NOUNS or stem[:-1] + "ه" in QUALITY_NOUNS):
                return True
    return False


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
    if k.startswith(("بال", "لل", "كال")) and word.pos == "noun" and word.frequency > 0:
        return True  # «منير بالشمس» "sunny", «للمعلم»: a preposition and the article open a phrase of their own
    if word.pos == "noun" and _clitic_and_possessive(lex, doc, x):
        return True  # «قال سعيد لأمه» "to his mother"
    if k in DAY_PARTS or k in TIME_OF_DAY:
        return True  # «وصلنا بشري مساء» "in the evening": a time, no name part
    if _common_noun_with_clitic(lex, doc, x, rare=False):
        return True  # «قالت زهرة بخجل» "shyly", «تقدم أبو صالح بحذر»
    if word.pos == "adj" and _elative(word.lemma) and word.lemma_frequency >= FREQUENT:
        return True  # «سمير أنشط من أخيه» "more active": an elative, no name part (أكرم, أنور are listed)
    if word.pos in FUNCTION_POS and word.lemma_frequency >= VERY_FREQUENT_FUNCTION:
        return True  # «فورا إذا», «وأنور منه»: a name holds no particle or preposition
    if word.pos == "verb":
        if k[:1] == "ل" and k[1:2] in PRESENT_PREFIXES + "ا":
            return True  # «حسام لأخبره» "to tell him": ل and a present verb, no name part (سيلفا may read as one)
        if k.lstrip("وف")[:1] in PRESENT_PREFIXES:
            return word.lemma_frequency >= FREQUENT
        return word.lemma_frequency >= FREQUENT_PAST_VERB  # ناصر صار
    if (
        word.pos == "noun"
        and _in_construct(lex, doc, x)
        and (word.lemma_frequency >= VERY_COMMON or (lex.is_everyday(k) and word.lemma_frequency >= FREQUENT))
    ):
        return True  # «أرسل رامي صور الرحلة» "the trip's pictures"
    if word.pos in ("noun", "adj"):
        return _has_possessive(bare(doc.toks[x].text), word.lemma)
    return False


def _clitic_and_possessive(lex: Lexicon, doc: Reading, x: int) -> bool:
    """Token x is a preposition on a frequent noun with its possessive pronoun (لأمه, بيده): no name part."""
    word = doc.context[x]
    k = doc.keys[x]
    written = bare(doc.toks[x].text)  # ة as written: no pronoun
    return (
        word is not None
        and word.lemma_frequency >= FREQUENT
        and any(
            p and k[:p] in ("ب", "ل", "ك", "وب", "ول", "فب", "فل") and _has_possessive(written[p:], word.lemma)
            for _st, p in lex.stems(k)
        )
    )


def _possessed_noun(doc: Reading, x: int) -> bool:
    """Token x reads as a noun or an adjective with a possessive pronoun (جماهيركم, عمله)."""
    word = doc.context[x]
    return (
        word is not None
        and word.common
        and word.pos in ("noun", "adj")
        and _has_possessive(bare(doc.toks[x].text), word.lemma)
    )


def _in_construct(lex: Lexicon, doc: Reading, x: int) -> bool:
    """Token x, indefinite and opening no listed name, comes before a definite common noun that no list knows as a
    name part: the head of a construct, a phrase of its own (حنادي الحمد ends on the definite word). Only a very
    common noun or an everyday word (data/everyday.txt) is taken so: a family name may come before a verb's object
    («يتقن عمر هلال اللغتين»)."""
    if x + 1 >= doc.n or doc.keys[x].startswith(("ال", "وال")) or lex.name_at(list(doc.keys), x) > x + 1:
        return False  # عبد السلام: a listed name of two words
    after = doc.keys[x + 1]
    return (
        after.startswith("ال")
        and after not in lex.name_part
        and not after.endswith("ي")
        and _common_noun(doc, x + 1, FREQUENT) is not None
    )


def _beginning_of_a_span(lex: Lexicon, doc: Reading, i: int) -> bool:
    """Token i is «أول» (a clitic allowed) right before a noun of a span (cues `span_noun`): its beginning."""
    return i + 1 < doc.n and doc.keys[i + 1] in SPAN_NOUNS and any(st == "اول" for st, _p in lex.stems(doc.keys[i]))


def _after_a_verb_particle(lex: Lexicon, doc: Reading, i: int) -> bool:
    """Token i comes right after a particle that only a verb follows (cues `verb_particle`: لم, لن, قد, سوف, إذا)."""
    return any(st in VERB_PARTICLES for st, _p in lex.stems(doc.plain_key(i - 1)))


def _frequent_verb(doc: Reading, i: int) -> bool:
    word = doc.context[i]
    return word is not None and word.common and word.pos == "verb" and word.lemma_frequency >= FREQUENT


def _frequent_verb_no_name(lex: Lexicon, doc: Reading, i: int) -> bool:
    """Token i reads as a verb frequent enough for a past one (`FREQUENT_PAST_VERB`) and no list knows it as a name
    part: «وقلت» "and I said" after a post is no name."""
    word = doc.context[i]
    return (
        word is not None
        and word.common
        and word.pos == "verb"
        and word.lemma_frequency >= FREQUENT_PAST_VERB
        and doc.keys[i] not in lex.name_part
    )


def _verb_after_the_head(lex: Lexicon, doc: Reading, s: Span, spans: list[Span]) -> bool:
    """The span's second word reads as a frequent verb that no list knows as a name or a place, that no other entity
    holds and that no nisba follows (مهرجان كان السينمائي holds the town كان)."""
    x = s.i + 1
    return (
        x < s.j
        and _frequent_verb_no_name(lex, doc, x)
        and not lex.gaz.get(doc.keys[x])
        and not _held_by_another(s, spans, x)
        and not (x + 1 < s.j and doc.keys[x + 1].endswith("ي"))  # مهرجان كان السينمائي: a name's nisba
    )


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


def _plain_function_word(lex: Lexicon, doc: Reading, i: int) -> bool:
    """Token i reads as a frequent function word as written, no suffix (تحت, lemma 1,000 or more), that no list
    knows as a name part; بيني (Penny) is بين with a pronoun, so it may be a name."""
    word = doc.context[i]
    return (
        word is not None
        and word.common
        and word.pos in FUNCTION_POS
        and word.lemma_frequency >= VERY_COMMON
        and doc.keys[i] == word.lemma
        and doc.keys[i] not in lex.name_part
    )


def _plain_common_noun(lex: Lexicon, doc: Reading, i: int) -> bool:
    """Token i is a very common noun as written (its lemma 1,000 or more in the corpus, no clitic, no ending) that no
    list knows as a name part: رجل, بطل; a name after a post that no list holds is rarer, or read otherwise (وردة,
    نادين, مظفر; بيت هيغسيث goes on with a word no corpus knows), and أمل, نور, جمال are listed."""
    word = _common_noun(doc, i, VERY_COMMON)
    return (
        word is not None
        and doc.keys[i] == word.lemma
        and word.lemma not in KIN_LEMMAS  # أم ناصر, a kunya
        and doc.keys[i] not in lex.name_part
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


def _town_read_as_verb(lex: Lexicon, doc: Reading, s: Span, spans: list[Span]) -> bool:
    """A town (``Lexicon.towns``) that morphology reads as a frequent verb, inside no other entity and with no
    place around it: «جدول ينبع من بين الصخر» "a brook that springs"; news names towns as nouns, so morphology
    reads them as nouns there («شهدت غزة»)."""
    i = s.i
    word = doc.context[i]
    return (
        word is not None
        and word.common
        and word.pos == "verb"
        and word.lemma_frequency >= COMMON_FREQUENCY
        and _town_read_as_common_word(lex, doc, i)
        and not _held_by_another(s, spans, i)
        and not _place_context(lex, doc, s, spans)
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
    """A one-word place spelled as a common noun's or adjective's indefinite accusative (the word and alif: كوب →
    كوبا, نار → نارا, صبي → صبيا, كسل → كسلا "lazily") that morphology reads as that word, with no place around it;
    a country is never a nisba's accusative (روسيا, سوريا read as روسي, سوري + ا stay)."""
    word = doc.context[s.i]
    if word is None or not word.common or word.pos not in ("noun", "adj"):
        return False
    if word.frequency < ACCUSATIVE_FREQUENCY and not word.rooted:
        return False  # بخارا "as vapour" is a dictionary word however rare
    if word.pos == "adj" and _elative(word.lemma):
        return False  # an elative or a colour (أفعل) takes no tanween: أريحا is no "more comfortable"
    if _held_by_another(s, spans, s.i):
        return False  # «مستشفى كسلا التعليمي» holds it: a name
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
