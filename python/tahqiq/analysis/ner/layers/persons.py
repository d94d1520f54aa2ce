"""Persons and posts: titles no list knows, names after a title or a kinship noun, names before a title."""

from __future__ import annotations

from tahqiq.analysis.ner.cues import (
    AFFAIRS,
    COMPASS_NISBA,
    CONTENT_STOP,
    COUNTERPART,
    FOREIGN_LINKS,
    KIN_MINE,
    KIN_PAIRS,
    KINSHIP,
    NAME_CUES,
    NAME_LINKS,
    NISBA_PERSON_PREPS,
    NOT_NAME_PARTS,
    REGNAL,
    REGNAL_TITLES,
    VOCATIVE,
)
from tahqiq.analysis.ner.lexicon import Lexicon
from tahqiq.analysis.ner.reading import FUNCTION_POS, NOT_NAME_POS, Reading
from tahqiq.analysis.ner.words import (
    adjective_next,
    family_word,
    foreign_word,
    is_definite,
    last_family,
    linked_family,
    long_foreign,
    name_like_verb,
    noun_read_first_name,
    plain_word,
    unlisted_family,
)

TITLE_NOT_POS = FUNCTION_POS | {"verb"}  # what a one-word post that anchors a name never reads as


def unlisted_titles(lex: Lexicon, doc: Reading) -> None:
    """Add an OCC for a definite noun no list knows right before a nisba when a name follows: the nisba of a
    person's nationality comes after the post (الخطاط العراقي سالم الدليمي); a compass adjective or a second
    nisba may follow the first (الكاتبة الكورية الجنوبية, المصممة الفلسطينية الأمريكية), and a compass adjective
    after a nisba belongs to it and to the title or organisation it ends."""
    keys, toks, spans, base_at, add = doc.keys, doc.toks, doc.spans, doc.base_at, doc.add
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
        if not is_definite(toks[q].text, k) or len(k) < 5 or k.endswith(("ين", "ون", "ات")):
            continue  # a plural is no post: المواطنين السوريين
        if (
            k in CONTENT_STOP
            or k in lex.stop
            or k in NOT_NAME_PARTS
            or lex.nisba(k)
            or lex.trigger_at(keys, q) is not None
            or lex.gaz_match(keys, q) is not None
            or lex.month_at(keys, q)[0]
        ):
            continue
        e = sp.j
        if e in norps and e not in taken:
            e += 1
        named = any(o.type == "PERS" for o in base_at.get(e, [])) or (
            # or two words no list knows, neither with a clitic nor a verb (الملياردير الهندي موكيش أمباني)
            e + 1 < n
            and all(
                foreign_word(lex, keys, toks, x)
                and not is_definite(toks[x].text, keys[x])
                and not lex.verb_like(keys, x)
                and keys[x][:1] not in "وبلفك"
                for x in (e, e + 1)
            )
            and not adjective_next(keys, toks, e)
        )
        if named:
            base_at.setdefault(q, []).append(add("OCC", q, e, 0))


def names_before_titles(lex: Lexicon, doc: Reading) -> None:
    """A name no list knows set off before its title by a comma (أعلن ماتيو سالفيني، زعيم حزب الرابطة): two unlisted
    words without the article, neither a verb."""
    toks, keys, spans, base_at, add = doc.toks, doc.keys, doc.spans, doc.base_at, doc.add
    for sp in [s for s in spans if s.type == "OCC" and s.i >= 3 and toks[s.i - 1].text in ("،", ",")]:
        a, b = sp.i - 3, sp.i - 2
        if any(x in base_at or any(o.i <= x < o.j for o in spans) for x in (a, b)):
            continue
        if all(
            foreign_word(lex, keys, toks, x)
            and not is_definite(toks[x].text, keys[x])
            and not lex.verb_like(keys, x)
            and not keys[x].startswith("و")
            for x in (a, b)
        ) and not adjective_next(keys, toks, a):
            add("PERS", a, b + 1, 1)


def posts_for_affairs(lex: Lexicon, doc: Reading) -> None:
    """A post for a field of affairs takes it (المفوضة الأوروبية للشؤون الخارجية, مساعد الوزير للشؤون الأفريقية):
    لشؤون and the definite word after it, then its adjectives; a name after it is then anchored."""
    toks, keys, n, spans = doc.toks, doc.keys, doc.n, doc.spans
    for sp in [s for s in spans if s.type == "OCC" and s.j + 1 < n and keys[s.j] in AFFAIRS]:
        e = sp.j + 1
        if toks[e].kind != "word" or not is_definite(toks[e].text, keys[e]) or keys[e] in lex.stop:
            continue
        e += 1
        while e < n and toks[e].kind == "word" and keys[e].startswith("ال") and keys[e].endswith(("ي", "يه")):
            e += 1  # للشؤون السياسية والأمنية stays at the first adjective's end without و
        spans[:] = [o for o in spans if not (o.type in ("PERS", "ORG") and sp.j <= o.i < e)]
        sp.j = e


def names_after_titles(lex: Lexicon, doc: Reading) -> None:
    """A name right after a title, even one no list knows: العداء المغربي سفيان البقالي, مدير عام الأونروا فيليب
    لازاريني; a listed name there takes the family names no list knows (عبد اللطيف الجواهري), and a first name that
    is also a word stands alone there unless morphology reads an adjective or a verb (المعلمة أمل; not «المعلمة
    جميلة» "is beautiful"); a kinship noun with its pronoun anchors a name the same way (نجله عبد العزيز الراشد,
    ابنه ستيفان)."""
    spans, heads_of, base_at = doc.spans, doc.heads_of, doc.base_at
    anchors = _name_anchors(lex, doc)
    regnal_after = {s.j for s in spans if s.type == "OCC" and heads_of[s.i] & REGNAL_TITLES}
    families = _family_names_read(doc)
    for j in sorted(set(anchors)):
        if (
            not base_at.get(j)
            and doc.keys[j] in lex.weak_first
            and doc.context[j] is not None  # morphology must have read it: without it, a word is no name here
            and not doc.read_as(j, frozenset({"adj", "verb"}))
        ):
            # «قالت المعلمة أمل» "Amal": a first name that is also a noun; «المعلمة جميلة» "is beautiful" stays a word
            base_at.setdefault(j, []).append(doc.add("PERS", j, j + 1, 1))
        known = [o for o in base_at.get(j, []) if o.type == "PERS"]
        if known:
            _listed_name_after_title(lex, doc, j, max(o.j for o in known), families, regnal_after)
        else:
            _unlisted_name_after_title(lex, doc, j, families, regnal_after)


def _name_anchors(lex: Lexicon, doc: Reading) -> list[int]:
    """Where a name may start: after a post (definite, with a nisba, of two words or with its possessive; not a
    plural), after a kinship noun with its pronoun, after "his name is" (اسمه, يدعى), after a counterpart's nisba
    (نظيره الإيراني عباس عراقجي) or a nisba after a preposition (على الإيطالي لوكا نارديه)."""
    toks, keys, n, spans, base_at, heads_of = doc.toks, doc.keys, doc.n, doc.spans, doc.base_at, doc.heads_of
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
        # a word morphology reads as a function word or a verb is no post (أمامها "in front of her", not إمام)
        and not (s.j - s.i == 1 and doc.read_as(s.i, TITLE_NOT_POS))
    ]
    anchors += [q + 1 for q in range(n - 1) if heads_of[q] & KINSHIP and toks[q].kind == "word"]
    anchors += [q + 1 for q in range(n - 1) if keys[q] in NAME_CUES]  # طفل اسمه ناصر
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
            or (foreign_word(lex, keys, toks, s.j) and foreign_word(lex, keys, toks, s.j + 1))
        )
    ]
    return anchors


def _family_names_read(doc: Reading) -> dict[str, list[int]]:
    """The last words of the names of two words or more read so far, with where each name starts."""
    keys = doc.keys
    # a family name already read in the sentence continues a name (فهد الراشد … نجله عبد العزيز الراشد)
    families: dict[str, list[int]] = {}
    for sp in doc.spans:
        if sp.type == "PERS" and sp.j - sp.i >= 2:
            families.setdefault(keys[sp.j - 1], []).append(sp.i)
    return families


def _listed_name_after_title(
    lex: Lexicon, doc: Reading, j: int, start_end: int, families: dict[str, list[int]], regnal_after: set[int]
) -> None:
    """A listed name at token j (ending at `start_end`) after a title takes the family names no list knows."""
    toks, keys, n, base_at, add = doc.toks, doc.keys, doc.n, doc.base_at, doc.add
    e = start_end
    # a first name alone, of one word or a compound one (عبد الكريم السامرائي)
    first_only = start_end == j + 1 or (start_end == j + 2 and keys[j] in ("عبد", "ابو"))
    if start_end == j + 1 and e < n and not keys[e].startswith("ال"):
        if any(o.type == "GPE" and o.j == e + 1 for o in base_at.get(e, [])):
            add("PERS", j, e + 1, 1)  # الفنان أحمد بنيس: a place's name as a family name
            return
        if foreign_word(lex, keys, toks, e) and not adjective_next(keys, toks, e):
            e += 1  # a listed first name and a transliterated family name: وولي سوينكا
    elif first_only and e < n and any(o.type == "NORP" and o.j == e + 1 for o in base_at.get(e, [])):
        e += 1  # a nisba right after a first name is its family name: الفنانة ماجدة الرومي
    if e == start_end and linked_family(lex, keys, toks, e):
        e += 2  # غسان أبو ستة, محمد سالم ولد مرزوك: a link and a family name no list knows
    elif (
        e == start_end
        and e + 2 < n
        and keys[e + 1] in FOREIGN_LINKS
        and foreign_word(lex, keys, toks, e)
        and foreign_word(lex, keys, toks, e + 2)
    ):
        e += 3  # لويس إيناسيو لولا دا سيلفا: a word no list knows before a foreign link goes on
    while (
        e < n
        and e - j < 4
        and keys[e - 1] not in REGNAL  # محمد السادس الجرحى: nothing after the regnal number
        and (
            family_word(lex, keys, toks, e)
            or any(not j <= x <= e for x in families.get(keys[e], ()))
            # عبد الغفار لانغو: a family name no list knows after a listed name of two words
            or (e == start_end and e - j == 2 and unlisted_family(lex, keys, toks, e - 1, e))
        )
    ):
        e += 1
    e = last_family(lex, keys, toks, j, e)
    if e < n and keys[e] in REGNAL and j in regnal_after:
        e += 1  # الأمير رينيه الثالث
    if e > start_end:
        add("PERS", j, e, 1)
    return


def _unlisted_name_after_title(
    lex: Lexicon, doc: Reading, j: int, families: dict[str, list[int]], regnal_after: set[int]
) -> None:
    """A name no list knows after a title: its first word must read as no noun, verb or listed word."""
    toks, keys, n, base_at, add = doc.toks, doc.keys, doc.n, doc.base_at, doc.add
    lone_place = [o for o in base_at.get(j, []) if o.type == "GPE" and o.j == j + 1]
    if base_at.get(j) and not (lone_place and plain_word(lex, keys, toks, j + 1)):
        return  # فلاديمير بوتين: a city's name that is also a first name
    if is_definite(toks[j].text, keys[j]) or (keys[j][:1] in "لب" and keys[j].endswith("ات")):
        return  # nor a plural with a preposition: المفوض السامي لشؤون اللاجئين لسنوات
    if lex.month_at(keys, j)[0] == j + 1 and j + 1 < n and plain_word(lex, keys, toks, j + 1):
        pass  # a month that is also a name: الرئيس التركي رجب طيب أردوغان
    elif (
        len(keys[j]) == 2
        and toks[j].kind == "word"
        and keys[j] not in lex.stop
        and j + 1 < n
        and plain_word(lex, keys, toks, j + 1)
        and not lex.verb_like(keys, j + 1)
    ):
        pass  # a name of two letters: رئيس الوزراء الصيني لي تشيانغ
    elif noun_read_first_name(lex, keys, toks, j):
        add("PERS", j, j + 2, 1)  # وزير الدفاع الأمريكي بيت هيغسيث إلى, الناشطة السويدية غريتا تونبرغ إنها
        return
    elif not (lone_place or plain_word(lex, keys, toks, j)):
        # a transliterated first name ending in ا is a name only when the name goes on: أنجلينا جولي
        if not (
            foreign_word(lex, keys, toks, j)
            and j + 1 < n
            and (
                (
                    foreign_word(lex, keys, toks, j + 1)
                    and (
                        keys[j + 1][:1] not in "يت" or keys[j + 1] in families or long_foreign(lex, keys, toks, j + 1)
                    )  # ظهيرا ينص
                )
                or keys[j + 1] in NAME_LINKS
            )
        ):
            return
    if lex.verb_like(keys, j) and not name_like_verb(lex, keys, toks, j):
        return  # a verb, not a name: الرئيس يزور
    e = _unlisted_name_end(lex, doc, j, families)
    if e < n and keys[e] in REGNAL and j in regnal_after:
        e += 1  # الأمير ألبرت الثاني
    add("PERS", j, e, 1)


def _unlisted_name_end(lex: Lexicon, doc: Reading, j: int, families: dict[str, list[int]]) -> int:
    """End of a name no list knows from token j: up to three words, each a family name read before, a listed
    family name, a nisba, a link and its name, or an unlisted word that reads as no verb."""
    toks, keys, n, base_at = doc.toks, doc.keys, doc.n, doc.base_at
    e = j + 1
    words = 1
    while e < n and words < 3:
        if any(not j <= x <= e for x in families.get(keys[e], ())):
            e += 1  # دونالد ترامب … ابنته إيفانكا ترامب
            words += 1
        elif keys[e] in lex.family and toks[e].kind == "word":
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
            plain_word(lex, keys, toks, e)
            and not lex.verb_like(keys, e)
            and (
                words < 2
                or keys[e] in lex.name_part
                or (len(keys[e]) <= 3 and not keys[e].startswith("و"))
                # a family name no list knows after a name of two words (عبد الغفار لانغو)
                or (words == 2 and e - j == 2 and unlisted_family(lex, keys, toks, e - 1, e))
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
            and (not lex.verb_like(keys, e) or long_foreign(lex, keys, toks, e))
            and foreign_word(lex, keys, toks, e)
            and not adjective_next(keys, toks, e)
        ) or (words < 3 and len(keys[e]) == 2 and toks[e].kind == "word" and keys[e] not in lex.stop):
            e += 1  # a transliterated family name: وولي سوينكا, وانغ يي, يون جونغ سو
            words += 1
        else:
            break
    return e


def sibling_names(lex: Lexicon, doc: Reading) -> None:
    """Two children or siblings named one by one: a word with و after the first name opens the second name (ابنيهما
    أمين وحمزة, وشقيقاه وسام وعدنان), not a family name."""
    toks, keys, n, spans, add, heads_of = doc.toks, doc.keys, doc.n, doc.spans, doc.add, doc.heads_of
    pairs = {q + 1 for q in range(n - 1) if heads_of[q] & KIN_PAIRS and toks[q].kind == "word"}
    for sp in [s for s in spans if s.type == "PERS" and s.i in pairs]:
        x = sp.i + 1
        if x < sp.j and keys[x].startswith("و") and len(keys[x]) >= 3:  # ومي: a name of two letters
            sp.j, second = x, sp.j
            add("PERS", x, second, 1)


def everyday_names_need_evidence(lex: Lexicon, doc: Reading) -> None:
    """A person's name of one everyday word (كريم, سعيد, الطيب: data/everyday.txt; or a word that morphology in
    context reads as an adjective, a verb or a function word: أكرم in «أكرم من عرفت») stands only with name evidence: a
    title, a kinship noun or a counterpart's nisba right before it (the anchors of `names_after_titles`). Such a span
    is marked, not dropped: the learned layer may still grow it into a longer name (سعيد الناصري), and what is left
    of one word at the end is dropped by the recognizer (رجل كريم, جاره الطيب)."""
    keys = doc.keys
    lone = [
        s
        for s in doc.spans
        if s.type == "PERS" and s.j - s.i == 1 and (lex.is_everyday(keys[s.i]) or doc.read_as(s.i, NOT_NAME_POS))
    ]
    # «يا سعيد»: a listed name addressed (a vocative) is a person, even an everyday word; an unlisted word is none
    # («يا جدتي», «يا شباب»), so the particle anchors only the lists' names
    addressed = [s.i for s in doc.spans if s.type == "PERS" and s.i > 0 and keys[s.i - 1] in VOCATIVE]
    # «زارتنا خالتي فاطمة»: a name of one listed first name that is no everyday word, right after "my aunt", is hers
    mine = [
        s.i
        for s in doc.spans
        if s.type == "PERS"
        and s.j - s.i == 1
        and s.i > 0
        and doc.plain_key(s.i - 1) in KIN_MINE
        and keys[s.i] in lex.first
        and not lex.is_everyday(keys[s.i])
    ]
    doc.anchors = frozenset(_name_anchors(lex, doc)) | frozenset(mine) | frozenset(addressed)
    if lone:
        doc.unevidenced.update((s.i, s.j) for s in lone if s.i not in doc.anchors)
