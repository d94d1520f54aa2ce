"""The words that complete a head (ORG, FAC, EVENT, LAW, OCC): its name, its complements, its nisba."""

from __future__ import annotations

from dataclasses import dataclass

from tahqiq.analysis.ner.cues import (
    BALL_GAMES,
    BARE_NAMED_ORGS,
    COMPANY_NAME_HEADS,
    CONTENT_STOP,
    ELECTION_KINDS,
    ENVOYS,
    EVENT_NOUNS,
    FACILITY_ADJ,
    FORMER,
    LAW_NUMBER,
    LEADER_IN,
    MAX_COMPLEMENT,
    MEMBER_BODIES,
    MINISTERS,
    NAMED_EVENT_HEADS,
    NEW_LAW,
    NOT_COMPLEMENTS,
    NOT_NAME_PARTS,
    PARTY_NAME_HEADS,
    PLACE_HEADS,
    POST_ADJ,
    PREPOSITION_WORDS,
    RANK_WORDS,
    TITLES,
    WORLD,
    YEAR_HEAD,
)
from tahqiq.analysis.ner.lexicon import Lexicon
from tahqiq.analysis.ner.reading import Span, WordInContext
from tahqiq.analysis.ner.words import bare_name, content, feminine_name, is_definite, plain_word
from tahqiq.core import Token


def of_body(lex: Lexicon, keys: list[str], toks: list[Token], j: int, spans_at: dict[int, list[Span]]) -> bool:
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
        and "ال" + k[2:] not in lex.stop_content
        and lex.trigger_at(keys, j) is None
        and not any(o.type in ("GPE", "NORP", "LOC") for o in spans_at.get(j, []))
    )


def facility_name_rest(lex: Lexicon, keys: list[str], toks: list[Token], j: int) -> int:
    """End of a facility's unlisted name from token j: one more name word (سراج أوغلو, كيب كانافيرال), then
    الدولي (مطار هواري بومدين الدولي)."""
    n = len(keys)
    if j < n and bare_name(lex, keys, toks, j) and not lex.verb_like(keys, j) and keys[j][:1] not in "بلفك":
        j += 1
    if j < n and keys[j] in FACILITY_ADJ:
        j += 1
    return j


@dataclass(frozen=True, slots=True)
class _Head:
    """A head of type `typ` whose words end at token `i`, and what its complement is read against."""

    lex: Lexicon
    keys: list[str]
    toks: list[Token]
    i: int
    spans_at: dict[int, list[Span]]
    typ: str
    definite: bool
    named: bool
    context: list[WordInContext | None] | None = None


def complement(
    lex: Lexicon,
    keys: list[str],
    toks: list[Token],
    i: int,
    spans_at: dict[int, list[Span]],
    typ: str,
    definite: bool,
    named: bool = False,
    context: list[WordInContext | None] | None = None,
) -> int:
    """End of the words that complete a head of type `typ` ending at token i (i when nothing follows): each step
    below reads on from where the one before stopped. ``context``: how morphology reads each token in its sentence
    (``Reading.context``), when the recognizer runs with it."""
    h = _Head(lex, keys, toks, i, spans_at, typ, definite, named, context)
    j, done = _post_opening(h)
    if done:
        return j
    j, inner, done = _name_words(h, j)
    if done:
        return j
    j = _organisation_own_name(h, j, inner)
    j = _facility_own_name(h, j, inner)
    j = _event_own_name(h, j, inner)
    j = _nisba_and_ordinal(h, j)
    j = _of_complements(h, j)
    j = _number_and_year(h, j)
    return _post_ending(h, j) if typ == "OCC" else j


def _noun_in_ya(h: _Head, j: int) -> bool:
    """Morphology in context reads token j, which ends in ي or ية, as a common noun whose lemma is no nisba (الهدية
    "the gift", of هدية), not as an adjective that agrees with a post (المديرة التنفيذية) nor as a nisba's noun on
    a base of three letters or more (الخارجية, of خارج; البيطرية)."""
    word = h.context[j] if h.context is not None else None
    if word is None or not word.common or word.pos != "noun" or word.lemma.endswith("ي"):
        return False
    return not (word.lemma.endswith("يه") and len(word.lemma) >= 5)


def _post_opening(h: _Head) -> tuple[int, bool]:
    """A post's first words: its possessive (رئيسها), a minister's field (ووزير خارجيته), باسم, a leader's party,
    its adjective before its organisation; done when nothing more can follow."""
    keys, toks, i, spans_at, typ, definite = h.keys, h.toks, h.i, h.spans_at, h.typ, h.definite
    n = len(keys)
    j = i
    if typ == "OCC" and not definite and keys[i - 1].endswith(("ها", "هم")) and keys[i - 1] not in ENVOYS:
        # a post with its possessive (وكيلها شركة …: the company is the agent, not the post's) keeps only
        # its adjective (رئيسها التنفيذي)
        return (i + 1 if i < n and keys[i] in POST_ADJ else i), True
    if (
        typ == "OCC"
        and i < n
        and keys[i - 1] in MINISTERS
        and toks[i].kind == "word"
        and keys[i].endswith(("يته", "يتها", "يتهم"))
        and len(keys[i]) >= 6  # not a name in ته: وزير جيته
    ):
        return i + 1, True  # ووزير خارجيته: a minister of the field his state's possessive names
    if typ == "OCC" and j + 1 < n and keys[j] == "باسم":
        j += 1  # المتحدث باسم الخارجية القطرية
    if typ == "OCC" and j + 1 < n and keys[j] == "في" and keys[i - 1] in LEADER_IN:
        party = [s for s in spans_at.get(j + 1, []) if s.type == "ORG"]
        if party:
            return max(s.j for s in party), True  # القيادي في حزب الاستقلال: a leader's post holds the party
    if (
        typ == "OCC"
        and definite
        and j + 1 < n
        and keys[j] in POST_ADJ
        and keys[j + 1].startswith("ل")
        and any(o.type == "ORG" for o in spans_at.get(j + 1, []))
    ):
        j += 1  # المديرة العامة لمنظمة التجارة العالمية: the post's adjective, then its organisation
    return j, False


def _name_words(h: _Head, j: int) -> tuple[int, bool, bool]:
    """The names and definite words right after the head (at most MAX_COMPLEMENT[typ] words, an inner name counting
    one), and a construct chain (مستشفى رفيديا الحكومي); done when an event's ordinal ends it."""
    lex, keys, toks, i, spans_at, typ, definite = h.lex, h.keys, h.toks, h.i, h.spans_at, h.typ, h.definite
    n = len(keys)
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
        if count == 0 and keys[i - 1] in RANK_WORDS and lex.ordinal_at(keys, j):
            break  # المركز الثالث: a rank, not a centre's name (المجلس العشرين, الدورة الثالثة keep theirs)
        if typ == "EVENT" and j > i and (o := lex.ordinal_at(keys, j)) > j + 1:
            # المؤتمر الوطني الثامن عشر: an ordinal of two words ends the name, but for its sport (بطولة
            # الخليج العربي الخامسة والعشرين لكرة القدم)
            if o + 1 < n and keys[o].startswith("ل") and keys[o + 1] in BALL_GAMES:
                return o + 2, True, True
            return o, True, True
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
            and (t := lex.trigger_at(keys, j)) is not None
            and t[1] == "OCC"
        ):
            j += 1  # نقابة الفنانين السوريين, اتحاد الكتاب: a body of the members it names
            count += 1
            continue
        facility = typ == "FAC" and count == 0 and not inner and keys[i - 1] not in ("دار", "ودار", "بدار")
        # a post with the article heads no construct: a definite noun right after it starts a phrase of its own
        # (وضع الطالب القلم), while an adjective agrees with it: one in ي (الرئيس التنفيذي), a listed one (الممثل
        # الخاص) or a plural of the post's own ending (الموظفين العموميين)
        construct_closed = (
            typ == "OCC"
            and definite
            and count == 0
            and not (keys[j].endswith(("ي", "يه")) and not _noun_in_ya(h, j))
            and keys[j] not in NOT_NAME_PARTS  # the listed adjectives: الممثل الخاص, المدير الجديد
            and not any(keys[i - 1].endswith(p) and keys[j].endswith(p) for p in ("ين", "ون", "ات"))
        )
        if (content(lex, keys, toks, j, facility=facility) and not construct_closed) or (
            typ == "EVENT" and keys[j] == WORLD  # بطولة العالم للسباحة
        ):
            j += 1
            count += 1
            continue
        if count == 0 and not inner and typ != "OCC" and not definite:
            # construct chain: مستشفى رفيديا الحكومي, هيئة تنظيم قطاع الاتصالات
            e = j
            place: list[Span] = []
            while e < n and e - j < 2 and toks[e].kind == "word" and not keys[e].startswith("ال"):
                if (
                    e > j
                    and typ == "EVENT"
                    and keys[e][:1] not in "بلوفك"  # مؤتمر صحفي بدبي: where it is held, not its name
                    and (place := [o for o in spans_at.get(e, []) if o.type in ("GPE", "LOC")])
                ):
                    break  # دوري أبطال آسيا: the chain ends in a listed place
                if (
                    keys[e] in lex.stop
                    or len(keys[e]) <= 2
                    or lex.trigger_at(keys, e)
                    or keys[e].startswith(("لل", "بال", "وال", "فال", "كال"))
                    or (e > j and keys[e][:1] in "بلوفك")  # مرصد أوكايمدن بجبال الأطلس: a phrase after it
                    or lex.heads(keys[e]) & PLACE_HEADS  # زلزال جبال الأطلس: a place
                ):
                    break
                e += 1
            if e > j and e < n and content(lex, keys, toks, e):
                j = e + 1
                count += 1
                continue
            if place:
                j = max(o.j for o in place)
                break
        break
    return j, bool(inner), False


def _organisation_own_name(h: _Head, j: int, inner: bool) -> int:
    """A company's, movement's or party's own name no list knows (شركة إعمار, حركة فتح, حزب الاستقلال)."""
    lex, keys, toks, i, spans_at = h.lex, h.keys, h.toks, h.i, h.spans_at
    typ, definite = h.typ, h.definite
    n = len(keys)
    if (
        typ == "ORG"
        and j == i
        and not inner
        and not definite
        and j < n
        and keys[i - 1] in BARE_NAMED_ORGS
        and (
            bare_name(lex, keys, toks, j)
            # after a masculine head a word in ة agrees with nothing: it is the name (بنك عودة)
            or (not keys[i - 1].endswith("ه") and feminine_name(lex, keys, toks, j))
        )
        and not keys[j].startswith(("ب", "ل", "ف", "ك"))
    ):
        j += 1  # شركة إعمار, حركة فتح: a company's or movement's own name no list knows
        if any(o.type == "GPE" and o.j == j + 1 for o in spans_at.get(j, [])):
            j += 1  # مجموعة موانئ أبوظبي: … and the city it is named with
        elif (
            j < n
            and keys[i - 1] in COMPANY_NAME_HEADS
            and bare_name(lex, keys, toks, j)
            and not lex.verb_like(keys, j)
            and not keys[j].startswith(("بال", "لل", "فال", "كال"))
            and keys[j] not in PREPOSITION_WORDS
            # a clitic on a known word is a phrase after the name (شركة أمازون بعقد), not its second word
            and not (keys[j][:1] in "بلفك" and (keys[j][1:] in lex.stop or keys[j][1:] in lex.stop_content))
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
        and is_definite(toks[j].text, keys[j])
        and len(keys[j]) > 4
        and keys[j] not in CONTENT_STOP
        and lex.trigger_at(keys, j) is None
        and not any(o.type in ("NORP", "GPE") for o in spans_at.get(j, []))
    ):
        j += 1  # حزب الاستقلال, حزب العمال: a party is named by a common noun
    return j


def _facility_own_name(h: _Head, j: int, inner: bool) -> int:
    """A facility's own name no list knows (ستاد لوسيل, مطار هواري بومدين الدولي)."""
    lex, keys, toks, i, spans_at, typ, definite = h.lex, h.keys, h.toks, h.i, h.spans_at, h.typ, h.definite
    n = len(keys)
    if (
        typ == "FAC"
        and j == i
        and not inner
        and not definite
        and j < n
        and keys[i - 1] not in ("دار", "ودار", "بدار")  # دار نشر: a publishing house, not a name
        and bare_name(lex, keys, toks, j)
    ):
        j += 1  # ستاد لوسيل, سجن عوفر: a facility's own name no list knows
        if j + 1 < n and keys[j] == "ابو" and toks[j + 1].kind == "word":
            j += 2  # معبر كرم أبو سالم
        elif any(o.type == "GPE" and o.j == j + 1 for o in spans_at.get(j, [])):
            j += 1  # حلبة كورنيش جدة: the name holds its city
        else:
            j = facility_name_rest(lex, keys, toks, j)
    elif (
        typ == "FAC"
        and j == i
        and not inner
        and not definite
        and j + 1 < n
        and keys[i - 1] not in ("دار", "ودار", "بدار")
        and keys[j].endswith("ي")
        and plain_word(lex, keys, toks, j)
        and not keys[j].startswith(("ال", "و"))
        and plain_word(lex, keys, toks, j + 1)
        and not keys[j + 1].startswith(("ال", "و"))
        and not keys[j + 1].endswith(("ه", "ا", "ات"))
        and not lex.verb_like(keys, j + 1)
    ):
        # مطار هواري بومدين الدولي, ملعب شكري سراج أوغلو: a person's name (its first part in ي) names it
        j = facility_name_rest(lex, keys, toks, j + 2)
    return j


def _event_own_name(h: _Head, j: int, inner: bool) -> int:
    """An event's own name no list knows (معرض جيتكس غلوبال, مهرجان موازين)."""
    lex, keys, toks, i, typ, definite = h.lex, h.keys, h.toks, h.i, h.typ, h.definite
    n = len(keys)
    if (
        typ == "EVENT"
        and j == i
        and not inner
        and not definite
        and j < n
        and keys[i - 1] in NAMED_EVENT_HEADS
        and not lex.verb_like(keys, j)
        and bare_name(lex, keys, toks, j)
        and keys[j][:1] not in "بلفك"  # معرض للإصابة: a phrase, not a name
    ):
        j += 1  # معرض جيتكس غلوبال, مهرجان موازين: an event's own name no list knows
        if j < n and bare_name(lex, keys, toks, j) and not lex.verb_like(keys, j):
            j += 1
    return j


def _nisba_and_ordinal(h: _Head, j: int) -> int:
    """A ball game after a player's post, the nisbas after the name (الرئيس الفلسطيني), an event's ordinal."""
    lex, keys, i, spans_at, typ, definite = h.lex, h.keys, h.i, h.spans_at, h.typ, h.definite
    n = len(keys)
    if typ == "OCC" and j + 1 < n and keys[j] == "كره" and keys[j + 1] in BALL_GAMES:
        j += 2  # لاعب كرة القدم الجزائري
    norp = [s for s in spans_at.get(j, []) if s.type == "NORP"]
    if norp and (j > i or definite or typ in ("OCC", "EVENT")):
        j = norp[0].j  # الرئيس الفلسطيني, الحكومة المغربية, رئيس الوزراء الإسرائيلي
        while typ in ("EVENT", "ORG", "OCC") and (more := [s for s in spans_at.get(j, []) if s.type == "NORP"]):
            j = more[0].j  # القمة العربية الإسلامية, المصممة الفلسطينية الأمريكية
        if typ == "LAW" and j < n and keys[j] in NEW_LAW:
            j += 1  # الدستور التونسي الجديد
    if typ in ("EVENT",) and j > i and j < n and (o := lex.ordinal_at(keys, j)):
        j = o  # القمة العربية الثالثة والثلاثين
    return j


def _of_complements(h: _Head, j: int) -> int:
    """The ل complements of a name (للعلوم والتقنية, لكرة القدم) and the fields it lists with و."""
    lex, keys, toks, i, spans_at = h.lex, h.keys, h.toks, h.i, h.spans_at
    typ, definite, named = h.typ, h.definite, h.named
    n = len(keys)
    if typ in ("ORG", "FAC", "EVENT", "LAW") and (j > i or definite or named):
        # ... للعلوم والتقنية, لكرة القدم, للأوراق المالية; a head of two words names already (بطولة العالم للسباحة)
        while j < n and toks[j].kind == "word":
            k = keys[j]
            if k.startswith("لل") and len(k) >= 4 and k[2:] not in CONTENT_STOP and k not in NOT_COMPLEMENTS:
                j += 1
            elif (
                k.startswith("ل") and not k.startswith("لل") and len(k) > 3 and j + 1 < n and keys[j + 1] in BALL_GAMES
            ):
                j += 2
            elif (
                typ == "LAW"
                and k.startswith("ل")
                and not k.startswith("لل")
                and j + 1 < n
                and lex.head_type(keys, j) == "LAW"
                and content(lex, keys, toks, j + 1)
            ):
                j += 2  # اتفاقية الأمم المتحدة لقانون البحار
            elif (
                typ in ("EVENT", "ORG")
                and k.startswith("لا")  # لألعاب القوى: ل on a word with hamza, then its definite complement
                and len(k) > 4
                and j + 1 < n
                and lex.head_type(keys, j) in (None, "EVENT")
                and content(lex, keys, toks, j + 1)
            ):
                j += 2
            elif (
                k.startswith("وال")
                and len(k) > 4
                and j > i
                and (keys[j - 1].startswith(("لل", "ال")) or (typ == "ORG" and keys[j - 1].startswith("وال")))
                and lex.head_type(keys, j) is None  # ميثاق الأمم المتحدة والقرار 242: a second name
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
                and lex.head_type(keys, j) is None
                and (k.endswith("ه") or not lex.verb_like(keys, j))  # وتقنية reads as و + a verb in ت
                and content(lex, keys, toks, j + 1)
            ):
                j += 2  # هيئة الاتصالات وتقنية المعلومات: a second noun in construct
                if more := [o for o in spans_at.get(j, []) if o.type == "NORP"]:
                    j = more[0].j  # … السعودية: the nisba after it ends the name
            elif (
                k.startswith("ال")
                and j > i
                and keys[j - 1].startswith(("لل", "وال"))
                and content(lex, keys, toks, j)
                and lex.head_type(keys, j) is None  # الاتحاد الدولي للاتصالات القمة العالمية: a new name
            ):  # للبيانات والذكاء الاصطناعي
                j += 1
            else:
                break
    return j


def _number_and_year(h: _Head, j: int) -> int:
    """A law's adjective (الجديد), number (رقم 2334) and year (لسنة 2023); an event's or law's number."""
    lex, keys, toks, i, typ = h.lex, h.keys, h.toks, h.i, h.typ
    n = len(keys)
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
        elif typ == "LAW" and any(st in YEAR_HEAD for st, p in lex.stems(keys[j]) if p):
            # لسنة 2023 names a law; a bare عام 2015 after it, like عام 1988 after an event, says when
            if j + 1 < n and toks[j + 1].kind == "number":
                j += 2
    return j


def _post_ending(h: _Head, j: int) -> int:
    """What a post holds after its words: the body it is of (الرئيس التنفيذي للمجموعة), where an envoy serves,
    السابق."""
    lex, keys, toks, i, spans_at = h.lex, h.keys, h.toks, h.i, h.spans_at
    typ, definite, named = h.typ, h.definite, h.named
    n = len(keys)
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
            of_body(lex, keys, toks, j + 1, spans_at)
            or any(o.type == "ORG" and keys[j + 1].startswith("ل") for o in spans_at.get(j + 1, []))
        )
    ):
        j += 1  # مديرا فنيا للمنتخب: an indefinite post's adjective before the body it is of
        body = [o for o in spans_at.get(j, []) if o.type == "ORG"]
        if body:
            j = max(o.j for o in body)
    if typ == "OCC" and (j == i or j == i + 1) and (named or not definite) and of_body(lex, keys, toks, j, spans_at):
        # الرئيس التنفيذي للمجموعة, الممثلة العليا للسياسة الخارجية: a post of two words, or an indefinite
        # one, holds the body it is of (a bare الرئيس للصحفيين does not)
        j += 1
        while j < n and j - i < 3 and toks[j].kind == "word" and keys[j].startswith("ال"):
            if lex.trigger_at(keys, j) or not (
                content(lex, keys, toks, j) or any(o.type == "ORDINAL" for o in spans_at.get(j, []))
            ):
                break
            j += 1  # للسياسة الخارجية, للمنتخب الأول
    if typ == "OCC" and keys[i - 1] in ENVOYS and j + 1 < n and keys[j].lstrip("\u200b") in ("لدي", "في"):
        host = [o for o in spans_at.get(j + 1, []) if o.type in ("GPE", "ORG")]
        if host:
            j = max(o.j for o in host)  # سفيرة السعودية في واشنطن, ممثلها في السودان, سفيرة لدى اليابان
        elif keys[j] != "في" and toks[j + 1].kind == "word" and is_definite(toks[j + 1].text, keys[j + 1]):
            j += 2  # السفير الكوري الجنوبي لدى السلطنة
    if typ == "OCC" and j < n and keys[j] in FORMER:
        j += 1  # النائب السابق, الرئيس الفلسطيني الأسبق: the post held before
    return j
