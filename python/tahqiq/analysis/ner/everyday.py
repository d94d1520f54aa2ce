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
- Round five: an indefinite construct (شركة تنظيف معروفة), a noun after كل, a day of an activity (يوم العرض), شركة
  and one definite word (شركة النقل), a head that names no place (أي مدينة, جهة أخرى), a post that is an adjective
  (الشارع الرئيس), a fraction (خمس مصروفك, الخمس), a possessed first word (قاعه), a place before an agreeing
  indefinite adjective (بتربة خصبة) and a counted day (صباح اليوم الرابع) name nothing (``everyday_places``).
- Round six: a town whose word is a thing's needs a place's context (cues `word_town`: تشد الرباط), a line's list
  label counts nothing (1- …), a word quoted after كلمة is a form talked about (كلمة «مسؤول») and a post or place
  that is all of a quotation a name given («الزعيم», a bird), a nisba's letters before a definite noun are a noun
  (بصينية الفول), a kinship noun with "my" is no people (جدي), دورة and ألعاب of common words are no events
  (الألعاب الإلكترونية); a person ends before a preposition of place or a kinship noun with its pronoun (سلمى قرب,
  سعيد أخاه) and is none for a plural in its frame (خمسة أسماء), عمر "age" in construct (عمر البطارية), a noun and
  its adjective (محفظة جلدية), two surely common nouns (قطعة حلوى), a noun before a plant (زهرة الياسمين), a
  definite adjective of the noun before (الجار الطيب) or a word opening on كل (لكل فقرة).
- Round seven: a person is none as a predicate (وكان ابنه سعيدا, الولد سعيد بهديته), a plural after a preposition's
  noun (على العصافير أسماء), a plant's kind (شجيرة ياسمين), what a picture shows (رسم زهرة), a word after كل or بعض
  (كل مالك), or a verb with و or ف and its object (فأعطاها); a name ends before a noun its adjective or a possessed
  noun follows (محمود رجل طيب); a post after "his name is" is a name given (اسمه الأمير); degrees in an exam are
  marks (لكل سؤال خمس وعشرون درجة); the everyday trades are added as posts (``everyday_trades``). The rules for the
  other types are in ``everyday_places`` and ``everyday_towns``.
"""

from __future__ import annotations

from tahqiq.analysis.ner.cues import (
    ADJECTIVE_NEGATION,
    BEING_VERBS,
    CLAUSE_OPENERS,
    CONSTRUCT_NAMES,
    DAY_PARTS,
    DEGREE_UNITS,
    EVERY_WORD,
    FRACTION_WORDS,
    HEAT_NOUNS,
    IS_CALLED,
    KIN_LEMMAS,
    KIN_MINE,
    MARK_NOUNS,
    MARKS_NAMED,
    NAME_GIVEN,
    NAME_LINKS,
    NOT_NAME_PARTS,
    OTHER_ONE,
    PICTURE_NOUNS,
    PLACE_PREPOSITIONS,
    PLANT_HEADS,
    QUALITY_NOUNS,
    QUANTIFIERS,
    REGNAL,
    SPATIAL_ADVERBS,
    TIME_OF_DAY,
    WORD_NOUNS,
)
from tahqiq.analysis.ner.everyday_places import inside_idioms, not_a_name_in_context
from tahqiq.analysis.ner.everyday_trades import everyday_trades
from tahqiq.analysis.ner.in_context import (
    FREQUENT,
    FREQUENT_PAST_VERB,
    OWNER_SUFFIXES,
    PRESENT_PREFIXES,
    PRONOUN_SUFFIXES,
    SURELY_COMMON,
    VERY_COMMON,
    common_noun,
    elative,
    frequent_verb_no_name,
    has_possessive,
    kin_with_pronoun,
)
from tahqiq.analysis.ner.layers.listed import COMMON_FREQUENCY
from tahqiq.analysis.ner.lexicon import Lexicon
from tahqiq.analysis.ner.reading import FUNCTION_POS, NOT_NAME_POS, Reading, Span, WordInContext
from tahqiq.arabic.clitics import strip_article
from tahqiq.arabic.keys import bare, key

NOUN = frozenset({"noun"})
GOVERNS_A_NOUN = frozenset({"prep", "adv"})  # a preposition, or عند, لدى, which morphology reads as adverbs
# a function word this frequent ends a person's name (إذا 4,439, منه as من 134,899): names hold no particle; أمام
# (1,654) is left out, since إمام reads as it (أكرم إمام أوغلو)
VERY_FREQUENT_FUNCTION = 4000


def read_in_context(lex: Lexicon, doc: Reading, spans: list[Span]) -> list[Span]:
    """The resolved spans with the rules above applied (a cut person keeps its first words)."""
    in_idiom = inside_idioms(lex, doc)
    # «جوز الهند» "coconut", «أحمد الله»: inside an idiom; «كلمة «مسؤول»», «يسميه جدي «الزعيم»»: quoted, no name
    spans = [s for s in spans if s.i not in in_idiom and not _quoted_not_a_name(lex, doc, s)]
    spans = _marks_not_degrees(lex, doc, spans)
    out: list[Span] = []
    for s in spans:
        if s.type == "PERS":
            person = _person_in_context(lex, doc, s)
            if person is not None:
                out.append(person)
            if person is not None and person.j < s.j and _second_name_after_and(lex, doc, person.j):
                out.append(Span(s.type, person.j, person.j + 1, s.rank))  # «حضر محمد وأحمد»: two persons
        elif not not_a_name_in_context(lex, doc, s, spans):
            out.append(_post_without_an_object(lex, doc, s))
    return everyday_trades(lex, doc, out)


def _marks_not_degrees(lex: Lexicon, doc: Reading, spans: list[Span]) -> list[Span]:
    """A quantity in degrees (cues `degree_unit`: درجة, درجات) in a sentence about an exam (cues `mark_noun`: سؤال,
    مجموع, علامة; `marks_named`: توزيع الدرجات) and not about heat (cues `heat_noun`: حرارة on any word, فرن,
    مئوية) counts marks: the number is a CARDINAL and the degree no UNIT («لكل سؤال خمس وعشرون درجة», «(عشر
    درجات لكل سؤال)»), as the everyday headers decide; so do degrees in brackets after a question («اكتب ثلاث جمل
    (ست درجات)»). «يغلي الماء عند مئة درجة» stays a QUANTITY."""
    degrees = [s for s in spans if s.type == "QUANTITY" and s.j - s.i >= 2 and doc.keys[s.j - 1] in DEGREE_UNITS]
    if not degrees:
        return spans
    words = frozenset().union(*(lex.bare_heads(k) for k in doc.keys))
    if words & HEAT_NOUNS or any("حرار" in k for k in doc.keys):
        return spans
    if not words & MARK_NOUNS and not MARKS_NAMED.intersection(doc.keys):
        # «اكتب ثلاث جمل (ست درجات)»: a question's marks in brackets after it
        degrees = [s for s in degrees if _in_brackets(doc, s)]
        if not degrees:
            return spans
    inside = {(x, x + 1) for s in degrees for x in range(s.i, s.j)}
    counts = [Span("CARDINAL", s.i, s.j - 1, s.rank) for s in degrees]
    return [s for s in spans if s not in degrees and not (s.type == "UNIT" and (s.i, s.j) in inside)] + counts


def _in_brackets(doc: Reading, s: Span) -> bool:
    """The span is all that a pair of round brackets holds."""
    return 0 < s.i and s.j < doc.n and (doc.toks[s.i - 1].text, doc.toks[s.j].text) == ("(", ")")


QUOTED_NOT_NAMES = frozenset({"OCC", "GPE", "LOC", "NORP"})


def _quoted_not_a_name(lex: Lexicon, doc: Reading, s: Span) -> bool:
    """The span is all of a quotation, and either right after a noun for "word" (cues `word_noun`: كلمة, لفظ), a form
    talked about (همزة كلمة «مسؤول», معنى كلمة «سعيد»), or a post, place or people («الزعيم», «سكرة»); or it is a
    post, place or people right after "his name is" (cues `name_given`: هذا اسمه الأمير): a word used as a name, a
    pet's or a bird's (the everyday sets' headers: none), a nickname; never a post or a town in the gold of any set
    (a quoted newspaper or shop is the ORG after its head)."""
    i, j = s.i, s.j
    if i > 0 and s.type in QUOTED_NOT_NAMES and doc.plain_key(i - 1).lstrip("وف") in NAME_GIVEN:
        return True  # «هذا اسمه الأمير» "his name is Emir", a bird's: a name given, no post
    if i == 0 or j >= doc.n or doc.toks[i - 1].text != "«" or doc.toks[j].text != "»":
        return False
    return s.type in QUOTED_NOT_NAMES or (i >= 2 and bool(lex.heads(doc.keys[i - 2]) & WORD_NOUNS))


def _post_without_an_object(lex: Lexicon, doc: Reading, s: Span) -> Span:
    """A post with the article heads no construct (``complement``: وضع الطالب القلم), and the learned layer may
    still grow it over the definite noun after it: cut it there when morphology reads that noun as a common noun,
    no adjective, no participle and no nisba («شرح المعلم الدرس» "the teacher explained the lesson"; النائب
    السابق, المعلم المتقاعد stay)."""
    i = s.i
    if s.type != "OCC" or s.j - i < 2 or not doc.keys[i].startswith(("ال", "وال", "بال", "لل", "فال")):
        return s
    k = doc.keys[i + 1]
    word = doc.context[i + 1]
    if (
        k.startswith("ال")
        and k not in NOT_NAME_PARTS
        and not k.endswith(("ي", "يه"))
        and word is not None
        and word.common
        and word.pos == "noun"
        and word.lemma_frequency >= FREQUENT
        # a participle is an adjective however morphology tags it: السابق, المتقاعد (فاعل, مفعل and the like)
        and not (word.lemma[:1] == "م" or word.lemma[1:2] == "ا")
    ):
        return Span(s.type, i, i + 1, s.rank)
    return s


def _second_name_after_and(lex: Lexicon, doc: Reading, x: int) -> bool:
    """Token x, where a person's name was cut, is و and a listed first name that is no everyday word: a second
    person (محمد وأحمد), not the first's name part."""
    k = doc.keys[x]
    return k[:1] == "و" and k[1:] in lex.first and not lex.is_everyday(k[1:])


def _person_in_context(lex: Lexicon, doc: Reading, s: Span) -> Span | None:
    """A person's span as morphology in context reads it: None for everyday words, or its first words where a word
    cannot continue a name (the module's docstring)."""
    if s.j - s.i == 1 and (doc.read_as(s.i, FUNCTION_POS) or frequent_verb_no_name(lex, doc, s.i)):
        return None  # «فحكم المعلم بينهما», «دخلت على الطبيبة وقلت»: not even a title makes them names
    if _predicate_of_being(doc, s.i):
        return None  # «وكان ابنه سعيدا بقدومنا» "his son was happy": not even a kinship noun makes it a name
    if _conjunction_verb_and_object(doc, s.i):
        return None  # «الطبيب البيطري فأعطاها دواء» "and he gave her": not even a post makes it a name
    if any(st in QUANTIFIERS or st in EVERY_WORD for st, _p in lex.stems(doc.keys[s.i])):
        return None  # «اكتب الفكرة الرئيسة لكل فقرة» "for every paragraph": no name opens on كل, بعض, أي
    if s.i > 0 and (doc.plain_key(s.i - 1) in EVERY_WORD or doc.plain_key(s.i - 1) in QUANTIFIERS):
        return None  # «لا تصرفي كل مالك» "all your money": كل, بعض, أي take a noun, not a name
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
    if s.j - s.i == 1 and doc.read_as(s.i, NOUN) and _clitic_and_possessive(lex, doc, s.i):
        return None  # «هنأ الشعب الرئيس بفوزه» "on his win": a preposition, a noun and its pronoun
    if s.j - s.i > 1 and s.i not in doc.anchors and _opens_no_name(lex, doc, s.i):
        return None
    if s.j - s.i == 1 and _term_after_is_called(lex, doc, s.i):
        return None  # «المواد التي تسمح بمرور التيار تسمى موصلات» "are called conductors": a term, no name
    if doc.keys[s.i] in FRACTION_WORDS:
        return None  # «تسمى نصف القطر» "the radius": no name opens on a fraction, even after a verb of naming
    if _plain_common_noun(lex, doc, s.i) and (s.j - s.i == 1 or doc.read_common(s.i + 1)):
        return None  # «المدير رجل عادل», «الحارس بطل المباراة»: no name opens on رجل, even after a post
    if s.j - s.i == 1 and s.i > 0 and s.i not in doc.anchors and lex.heads(doc.keys[s.i - 1]) & PLANT_HEADS:
        return None  # «شجيرة ياسمين» "a jasmine bush", «غصن زيتون»: a plant's kind, no name
    if s.j - s.i == 1 and s.i not in doc.anchors and _what_a_picture_shows(doc, s.i):
        return None  # «الخانة التي عليها رسم زهرة» "a drawing of a flower"
    if s.j - s.i == 2 and _before_an_everyday_thing(lex, doc, s.i + 1):
        return None  # «تفتحت زهرة الياسمين» "the jasmine flower": a noun before a plant, no first and family name
    if s.j - s.i == 2 and _two_surely_common_nouns(lex, doc, s.i):
        return None  # «أعطى جميل أخته قطعة حلوى» "a piece of candy", even after "his sister"
    if s.j - s.i <= 2 and _described_noun(lex, doc, s.i):
        return None  # «وجد السائق محفظة جلدية» "a leather wallet", even after a post: a noun and its adjective
    if s.j - s.i <= 2 and s.i not in doc.anchors and _noun_in_construct_name(lex, doc, s.i):
        return None  # «إذا كان عمر البطارية أكثر من ثلاث سنوات» "the battery's life"
    if s.j - s.i <= 2 and _plural_in_its_frame(lex, doc, s):
        return None  # «خمسة أسماء مثناة» "five dual nouns", «أن أسماء بعض الأشهر» "that the names of some months"
    if s.j - s.i == 2 and s.i not in doc.anchors and _two_common_words(lex, doc, s.i):
        return None  # «جمال القصص» "the beauty of stories"
    if s.j - s.i > 1 and s.i not in doc.anchors and _everyday_words_alone(lex, doc, s):
        return None  # «دخل نور الصباح» "the morning light", «أعجبني جمال الحديقة», «حياة بسيطة»
    if s.i not in doc.anchors and _definite_adjective_of_the_noun_before(lex, doc, s.i):
        return None  # «الجار الطيب كنز» "the good neighbour is a treasure": الطيب qualifies الجار
    if s.i not in doc.anchors and _qualify_the_noun_before(lex, doc, s):
        return None  # «هذا رجل كريم أمين»: adjectives of the man, no name
    cut = next((x for x in range(s.i + 1, s.j) if _ends_a_name(lex, doc, x)), s.j)
    place = next((x for x in range(s.i + 1, cut) if _preposition_of_place(doc, x)), cut)
    # a preposition of place ends a name («جلست سلمى قرب النافذة»), unless what it leaves is one everyday word that
    # the words after it made a name («الحاجة آمنة قرب المسجد»): then the span stays as found
    if place - s.i > 1 or s.i in doc.anchors or not _not_a_name_alone(lex, doc, s.i):
        cut = place
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
            or frequent_verb_no_name(lex, doc, s.i)
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
    if s.j - s.i == 1 and s.i not in doc.anchors and _predicate_after_its_subject(lex, doc, s.i):
        return None  # «الولد سعيد بهديته» "the boy is happy with his gift"
    return s


def _what_a_picture_shows(doc: Reading, i: int) -> bool:
    """Token i ends its clause right after a picture's or a sign's noun as written (cues `picture_noun`: رسم, شكل,
    رمز) that morphology reads as a noun: what the picture shows, not a person («رسم سعيد لوحة» is a verb)."""
    return (
        i > 0
        and doc.plain_key(i - 1) in PICTURE_NOUNS
        and doc.read_as(i - 1, NOUN)
        and (i + 1 == doc.n or doc.toks[i + 1].kind != "word")
    )


def _predicate_after_its_subject(lex: Lexicon, doc: Reading, i: int) -> bool:
    """Token i, an everyday word that lists also hold as a name (سعيد, كريم), comes right after a definite common
    noun that no rule found as a post or a name and that opens its clause (a sentence's start, or after و or a
    comma): a nominal sentence's predicate, "the boy is happy", not the boy's name («قال المعلم سعيد» stays)."""
    if i == 0 or not lex.is_everyday(doc.keys[i]):
        return False
    k = doc.plain_key(i - 1)
    opens = i == 1 or doc.toks[i - 2].kind != "word" or k.startswith("و")
    return opens and k.lstrip("و").startswith("ال") and doc.read_as(i - 1, NOUN) and not doc.base_at.get(i - 1)


def _term_after_is_called(lex: Lexicon, doc: Reading, i: int) -> bool:
    """Token i comes right after «يسمى/تسمى» ("is called": cues `is_called`), is no listed name part and reads as a
    common word: the term a lesson names, not a person (a boy called ناصر stays: the lists know him)."""
    return i > 0 and doc.plain_key(i - 1) in IS_CALLED and doc.keys[i] not in lex.name_part and doc.read_common(i)


def _conjunction_verb_and_object(doc: Reading, i: int) -> bool:
    """Token i is و or ف, a verb and its object pronoun, as morphology reads it (فأعطاها, وسألهم): a clause, which
    no name opens; the verb's lemma must start otherwise than the conjunction, and a name ends in no pronoun
    (فراس, فيروز, وانغ read as verbs carry none)."""
    word = doc.context[i]
    k = doc.keys[i]
    return (
        word is not None
        and word.pos == "verb"
        and k[:1] in ("و", "ف")
        and not word.lemma.startswith(k[:1])
        and k.endswith(PRONOUN_SUFFIXES)
    )


def _predicate_of_being(doc: Reading, i: int) -> bool:
    """Token i reads as an adjective in its indefinite accusative (the lemma and alif: سعيدا, كريما) with a verb of
    being (cues `being_verb`: كان, أصبح, ظل) among the three words before it: the verb's predicate, "was happy",
    not a name in apposition to the noun before it («وكان ابنه سعيدا», «أصبح سعيدا»)."""
    word = doc.context[i]
    if word is None or not word.common or word.pos != "adj" or key(bare(doc.toks[i].text)) != word.lemma + "ا":
        return False
    return any(doc.plain_key(x).lstrip("وف") in BEING_VERBS for x in range(max(0, i - 3), i))


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
    with a frequent common noun that no list knows as a name part and no nisba: the common words (نور الصباح "the
    morning light", جمال الحديقة "the garden's beauty", حياة عائلة "a family's life")."""
    words = [doc.keys[x].lstrip("و") for x in range(s.i, s.j)]
    if not lex.is_everyday(words[0]):
        return False
    if all(lex.is_everyday(w) for w in words):
        return True
    second = words[1]
    return (
        s.j - s.i == 2
        and lex.name_at(doc.keys, s.i) < s.i + 2
        and not second.endswith("ي")
        and second not in lex.name_part
        and second not in FRACTION_WORDS  # «أكل حسن نصف البرتقالة»: the subject, then what he ate
        and (word := common_noun(doc, s.i + 1, FREQUENT)) is not None
        # definite, or the plain noun as written: «رفع صابر يده», «قال سعيد لأمه» are a subject and what follows it
        and (second.startswith("ال") or second == word.lemma)
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
    """Token i is و and a definite common noun, or a very common one (وأعضاء), that no list knows as a name part:
    the next item of a list («الموظف والعامل والتلميذ», «رئيس البلدية وأعضاء مجلسها»), not a name after the post
    before it."""
    k = doc.keys[i]
    if not k.startswith("و") or k[1:] in lex.name_part:
        return False
    if k.startswith("وال"):
        return common_noun(doc, i, COMMON_FREQUENCY) is not None
    after = doc.context[i + 1] if i + 1 < doc.n else None
    if after is None or not after.frequency:
        return False  # «الكاتب النيجيري وولي سوينكا»: a word no corpus knows after it, a foreign name
    return common_noun(doc, i, VERY_COMMON) is not None


def _from_one_to_the_next(doc: Reading, i: int) -> bool:
    """Token i is the word repeated in «من X إلى X» ("from flower to flower") or the first in «من X إلى أخرى» ("from
    one flower to another", cues `other_one`): a common noun, not a name."""
    key_at, k = doc.plain_key, doc.keys[i]
    to_the_next = i + 2 < doc.n and (doc.keys[i + 2] == k or doc.keys[i + 2] in OTHER_ONE)
    return (i > 0 and key_at(i - 1) == "من" and to_the_next and key_at(i + 1) == "الي") or (
        i > 2 and key_at(i - 1) == "الي" and key_at(i - 3) == "من" and doc.keys[i - 2] == k
    )


def _common_noun_with_clitic(lex: Lexicon, doc: Reading, i: int, *, rare: bool = True) -> bool:
    """Token i reads as a frequent or dictionary noun with a possessive pronoun (راتبه "his salary", كتابه,
    حاجبيها) or as a preposition on a frequent or dictionary noun (بالسيارة "by car", بصبر "patiently", بعصا "with a
    stick"), and no list knows it as a name part: no title or kinship noun before it makes it a name, nor the first
    word of one (there only a frequent noun: `rare` False; للطيب صالح, لسعد الدين العثماني hold listed names)."""
    word = doc.context[i]
    k = doc.keys[i]
    # a dictionary noun (a reading with a root) counts however rare, even one its corpus never counted
    if word is None or word.pos != "noun" or word.proper >= 0.5 or not (word.common or word.rooted):
        return False
    if any(st in lex.name_part or strip_article(st) in lex.name_part for st, _p in lex.stems(k)):
        return False
    if (word.lemma_frequency >= FREQUENT or word.rooted) and has_possessive(bare(doc.toks[i].text), word.lemma):
        return True  # a dual with its pronoun too: «رفعت المعلمة حاجبيها» "her eyebrows"
    dictionary_noun = word.common and (word.lemma_frequency >= FREQUENT or (rare and word.rooted))
    # a preposition on a dictionary noun (a reading with a root), however rare in the corpus: بعصا "with a stick"
    return dictionary_noun and any(
        p and any(c in k[:p] for c in "بلك") and strip_article(st) == word.lemma for st, p in lex.stems(k)
    )


SPELLED_IN_ALIF_MAQSURA = frozenset({key("على"), key("إلى"), key("لدى")})


def _preposition_of_place(doc: Reading, x: int) -> bool:
    """Token x reads as a function word and is a preposition of place (cues `spatial_adverb`, `place_preposition`:
    قرب, تحت, أمام), however rare, as written: not إمام, which folds to أمام, nor علي, which folds to على."""
    k = doc.keys[x]
    text = doc.toks[x].text
    return (
        doc.read_as(x, FUNCTION_POS)
        and (k in SPATIAL_ADVERBS or k in PLACE_PREPOSITIONS)
        and not text.startswith("إ")
        and not (text.endswith("ي") and k in SPELLED_IN_ALIF_MAQSURA)
    )


def _ends_a_name(lex: Lexicon, doc: Reading, x: int) -> bool:
    """Token x cannot continue a person's name (see the module's docstring)."""
    k = doc.keys[x]
    word = doc.context[x]
    if word is None or k in lex.name_part:
        return False
    if k in FRACTION_WORDS:
        return True  # «أكل حسن نصف البرتقالة»
    if kin_with_pronoun(k.lstrip("وف")):
        return True  # «نادى سعيد أخاه» "his brother", however morphology reads it: a name holds no kin and owner
    if k[:1] == "و" and (word.frequency > 0 or (word.rooted and word.pos == "noun" and word.proper < 0.5)):
        # «عملك نبيل وصعب», «سليم والحمد لله», «سلمي ومثقابي» "my ladder and my drill" (a dictionary noun): a name
        # part in و is listed whole (وهبة) or a word the lexicon's dictionary never saw (بيني وونغ)
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
    if word.pos == "adj" and elative(word.lemma) and word.lemma_frequency >= FREQUENT:
        return True  # «سمير أنشط من أخيه» "more active": an elative, no name part (أكرم, أنور are listed)
    if word.pos in FUNCTION_POS and word.lemma_frequency >= VERY_FREQUENT_FUNCTION:
        return True  # «فورا إذا», «وأنور منه»: a name holds no particle or preposition
    if k in CLAUSE_OPENERS:
        return True  # «كيف تصرف صالح حين قل الماء» "when", «تعلمت من أحمد كيف»: a clause opens, the name ends
    if word.pos == "verb":
        if k[:1] == "ل" and k[1:2] in PRESENT_PREFIXES + "ا":
            return True  # «حسام لأخبره» "to tell him": ل and a present verb, no name part (سيلفا may read as one)
        if k.lstrip("وف")[:1] in PRESENT_PREFIXES:
            # «أحمد يضحك», «صالح يسقي»: a present verb of the dictionary, its prefix first, after a listed first
            # name, however rare (not فون, فيردي: a conjunction read off a foreign name)
            listed_before = x > 0 and doc.keys[x - 1] in lex.first
            return word.lemma_frequency >= FREQUENT or (
                word.rooted and listed_before and k[:1] in PRESENT_PREFIXES and len(k) >= 4
            )
        return word.lemma_frequency >= FREQUENT_PAST_VERB  # ناصر صار
    if (
        word.pos == "noun"
        and _in_construct(lex, doc, x)
        and (word.lemma_frequency >= VERY_COMMON or (lex.is_everyday(k) and word.lemma_frequency >= FREQUENT))
    ):
        return True  # «أرسل رامي صور الرحلة» "the trip's pictures"
    if word.pos == "noun" and word.rooted and x + 1 < doc.n and _described_or_possessed_after(doc, x, word):
        return True  # «الحاج محمود رجل طيب» "a good man", «يسقي محمود نباتات حديقته» "his garden's plants"
    if word.pos in ("noun", "adj"):
        return has_possessive(bare(doc.toks[x].text), word.lemma)
    return False


def _described_or_possessed_after(doc: Reading, x: int, word: WordInContext) -> bool:
    """Token x, a dictionary noun without the article, surely no proper noun, no name link and not in ي, is a very
    common noun (1,000 or more) before an indefinite adjective (رجل طيب), or one seen 30 times or more before a noun
    with its possessive pronoun (نباتات حديقته): a phrase of its own, no name part."""
    k = doc.keys[x]
    if k.startswith("ال") or k in NAME_LINKS or k.endswith("ي") or word.proper >= SURELY_COMMON:
        return False  # محمد بن موسى: بن links a name; أشرف حكيمي: a family name in ي
    after = doc.context[x + 1]
    if after is None or not after.common or word.lemma_frequency < COMMON_FREQUENCY:
        return False
    if after.pos == "adj":
        return word.lemma_frequency >= VERY_COMMON and not doc.keys[x + 1].startswith("ال")
    return after.pos == "noun" and has_possessive(bare(doc.toks[x + 1].text), after.lemma)


def _clitic_and_possessive(lex: Lexicon, doc: Reading, x: int) -> bool:
    """Token x is a preposition on a frequent noun with its possessive pronoun (لأمه, بيده): no name part."""
    word = doc.context[x]
    k = doc.keys[x]
    written = bare(doc.toks[x].text)  # ة as written: no pronoun
    return (
        word is not None
        and word.lemma_frequency >= FREQUENT
        and any(
            p and k[:p] in ("ب", "ل", "ك", "وب", "ول", "فب", "فل") and has_possessive(written[p:], word.lemma)
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
        and has_possessive(bare(doc.toks[x].text), word.lemma)
    )


def _in_construct(lex: Lexicon, doc: Reading, x: int) -> bool:
    """Token x, indefinite and opening no listed name, comes before a definite common noun that no list knows as a
    name part: the head of a construct, a phrase of its own (حنادي الحمد ends on the definite word). Only a very
    common noun or an everyday word (data/everyday.txt) is taken so: a family name may come before a verb's object
    («يتقن عمر هلال اللغتين»)."""
    if x + 1 >= doc.n or doc.keys[x].startswith(("ال", "وال")) or lex.name_at(doc.keys, x) > x + 1:
        return False  # عبد السلام: a listed name of two words
    after = doc.keys[x + 1]
    return (
        after.startswith("ال")
        and after not in lex.name_part
        and not after.endswith("ي")
        and common_noun(doc, x + 1, FREQUENT) is not None
    )


def _noun_in_construct_name(lex: Lexicon, doc: Reading, i: int) -> bool:
    """Token i is a first name that is also a noun (cues `construct_name`: عمر "age, life") before a definite common
    noun (البطارية read as a noun, not a nisba) no list knows as a name part, not in ي, that opens no post or name of
    the rules, or before a kinship noun with its pronoun (عمر جدي "my grandfather's age"): the noun's construct."""
    if i + 1 >= doc.n or doc.keys[i].lstrip("وف") not in CONSTRUCT_NAMES:
        return False
    k = doc.keys[i + 1]
    if kin_with_pronoun(k, OWNER_SUFFIXES):
        return True  # «كم عمر ابنك؟»
    return (
        k.startswith("ال")
        and k not in lex.name_part
        and not k.endswith("ي")
        and doc.read_as(i + 1, NOUN)
        and not any(o.type in ("OCC", "PERS", "ORG", "GPE", "NORP") for o in doc.base_at.get(i + 1, []))
    )


def _plural_in_its_frame(lex: Lexicon, doc: Reading, s: Span) -> bool:
    """The span's first word reads as the broken plural of a frequent noun, surely no proper noun (أسماء "names",
    of اسم), after a preposition's definite noun (على العصافير أسماء, عند جدي أسماء: even after a kinship noun), or
    with no evidence before it after a number, before a quantifier (بعض, أي) or before an indefinite adjective no
    list knows as a name part (مثناة, كثيرة): the plural, not the name; «قالت أسماء» stays."""
    i = s.i
    word = doc.context[i]
    if (
        word is None
        or not word.common
        or word.pos != "noun"
        or word.proper >= SURELY_COMMON
        or word.lemma_frequency < FREQUENT
        or doc.keys[i] == word.lemma
    ):
        return False
    before = doc.context[i - 1] if i > 0 else None
    if (
        i >= 2
        and before is not None
        and before.common
        and before.pos == "noun"
        and _closes_a_prepositional_phrase(doc, i - 1)
    ):
        return True  # «أطلق جدي على العصافير أسماء» "gave the sparrows names": the object after its complement
    if i in doc.anchors:
        return False
    if (before is not None and before.pos == "num") or (i > 0 and doc.toks[i - 1].kind == "number"):
        return True
    if i + 1 >= doc.n:
        return False
    k = doc.keys[i + 1]
    after = doc.context[i + 1]
    return k in QUANTIFIERS or (
        after is not None
        and after.common
        and after.pos == "adj"
        and not k.startswith("ال")
        and k not in lex.name_part
        and not k.endswith(("ي", "يه"))
    )


def _closes_a_prepositional_phrase(doc: Reading, x: int) -> bool:
    """Token x is a definite noun governed by a preposition: on the word (بالعصافير, للطيور) or right before it
    (على العصافير, عند جدي: a kinship noun with "my", cues `kin_mine`)."""
    k = doc.plain_key(x)
    if k.startswith(("بال", "لل", "كال")):
        return True
    return (k.startswith("ال") or k in KIN_MINE) and x > 0 and doc.read_as(x - 1, GOVERNS_A_NOUN)


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


def _plain_word(lex: Lexicon, doc: Reading, i: int, pos: frozenset[str]) -> WordInContext | None:
    """How token i reads when morphology reads it, as written (no clitic, no ending: the key is the lemma), as a
    common word of one of the POS `pos` whose lemma is 1,000 or more in the corpus, and no list knows it as a name
    part."""
    word = doc.context[i]
    if (
        word is not None
        and word.common
        and word.pos in pos
        # a pronoun's lemma may go uncounted (هناك 0, as a word 1,235)
        and (word.frequency if word.pos in FUNCTION_POS else word.lemma_frequency) >= VERY_COMMON
        and doc.keys[i] == word.lemma
        and doc.keys[i] not in lex.name_part
    ):
        return word
    return None


def _plain_function_word(lex: Lexicon, doc: Reading, i: int) -> bool:
    """Token i is a plain frequent function word (تحت); بيني (Penny) is بين with a pronoun, so it may be a name."""
    return _plain_word(lex, doc, i, FUNCTION_POS) is not None


def _plain_common_noun(lex: Lexicon, doc: Reading, i: int) -> bool:
    """Token i is a plain very common noun (رجل, بطل), no kinship noun (أم ناصر is a kunya); a name after a post that
    no list holds is rarer, or read otherwise (وردة, نادين, مظفر; بيت هيغسيث goes on with a word no corpus knows),
    and أمل, نور, جمال are listed."""
    word = _plain_word(lex, doc, i, NOUN)
    return word is not None and word.lemma not in KIN_LEMMAS


def _before_an_everyday_thing(lex: Lexicon, doc: Reading, x: int) -> bool:
    """Token x is a definite everyday noun of data/everyday.txt (a plant, a fruit, a time of day: الياسمين,
    الزيتون, الصباح) that no list knows as a name part: it completes the noun before it, no family name."""
    k = doc.keys[x]
    return k.startswith("ال") and k in lex.everyday_nouns and k not in lex.name_part


def _surely_common_noun(doc: Reading, x: int) -> bool:
    """Morphology in context reads token x as a common noun the lexicon's corpus knows, surely no proper noun."""
    word = doc.context[x]
    return (
        word is not None
        and word.common
        and word.pos == "noun"
        and word.proper < SURELY_COMMON
        and word.lemma_frequency >= COMMON_FREQUENCY
    )


def _two_surely_common_nouns(lex: Lexicon, doc: Reading, i: int) -> bool:
    """Tokens i and i + 1 read as common nouns without the article, surely no proper nouns, that no list knows as
    name parts: an indefinite construct (قطعة حلوى "a piece of candy"), not a first and a family name."""
    return all(
        _surely_common_noun(doc, x) and not doc.keys[x].startswith("ال") and doc.keys[x] not in lex.name_part
        for x in (i, i + 1)
    )


def _described_noun(lex: Lexicon, doc: Reading, i: int) -> bool:
    """Token i reads as a common noun, surely no proper noun, and the next as an indefinite adjective no list knows
    as a name part, both ending in ة: a noun and its adjective («محفظة جلدية» "a leather wallet"), not a name and
    a family name."""
    if i + 1 >= doc.n:
        return False
    after = doc.context[i + 1]
    k = doc.keys[i + 1]
    return (
        _surely_common_noun(doc, i)
        and after is not None
        and after.common
        and after.pos == "adj"
        and not k.startswith("ال")
        and k not in lex.name_part
        and doc.toks[i].text.endswith("ة")
        and doc.toks[i + 1].text.endswith("ة")
    )


def _definite_adjective_of_the_noun_before(lex: Lexicon, doc: Reading, i: int) -> bool:
    """Token i, with the article, reads as an adjective right after a definite common noun that no entity holds:
    it qualifies that noun («الجار الطيب» "the good neighbour"); after a post it may be a name (الكاتب الطيب صالح:
    the post anchors it, so this is not asked)."""
    if i == 0 or not doc.keys[i].startswith("ال"):
        return False
    word, before = doc.context[i], doc.context[i - 1]
    return (
        word is not None
        and before is not None
        and word.common
        and word.pos == "adj"
        and word.proper < SURELY_COMMON
        and before.common
        and before.pos == "noun"
        and doc.keys[i - 1].lstrip("وف").startswith("ال")
        and not doc.base_at.get(i - 1)
    )


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
        and (before.lemma_frequency >= FREQUENT or before.rooted)  # حذاء صالح "a fit shoe": a dictionary noun
        and not k.startswith(("ال", "وال", "بال", "فال", "لل"))
        and not has_possessive(bare(doc.toks[i - 1].text), before.lemma)
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
    if word is not None and word.lemma_frequency >= FREQUENT and has_possessive(bare(doc.toks[i].text), word.lemma):
        return True
    return doc.keys[i].lstrip("و") not in lex.name_part
