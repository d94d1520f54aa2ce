"""What morphology in context says of entities other than persons (docs/design/ner.md, "Everyday words"): places,
facilities, organisations, posts, peoples, events and numbers that are everyday words. ``everyday.read_in_context``
applies `not_a_name_in_context` to every span but a person's; the module docstring of ``ner/everyday.py`` lists the
rules."""

from __future__ import annotations

from tahqiq.analysis.ner.cues import (
    BEING_VERBS,
    COLOURS,
    COMPANY_SERVICE_HEADS,
    DAY_HEAD,
    DAY_PARTS,
    DRINKS,
    EVERY_WORD,
    FRACTION_CARDINALS,
    FRACTION_WORDS,
    GENERIC_PLACES,
    GENERIC_QUALIFIERS,
    GPE_PREFIX,
    IDEAL_NOUNS,
    KIN_LEMMAS,
    KIN_MINE,
    LONE_ONE,
    NAME_IDIOMS,
    NAMED_DAYS,
    NUMBER_LABELS,
    OTHER_ONE,
    PART_HEADS,
    PLACE_HEADS,
    POST_ADJECTIVES,
    PRAY_VERBS,
    PRAYER_HEADS,
    PRAYER_TIMES,
    QUANTIFIERS,
    RESPONSIBLE,
    SERVICE_HEADS,
    SESSION_GAMES,
    SESSION_HEADS,
    SPAN_NOUNS,
    SPATIAL_ADVERBS,
    TIME_PREPOSITIONS,
    VERB_PARTICLES,
    WORD_NAMED_HEADS,
)
from tahqiq.analysis.ner.everyday_towns import (
    ACCUSATIVE_FREQUENCY,
    common_word_not_a_place,
    country_as_my_noun,
    indefinite_accusative,
    kin_of_mine,
    no_nisba,
    place_context,
    place_near,
    subject_read_as_common_word,
    town_as_common_word,
    town_read_as_verb,
    word_town,
)
from tahqiq.analysis.ner.in_context import (
    FREQUENT,
    common_noun,
    frequent_verb,
    frequent_verb_no_name,
    has_possessive,
    held_by_another,
)
from tahqiq.analysis.ner.layers.heads import frequent_common_noun
from tahqiq.analysis.ner.layers.listed import COMMON_FREQUENCY, reads_as_common_word
from tahqiq.analysis.ner.lexicon import Lexicon
from tahqiq.analysis.ner.reading import FUNCTION_POS, Reading, Span
from tahqiq.arabic.clitics import strip_article
from tahqiq.arabic.keys import bare, key

NOUN_TYPES = frozenset({"OCC", "ORG", "GPE", "LOC", "FAC"})  # names that are nouns: no verb reads as one
NAME_TYPES = NOUN_TYPES | {"EVENT"}
PLACE_TYPES = frozenset({"GPE", "LOC"})  # names that hold no present-tense verb inside
IDIOMS_BY_SECOND_WORD: dict[str, list[tuple[str, ...]]] = {}  # cues `name_idiom`, looked up by their second word
for _idiom in NAME_IDIOMS:
    IDIOMS_BY_SECOND_WORD.setdefault(_idiom[1], []).append(_idiom)
AFTER_NO_NOUN = frozenset({"prep", "verb"})  # readings no adjective follows as the word's qualifier
# words after which a one-word place read as a common word is a thing: a colour, «one», «other»
THING_AFTER = COLOURS | LONE_ONE | OTHER_ONE
CUP = key("كأس")  # a glass, or a trophy (``_cup_of_a_drink``)
THE_HOUSE = key("البيت")
ABOUT, TO = key("عن"), key("إلى")


def not_a_name_in_context(lex: Lexicon, doc: Reading, s: Span, spans: list[Span]) -> bool:
    """A span of any type but PERS that morphology in context says is everyday words (the module's docstring)."""
    if s.j - s.i == 1 and _opens_as_verb(doc, s.i):
        return True
    if s.type in NOUN_TYPES and frequent_verb(doc, s.i) and not _listed_whole(lex, doc, s):
        return True  # «وقد طالب السكان»; but «وقال: شبه الجزيرة العربية» is a listed name
    if s.type in NOUN_TYPES and _verb_in_alif_maqsura(doc, s.i):
        return True  # «نادى سعيد أخاه» "called": نادي "club" is written with ya
    if s.j - s.i == 1 and s.type == "CARDINAL" and _identifying_number(lex, doc, s, spans):
        return True  # «البناية رقم 14», «الشقة 9», a telephone number: they count nothing
    if s.j - s.i == 1 and s.type == "DATE" and s.i > 0 and lex.heads(doc.keys[s.i - 1]) & PRAYER_HEADS:
        return True  # «صلاة الجمعة» "the Friday prayer": a prayer, not a date
    if s.j - s.i == 1 and s.type == "CARDINAL" and _fraction_of_a_thing(doc, s.i):
        return True  # «خمس مصروفك» "a fifth of your allowance", «عشر وزن الطفل»: a fraction, not a count
    if s.type == "TIME" and _day_counted_after(doc, s, spans):
        return True  # «في صباح اليوم الرابع» "on the morning of the fourth day": a counted day, not today's
    if s.type in ("FAC", "ORG", "GPE", "LOC") and _possessed_first_word(doc, s.i):
        return True  # «في قاعه ثقوب» "its bottom has holes": a noun and its pronoun opens no name
    if s.j - s.i == 1 and s.type == "ORDINAL" and _beginning_of_a_span(lex, doc, s.i):
        return True  # «في أول الشهر» "at the start of the month"
    if s.j - s.i == 2 and s.type in ("ORG", "FAC") and doc.plain_key(s.i + 1) in SPATIAL_ADVERBS:
        return True  # «ساحة خلف مدرسة البنات» "a yard behind": a name goes on with no adverb of place
    if s.j - s.i == 2 and s.type in ("ORG", "FAC") and _part_of_a_generic_place(lex, doc, s.i):
        return True  # «مكتبة المدرسة» "the school's library", «ساحة البيت»: a part of a place no name names
    if s.j - s.i == 1 and s.type in ("ORG", "FAC") and _head_alone(lex, doc, s.i):
        return True  # «صلينا في المسجد» "in the mosque": a head with no name (البرلمان, listed alone, stays)
    if s.j - s.i > 1 and s.type in ("ORG", "FAC", "EVENT") and _possessed_complement(doc, s.i + 1):
        return True  # «صندوق أمي النحاسي» "my mother's copper box", «عيد ميلادها» "her birthday": no name
    if s.type in ("ORG", "FAC", "EVENT") and _generic_service(lex, doc, s, spans):
        return True  # «مكتب البريد» "the post office", «المركز التجاري» "the shopping centre"
    if s.type in PLACE_TYPES and _head_without_a_name(lex, doc, s):
        return True  # «في أي مدينة عمل» "in which city he worked", «من جهة أخرى» "on the other hand"
    if s.j - s.i == 1 and s.type in PLACE_TYPES and _place_as_a_thing(lex, doc, s, spans):
        return True  # «الخرطوم الأخضر» "the green hose", «قشر ليمونة واحدة» "one lemon's peel"
    if s.j - s.i == 1 and s.type in PLACE_TYPES and _prayer_time(lex, doc, s, spans):
        return True  # «عاد أبي بعد المغرب» "after sunset", «صلينا المغرب»: the prayer's time, not Morocco
    if s.j - s.i == 1 and s.type in PLACE_TYPES and s.i > 0 and doc.keys[s.i - 1] in FRACTION_WORDS:
        return True  # «اعصري عليها نصف ليمونة» "half a lemon": a fraction of a thing, no place
    if s.j - s.i == 1 and s.type in PLACE_TYPES and _number_word_place(lex, doc, s, spans):
        return True  # «أيهما أكبر، الثلث أم الخمس؟» "the fifth": a fraction, not the Libyan town
    if s.j - s.i == 1 and s.type in PLACE_TYPES and _place_in_construct(lex, doc, s, spans):
        return True  # «بحجة قلة الميزانية» "on the pretext of", «قطر الطاولة» "the table's diameter"
    if s.type in NAME_TYPES and s.i > 0 and _after_a_verb_particle(lex, doc, s.i):
        return True  # «إذا دار العقرب الطويل» "when the long hand turned": a verb, whatever the tagger says
    if s.type in NAME_TYPES and any(_frequent_present_verb(doc, x) for x in range(s.i + 1, s.j)):
        return True  # «كل يوم تحمي القلب»: a clause, not an event
    if s.type == "EVENT" and s.i > 0 and doc.plain_key(s.i - 1) in EVERY_WORD:
        return True  # «كل يوم الحجة نفسها» "every day the same excuse": a span of time, not an event
    if s.type in NAME_TYPES and _indefinite_after_every(doc, s):
        return True  # «وفي كل حديقة مقاعد» "in every garden, benches": كل before an indefinite noun is "every"
    if s.type in ("ORG", "FAC", "EVENT") and _indefinite_construct(lex, doc, s):
        return True  # «شركة تنظيف معروفة» "a well-known cleaning company", «محطة مترو جديدة» "a new metro station"
    if s.type == "EVENT" and _cycle_not_a_session(lex, doc, s, spans):
        return True  # «تستغرق الدورة العادية ساعة» "the normal cycle", «الألعاب الإلكترونية» "video games"
    if s.type == "EVENT" and _cup_of_a_drink(lex, doc, s):
        return True  # «يبدأ الاستقبال بكأس الشاي» "with a glass of tea", not a cup tournament
    if s.type == "EVENT" and _day_of_an_activity(lex, doc, s):
        return True  # «جاء يوم العرض» "the day of the show came": a day, not an event by its name
    if s.type == "EVENT" and _verb_after_the_head(lex, doc, s, spans):
        return True  # «ذات يوم سقطت الجرة» "one day the jar fell", «في سباق أقيم»: a clause after the head
    if s.j - s.i == 1 and s.type == "NORP" and (no_nisba(lex, doc, s.i) or _nisba_as_a_noun(doc, s, spans)):
        return True
    if s.j - s.i == 1 and s.type == "GPE" and country_as_my_noun(doc, s.i):
        return True  # «هذا المال ليس مالي» "my money"
    if s.j - s.i == 1 and s.type in PLACE_TYPES and kin_of_mine(lex, doc, s.i):
        return True  # «سافرنا إلى قرية جدتي» "my grandmother's village", «مدينة أمي»
    if s.j - s.i == 1 and s.type in PLACE_TYPES and common_word_not_a_place(doc, s.i):
        return True  # «قرية تحت جبل» "under", «ورثها عن جده» "his grandfather": no place
    if s.j - s.i == 1 and s.type in ("LOC", "ORG") and subject_read_as_common_word(lex, doc, s, spans):
        return True  # «الجزيرة أرض يحيط بها الماء» "an island", «، والخليج جزء من البحر» "a gulf"
    if s.j - s.i == 1 and s.type == "GPE" and indefinite_accusative(lex, doc, s, spans):
        return True  # «شربت كوبا من الشاي» "a cup", «أشعلوا نارا» "a fire"; «وصل إلى كوبا» stays
    if s.j - s.i == 1 and s.type == "GPE" and town_read_as_verb(lex, doc, s, spans):
        return True  # «جدول ينبع من بين الصخر» "a brook that springs"
    if s.j - s.i == 1 and s.type == "GPE" and word_town(lex, doc, s, spans):
        return True  # «لا تشد الرباط كثيرا» "the bandage", «أدخل الموصل في المقبس» "the plug"; «في الرباط» stays
    if s.j - s.i == 1 and s.type == "GPE" and town_as_common_word(lex, doc, s, spans):
        return True  # «أي حائل» "any obstacle", «الحواس الخمس» "the five senses"; but «في حلب», «مدينة حمص»
    if s.j - s.i == 1 and s.type == "OCC" and _responsible_for(lex, doc, s.i):
        return True  # «وأخي الصغير مسؤول عن ترتيب الأحذية» "is responsible for"
    if s.j - s.i == 1 and s.type == "OCC" and _adjective_of_the_noun_before(lex, doc, s.i):
        return True  # «يحتاج إلى عين خبيرة» "an expert eye": a post's adjective qualifying a noun
    if s.j - s.i == 1 and s.type == "OCC" and _post_as_an_adjective(lex, doc, s, spans):
        return True  # «الشارع الرئيس» "the main street", «يكون الطبق الرئيس لحما» "the main dish"
    if s.j - s.i == 1 and s.type == "OCC" and (_not_a_post(doc, s.i) or _plural_of_post(doc, s.i)):
        return True
    return False


def _verb_in_alif_maqsura(doc: Reading, i: int) -> bool:
    """Token i is written with a final alif maqsura (ى) and read in context as a verb, while its key ends in ya as
    the head of a name would (نادى "he called", not نادي "club")."""
    return (
        doc.toks[i].text.endswith("ى")
        and doc.keys[i].endswith("ي")
        and doc.read_as(i, frozenset({"verb"}))
        and not (i > 0 and doc.read_as(i - 1, frozenset({"prep"})))  # «في نادى الزمالك»: a noun, however written
    )


def _adjective_of_the_noun_before(lex: Lexicon, doc: Reading, i: int) -> bool:
    """Token i, a post without the article that morphology reads as an adjective, right after an indefinite common
    noun of a thing (no kinship noun: «أبي مزارع» "my father is a farmer"): the noun's adjective («عين خبيرة» "an
    expert eye"), no post."""
    if i == 0 or doc.keys[i].startswith("ال") or doc.keys[i - 1].startswith(("ال", "وال", "بال", "لل")):
        return False
    noun = doc.context[i - 1]
    return (
        doc.read_as(i, frozenset({"adj"}))
        and noun is not None
        and noun.common
        and noun.pos == "noun"
        and noun.lemma not in KIN_LEMMAS
        and doc.keys[i - 1] not in lex.name_part
        and not any(c.endswith(("trig:OCC", "trig:PERS")) for c in lex.word_classes([doc.keys[i - 1]])[0])
    )


def _possessed_complement(doc: Reading, x: int) -> bool:
    """Token x is a kinship noun with "my" (cues `kin_mine`: أمي, خالتي) or reads as a common noun with its
    possessive pronoun: what the head belongs to, so no name."""
    return doc.plain_key(x) in KIN_MINE or _possessed_noun(doc, x, FREQUENT)


def _head_alone(lex: Lexicon, doc: Reading, i: int) -> bool:
    """Token i is a facility's or a body's head that no list holds alone (المسجد, المستشفى, الجامعة; not البرلمان,
    الشرطة): the everyday headers' "unnamed heads none"; the learned layer may tag one where no rule entity lies."""
    classes = {c.lstrip("~") for c in lex.word_classes([doc.keys[i]])[0]}
    return bool(classes & {"trig:FAC", "trig:ORG"}) and not classes & {"gaz:FAC", "gaz:ORG", "gaz:GPE", "gaz:LOC"}


def _dictionary_word(doc: Reading, x: int) -> bool:
    """Morphology in context reads token x as a common word, more likely no proper noun than one."""
    word = doc.context[x]
    return word is not None and word.common and word.proper < 0.5


SESSION_INSIDE = frozenset({"ORDINAL", "CARDINAL", "GPE", "LOC", "ORG", "EVENT", "PERS", "NORP", "DATE"})


def _cycle_not_a_session(lex: Lexicon, doc: Reading, s: Span, spans: list[Span]) -> bool:
    """An event headed by دورة or ألعاب (cues `session_head`) of dictionary words only, with no ordinal, number,
    place, body or other event inside it, and no nisba of a people or a region nor games (cues `session_games`)
    after the head: a cycle, a course or games, not a named session («الدورة الثلاثون لمهرجان جرش», «دورة الألعاب
    الأولمبية», «الألعاب الآسيوية», «دورة الدار البيضاء المفتوحة», a tournament by its town's name stay)."""
    if not lex.bare_heads(doc.keys[s.i]) & SESSION_HEADS:
        return False
    if s.j - s.i > 1 and (doc.keys[s.i + 1] in SESSION_GAMES or lex.nisba(doc.keys[s.i + 1])):
        return False  # «دورة الألعاب», «الألعاب المتوسطية», «الألعاب الآسيوية»: games of a people or a region
    if not all(_dictionary_word(doc, x) for x in range(s.i + 1, s.j)):
        return False
    return not any(o is not s and o.type in SESSION_INSIDE and s.i <= o.i and o.j <= s.j for o in spans)


def _day_of_an_activity(lex: Lexicon, doc: Reading, s: Span) -> bool:
    """The span is يوم and a definite word that names no day (cues `named_day`: يوم الأرض, يوم الشهيد), with no list
    holding it whole: the day of an activity (يوم العرض, يوم الانتقال, يوم الرياضة السنوي); or يوم and an indefinite
    adjective, a day described (يوم كامل "a whole day", يوم طويل)."""
    if s.j - s.i < 2 or not any(st in DAY_HEAD for st, _p in lex.stems(doc.keys[s.i])):
        return False
    k = doc.keys[s.i + 1]
    if not k.startswith("ال"):
        return doc.read_as(s.i + 1, frozenset({"adj"}))
    return k not in NAMED_DAYS and not _listed_whole(lex, doc, s)


def _cup_of_a_drink(lex: Lexicon, doc: Reading, s: Span) -> bool:
    """The span is a cup's head (كأس, a trophy's head too) and a drink (cues `drink`: الشاي, الماء): a glass of it,
    no tournament (كأس العالم, كأس الاتحاد stay)."""
    return s.j - s.i >= 2 and CUP in lex.bare_heads(doc.keys[s.i]) and doc.keys[s.i + 1] in DRINKS


def _indefinite_after_every(doc: Reading, s: Span) -> bool:
    """The span opens on a word without the article right after كل: "every" such thing, which no name is (a name
    is definite: «كل العراق» "all of Iraq" keeps it)."""
    return s.i > 0 and doc.plain_key(s.i - 1) in EVERY_WORD and not doc.keys[s.i].startswith("ال")


def _indefinite_construct(lex: Lexicon, doc: Reading, s: Span) -> bool:
    """A head and one common word without the article, then an indefinite adjective that is no name's part (inside
    the span or right after it): the construct is indefinite, as the adjective's agreement shows («معرض أثاث كبير»
    "a big furniture fair", «محطة قطار حديثة»), so it names nothing; a name's adjective takes the article («شركة
    إعمار العقارية»), and a person may follow a name («بنك عودة سمير حنا»)."""
    i, j = s.i, s.j
    if j - i < 2 or i + 2 >= doc.n or any(doc.keys[x].startswith(("ال", "لل")) for x in range(i + 1, max(j, i + 3))):
        return False
    complement = doc.context[i + 1]
    if not (
        complement is not None
        and complement.common
        and complement.rooted
        and complement.lemma_frequency >= ACCUSATIVE_FREQUENCY
        and complement.pos in ("noun", "adj")
    ):
        return False
    for x in range(i + 2, max(j, i + 3)):
        after = doc.context[x]
        if after is None or not after.common or after.pos != "adj" or doc.keys[x] in lex.name_part:
            return False
        if doc.keys[x] in lex.gaz and doc.keys[x] not in lex.minor_places:
            return False  # «دوري أبطال أوروبا»: a place as written, not an adjective (a minor town is: حديثة "modern")
    return True


def _listed_whole(lex: Lexicon, doc: Reading, s: Span) -> bool:
    """A list holds the span's words as one name of several words (شبه الجزيرة العربية)."""
    match = lex.gaz_match(doc.keys, s.i) if s.j - s.i > 1 else None
    return match is not None and match[0] == s.j


def inside_idioms(lex: Lexicon, doc: Reading) -> frozenset[int]:
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
    local service's head (cues `service_head`: مكتب, مستشفى, محطة; `company_service_head`: شركة, only with one
    word after it, with the article) and what kind it is: an indefinite qualifier, whatever follows (ملعب صغير
    للأطفال), or a frequent common noun no rule found as a name, no nisba and no ideal (cues `ideal_noun`: مستشفى
    العودة), alone or before a purpose (مكتب البريد, مستشفى الأطفال, شركة النقل)."""
    i = s.i
    if s.j - i < 2:
        return False
    k = doc.keys[i + 1]
    if k in GENERIC_QUALIFIERS and (s.j - i == 2 or not k.startswith("ال")):
        return True  # المركز التجاري; an indefinite one after any head, whatever follows (شارع قريب)
    heads = lex.bare_heads(doc.keys[i])
    if heads & PART_HEADS:
        return s.j - i == 2 and k.startswith("ال") and k not in IDEAL_NOUNS and _dictionary_thing(doc, i + 1)
    if heads & COMPANY_SERVICE_HEADS and (s.j - i > 2 or not k.startswith("ال")):
        return False  # شركة إعمار: a company's name has no article; شركة الأفق للبرمجيات names what it does
    if not heads & (SERVICE_HEADS | COMPANY_SERVICE_HEADS):
        return False
    if k in GENERIC_QUALIFIERS:
        return True
    common = frequent_common_noun(doc, i + 1) or (not heads & WORD_NAMED_HEADS and _dictionary_noun(doc, i + 1))
    if k in IDEAL_NOUNS or not common or k.endswith(("ي", "يه")):
        return False  # مستشفى العودة: an ideal names it; النادي الأهلي: a nisba
    return s.j - i == 2 or _purpose_after(lex, doc, s, spans)


def _dictionary_noun(doc: Reading, x: int) -> bool:
    """Morphology in context reads token x as a dictionary noun (rooted) seen at least ``COMMON_FREQUENCY`` times in
    the lexicon's corpus, which is news: an everyday noun rarely in the news (النوم 95, الطيور 92, الشرفة 36) that no
    rule before found as a name."""
    word = doc.context[x]
    return word is not None and word.rooted and frequent_common_noun(doc, x, COMMON_FREQUENCY)


def _dictionary_thing(doc: Reading, x: int) -> bool:
    """Token x reads as a common noun of the analyser's dictionary, however rare, that no rule found as a name, no
    nisba (الفرن, القفص; not الخليل, المغاربة)."""
    word = doc.context[x]
    return (
        word is not None
        and word.pos == "noun"
        and word.rooted
        and word.proper < 0.5
        and not doc.keys[x].endswith(("ي", "يه"))
        and not any(o.type in ("GPE", "LOC", "PERS", "FAC", "ORG", "NORP") for o in doc.base_at.get(x, []))
    )


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
    if _list_label(doc, s.i):
        return True  # «1- أين تقع بساتين النخيل؟»: a question's number in a list
    labelled = s.i > 0 and any(strip_article(st) in NUMBER_LABELS for st in lex.heads(doc.keys[s.i - 1]))
    return labelled and not held_by_another(s, spans, s.i)  # الرقم 199 too


LABEL_MARKS = frozenset({"-", "–", ")", ".", ":"})


def _list_label(doc: Reading, i: int) -> bool:
    """Token i (digits) opens a line and a mark of a list's item follows it, then a word: «1- أين …», «2) ما …»."""
    start = doc.toks[i].start
    before = doc.text[:start].rstrip(" \t")
    return (
        (not before or before.endswith("\n"))
        and i + 2 < doc.n
        and doc.toks[i + 1].text in LABEL_MARKS
        and doc.toks[i + 1].start == doc.toks[i].end
        and doc.toks[i + 2].kind == "word"
    )


def _head_without_a_name(lex: Lexicon, doc: Reading, s: Span) -> bool:
    """A place's head (cues `gpe_prefix`: مدينة, قرية, جهة) and one word that names no place: the head is any or
    every such place (أي مدينة, كل قرية), or the word is «other» or «one» (جهة أخرى) or a definite common noun
    after و (من جهة والبحر من جهة أخرى: the next item, not a name)."""

    def is_head(x: int) -> bool:
        return x >= 0 and any(st in GPE_PREFIX for st, _p in lex.stems(doc.keys[x]))

    # the head opens the span (جهة أخرى) or, kept outside its name, comes right before it (مدينة عمل)
    head = s.i if s.j - s.i == 2 and is_head(s.i) else s.i - 1 if s.j - s.i == 1 and is_head(s.i - 1) else None
    if head is None:
        return False
    if head > 0 and (doc.plain_key(head - 1) in QUANTIFIERS or doc.plain_key(head - 1) in EVERY_WORD):
        return True
    name = head + 1
    k = doc.keys[name]
    return k in OTHER_ONE or k in LONE_ONE or (k.startswith("وال") and common_noun(doc, name, FREQUENT) is not None)


def _place_as_a_thing(lex: Lexicon, doc: Reading, s: Span, spans: list[Span]) -> bool:
    """A one-word place that morphology reads as a common word, followed by a colour or by «one» (cues `colour`,
    `lone_one`), or a dictionary noun before an indefinite adjective that agrees with it: a thing, not the town
    (الخرطوم الأخضر, ليمونة واحدة, بتربة خصبة); a city's colour is a word of its name. A colour itself (الأبيض, a town
    in Sudan) is a place only in a place's context («لبست الأبيض» "I wore white")."""
    i = s.i
    if _indefinite_adjective_after(lex, doc, i):
        return True
    if not reads_as_common_word(lex, doc, i):
        return False
    if doc.keys[i] in COLOURS:  # «بلدية الزرقاء», «البيت الأبيض» hold it: a name
        return not held_by_another(s, spans, i) and not place_context(lex, doc, s, spans)
    return i + 1 < doc.n and doc.keys[i + 1] in THING_AFTER


def _same_indefinite_ending(noun: str, adjective: str) -> bool:
    """Both end in ة (feminine), or both in the alif of the indefinite accusative: the adjective agrees with the
    noun («تربة خصبة», «بخارا خفيفا»), as no adjective after a town's name does («في بيروت طويلا», «بغداد عام»)."""
    return (noun.endswith("ة") and adjective.endswith("ة")) or (noun.endswith("ا") and adjective.endswith("ا"))


def _indefinite_adjective_after(lex: Lexicon, doc: Reading, i: int) -> bool:
    """Token i, a place without the article, ends as the indefinite adjective of the dictionary right after it
    does, an adjective no nisba, no name part and no place: the noun it qualifies («بتربة خصبة» "with fertile
    soil", «بخارا خفيفا» "as a light vapour"); a town takes no indefinite adjective."""
    x = i + 1
    if x >= doc.n or doc.keys[i].startswith(("ال", "وال", "بال", "لل")) or doc.keys[x].startswith("ال"):
        return False
    noun, after = doc.context[i], doc.context[x]
    if noun is None or noun.pos != "noun" or not noun.rooted or noun.proper >= 0.5:
        return False
    if not any(st in (noun.lemma, noun.lemma + "ا") for st, _p in lex.stems(doc.keys[i])):
        return False  # the noun is the whole word once a clitic is off (بتربة is ب + تربة), or its accusative
    return (
        after is not None
        and after.rooted
        and after.proper < 0.5
        and after.pos == "adj"
        and _same_indefinite_ending(doc.toks[i].text, doc.toks[x].text)
        and not doc.keys[x].endswith(("ي", "يه"))
        and doc.keys[x] not in lex.name_part
        and doc.keys[x] not in lex.gaz
    )


def _prayer_time(lex: Lexicon, doc: Reading, s: Span, spans: list[Span]) -> bool:
    """A place that is also a prayer's time (cues `prayer_time`: المغرب) after a preposition of time (cues
    `time_preposition`; حتى only before no verb: «حتى المغرب تأثر» is "even Morocco") or after a verb of praying
    (cues `pray_verb`), with no other place near: the time of day."""
    i = s.i
    if i == 0 or doc.plain_key(i) not in PRAYER_TIMES or place_near(lex, doc, s, spans):
        return False
    before = doc.plain_key(i - 1)
    if before[:1] in ("و", "ف") and before[1:] in TIME_PREPOSITIONS:
        before = before[1:]  # «وعند المغرب صلينا»
    if before == "حتي" and i + 1 < doc.n and doc.read_as(i + 1, frozenset({"verb"})):
        return False
    if before == TO and any(_part_of_day(doc, x) for x in range(max(0, i - 3), i - 1)):
        return True  # «من الفجر إلى المغرب» "from dawn to sunset": a range of the day's times
    return before in TIME_PREPOSITIONS or before in PRAY_VERBS  # «صلينا المغرب»: the verb as written


def _responsible_for(lex: Lexicon, doc: Reading, i: int) -> bool:
    """Token i is مسؤول or مسؤولة (cues `responsible`), with the article or not, right before عن: "responsible
    for", an adjective, not a post (the everyday sets' gold)."""
    return i + 1 < doc.n and doc.plain_key(i + 1) == ABOUT and bool(lex.bare_heads(doc.keys[i]) & RESPONSIBLE)


def _part_of_a_generic_place(lex: Lexicon, doc: Reading, i: int) -> bool:
    """Token i + 1 is a generic place (cues `generic_place`: المدرسة, الحي), or البيت after a head that the news
    does not name with words (cues `word_named_head`: استاد البيت is a stadium; ساحة البيت "the house's yard")."""
    k = doc.keys[i + 1]
    return k in GENERIC_PLACES or (k == THE_HOUSE and not lex.heads(doc.keys[i]) & WORD_NAMED_HEADS)


def _part_of_day(doc: Reading, x: int) -> bool:
    """Token x is a part of the day with the article (cues `day_parts`: الفجر, الصباح)."""
    k = doc.plain_key(x)
    return k.startswith("ال") and k[2:] in DAY_PARTS


def _number_word_place(lex: Lexicon, doc: Reading, s: Span, spans: list[Span]) -> bool:
    """A one-word place whose word, the article off, is a number or a fraction (cues `fraction_cardinal`,
    `fraction_word`: الخمس, a town in Libya) with no place's context: the number."""
    if not lex.bare_heads(doc.keys[s.i]) & (FRACTION_CARDINALS | FRACTION_WORDS):
        return False
    return not held_by_another(s, spans, s.i) and not place_context(lex, doc, s, spans)


def _place_in_construct(lex: Lexicon, doc: Reading, s: Span, spans: list[Span]) -> bool:
    """A one-word place that morphology reads as a common noun, opening a sentence or right after a preposition
    (on it or before it), before a frequent definite common noun inside no entity and no place's head (or an
    indefinite one in construct with a definite word): the first term of a construct, a thing, since a town takes
    no genitive («بحجة قلة الميزانية» "on the pretext of", «قطر الطاولة» "the table's diameter"). After a verb
    the noun may be its subject («زارت حلب الوزيرة»), and a date or a name after the place is an entity of its
    own («في غزة الأسبوع الماضي»)."""
    i = s.i
    k = doc.keys[i]
    word = common_noun(doc, i, FREQUENT)
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
    after = common_noun(doc, i + 1, FREQUENT)
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


def _opens_as_verb(doc: Reading, i: int) -> bool:
    word = doc.context[i]
    return word is not None and word.opens_sentence and word.pos == "verb"


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


def _post_as_an_adjective(lex: Lexicon, doc: Reading, s: Span, spans: list[Span]) -> bool:
    """A post that is also an adjective (cues `post_adjective`: الرئيس "main", المقرر "scheduled"), with no listed
    name after it, that morphology in context reads as an adjective, or right after a definite common noun that no
    entity holds and no list knows as a post: it qualifies the noun, unless a verb with an object comes right before
    the noun (a verb of being takes none: cues `being_verb`), where the post may be the object («استقبل الملك
    الرئيس»)."""
    i = s.i
    if doc.keys[i] not in POST_ADJECTIVES or (s.j < doc.n and lex.name_at(doc.keys, s.j) > s.j):
        return False  # «التقى الرئيس محمد ولد الغزواني»: a title before a listed name
    if doc.read_as(i, frozenset({"adj"})):
        return True  # «لمؤتمر الحوار الوطني المقرر في الربيع» "scheduled for the spring"
    if i == 0 or not doc.keys[i - 1].startswith(("ال", "وال", "لل", "بال")):
        return False  # «للأم العاملة» "for the working mother": the noun may carry a preposition
    noun = doc.context[i - 1]
    if noun is None or not noun.common or noun.pos != "noun" or any(o.i <= i - 1 < o.j for o in spans):
        return False
    if any(c.endswith("trig:OCC") for c in lex.word_classes([doc.keys[i - 1]])[0]):
        return False  # «الأمين العام الرئيس»: a post before it
    if i < 2 or (doc.toks[i - 1].text.endswith("ة") and doc.toks[i].text.endswith("ة")):
        return True  # «اكتب الفكرة الرئيسة» "the main idea": a feminine noun and its feminine adjective
    return not doc.read_as(i - 2, frozenset({"verb"})) or doc.plain_key(i - 2) in BEING_VERBS


def _not_a_post(doc: Reading, i: int) -> bool:
    word = doc.context[i]
    if word is None or not word.common:
        return False
    if word.pos in FUNCTION_POS:
        return True
    written = bare(doc.toks[i].text)
    return written.endswith("ة") and word.lemma.endswith("ه") and key(written).endswith(word.lemma)


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


def _beginning_of_a_span(lex: Lexicon, doc: Reading, i: int) -> bool:
    """Token i is «أول» (a clitic allowed) right before a noun of a span (cues `span_noun`), or before any noun with
    «إلى آخر» after it: its beginning («من أول الغرفة إلى آخرها» "from one end of the room to the other")."""
    if i + 1 >= doc.n or not any(st == "اول" for st, _p in lex.stems(doc.keys[i])):
        return False
    if doc.keys[i + 1] in SPAN_NOUNS:
        return True
    return i + 3 < doc.n and doc.plain_key(i + 2) == "الي" and doc.keys[i + 3].startswith(("اخر", "الاخر"))


def _fraction_of_a_thing(doc: Reading, i: int) -> bool:
    """Token i is a cardinal that is also a fraction (cues `fraction_cardinal`: خمس, عشر) before a singular noun
    with its pronoun, or in construct with a definite noun: the fraction of it, as a count takes a plural."""
    if doc.keys[i] not in FRACTION_CARDINALS or i + 1 >= doc.n:
        return False
    word = doc.context[i + 1]
    if word is None or not word.common or word.pos != "noun" or doc.keys[i + 1].startswith("ال"):
        return False
    written = bare(doc.toks[i + 1].text)
    if has_possessive(written, word.lemma) or (written.endswith("ك") and key(written[:-1]) == word.lemma):
        return True  # خمس مصروفك (a bare ك "your", which `has_possessive` leaves to foreign names)
    # a singular noun in construct with a definite one (عشر وزن الطفل); خمس قطع "five pieces" reads قطع as "cutting"
    return key(written) == word.lemma and i + 2 < doc.n and doc.keys[i + 2].startswith("ال")


def _day_counted_after(doc: Reading, s: Span, spans: list[Span]) -> bool:
    """A time of day that ends on اليوم with an ordinal right after it: a counted day of a story («صباح اليوم
    الرابع»), not this morning."""
    return doc.plain_key(s.j - 1) == "اليوم" and any(o.type == "ORDINAL" and o.i == s.j for o in spans)


def _possessed_first_word(doc: Reading, i: int) -> bool:
    """Token i reads as a common noun with its possessive pronoun, ه as written (قاعه "its bottom", of قاع; مدرستنا):
    a name opens on no possessed noun."""
    return _possessed_noun(doc, i, ACCUSATIVE_FREQUENCY)


def _possessed_noun(doc: Reading, x: int, floor: int) -> bool:
    """Morphology in context reads token x as a common noun, its lemma `floor` or more in the corpus, with its
    possessive pronoun (the letters as written)."""
    word = doc.context[x]
    return (
        word is not None
        and word.common
        and word.pos == "noun"
        and word.lemma_frequency >= floor
        and has_possessive(bare(doc.toks[x].text), word.lemma)
    )


def _after_a_verb_particle(lex: Lexicon, doc: Reading, i: int) -> bool:
    """Token i comes right after a particle that only a verb follows (cues `verb_particle`: لم, لن, قد, سوف, إذا)."""
    return any(st in VERB_PARTICLES for st, _p in lex.stems(doc.plain_key(i - 1)))


def _verb_after_the_head(lex: Lexicon, doc: Reading, s: Span, spans: list[Span]) -> bool:
    """The span's second word reads as a frequent verb that no list knows as a name or a place, that no other entity
    holds and that no nisba follows (مهرجان كان السينمائي holds the town كان)."""
    x = s.i + 1
    return (
        x < s.j
        and frequent_verb_no_name(lex, doc, x)
        and not lex.gaz.get(doc.keys[x])
        and not held_by_another(s, spans, x)
        and not (x + 1 < s.j and doc.keys[x + 1].endswith("ي"))  # مهرجان كان السينمائي: a name's nisba
    )


def _frequent_present_verb(doc: Reading, x: int) -> bool:
    # ي or ت: a name inside a name may open on ن like a first-person verb (جائزة نوبل)
    return frequent_verb(doc, x) and doc.keys[x].lstrip("وف")[:1] in "يت"
