"""Layer 1 over the tokens: websites, the longest gazetteer match, listed person names and nisbas."""

from __future__ import annotations

from tahqiq.analysis.ner.cues import (
    FOREIGN_LINKS,
    GPE_PREFIX,
    NAME_CUES,
    NATURAL_HEADS_LISTED,
    NOT_NAME_PHRASES,
    PLACE_IDIOMS,
    PRAYER_HEADS,
    REGNAL,
    REGNAL_TITLES,
    SECT_WORDS,
    SETTLEMENT_HEADS,
    VOCATIVE,
    WEBSITE,
)
from tahqiq.analysis.ner.lexicon import Lexicon
from tahqiq.analysis.ner.reading import Reading
from tahqiq.analysis.ner.words import family_word, foreign_word, plain_word, unlisted_family
from tahqiq.arabic.clitics import strip_article

HEADS_KEPT = GPE_PREFIX - SETTLEMENT_HEADS  # heads a GPE's span holds


def websites(lex: Lexicon, doc: Reading) -> None:
    """Websites, found on the raw text and snapped to tokens; their tokens are claimed."""
    text, toks, claimed, add = doc.text, doc.toks, doc.claimed, doc.add
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


def listed_names(lex: Lexicon, doc: Reading) -> None:
    """Layer 1: the longest gazetteer match, a person's listed name (and the family names that may follow it), a
    nisba."""
    toks, keys, n, spans, claimed, base_at, add = (
        doc.toks,
        doc.keys,
        doc.n,
        doc.spans,
        doc.claimed,
        doc.base_at,
        doc.add,
    )
    i = 0
    inside_listed = 0
    inside_kind = ""
    while i < n:
        if claimed[i] or toks[i].kind != "word":
            i += 1
            continue
        # عن عمر ناهز 89 عاما: an age, not the name عمر
        name_end = (
            0
            if (keys[i] == "عمر" and i > 0 and keys[i - 1] == "عن") or keys[i] in NOT_NAME_PHRASES
            else lex.name_at(keys, i)
        )
        g = lex.gaz_match(keys, i)
        nisba = lex.nisba(keys[i])
        if (
            not name_end
            and i + 2 < n
            and keys[i + 1] in ("بن", "ابن")
            and keys[i + 2] in lex.name_part
            and plain_word(lex, keys, toks, i)
        ):
            name_end = i + 3  # هزاع بن زايد
        if (
            not name_end
            and i > 0
            and (keys[i - 1] in NAME_CUES or keys[i - 1] in VOCATIVE)
            and keys[i] in lex.weak_first
        ):
            name_end = i + 1  # «زميل اسمه كريم», «يا أمل»: a first name that is also a word, named or addressed
        if name_end and (g is None or name_end >= g[0]):
            name_end = _person_name_end(lex, doc, i, name_end)
            base_at.setdefault(i, []).append(add("PERS", i, name_end, 1))
            i = name_end
            continue
        if g is not None and g[0] == i + 1 and g[1] in ("GPE", "LOC", "CURR") and not _placed(lex, doc, i, g[1]):
            g = None  # الزيتون, سال, ذهب: an everyday word, not the village or the currency of the same name
        if (
            g is not None
            and g[0] == i + 1
            and i + 1 < n
            and any((st, keys[i + 1]) in PLACE_IDIOMS for st in lex.heads(keys[i]))
        ):
            g = None  # «مسقط رأسه» "his birthplace"
        if g is not None and g[0] == i + 1 and g[1] == "GPE" and i > 0 and lex.heads(keys[i - 1]) & PRAYER_HEADS:
            g = None  # «صلاة المغرب» "the sunset prayer"
        if (
            g is not None
            and g[0] == i + 1
            and g[1] == "NORP"
            and keys[i] in SECT_WORDS
            and not _by_a_people(lex, keys, i)
        ):
            g = None  # «هذه السنة» "this year"; «المسلمين السنة», «السنة والشيعة» are a people
        if g is not None and g[0] == i + 1 and _clitic_is_a_letter_of_the_word(lex, doc, i):
            g = None  # بابها is باب + ها, not ب + أبها
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
            if typ == "GPE" and i > 0 and any(st in HEADS_KEPT for st, _p in lex.stems(keys[i - 1])):
                start = i - 1  # محافظة الخليل, دولة الكويت; but مدينة الظهران → الظهران
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


def _by_a_people(lex: Lexicon, keys: list[str], i: int) -> bool:
    """A people's name or nisba stands right before token i or right after it, bare or after و."""
    near = [keys[x] for x in (i - 1, i + 1) if 0 <= x < len(keys)]
    for k in near:
        for w in (k, k[1:] if k.startswith("و") else k):
            hit = lex.gaz_match([w], 0)
            if lex.nisba(w) or (hit is not None and hit[1] == "NORP"):
                return True
    return False


def _person_name_end(lex: Lexicon, doc: Reading, i: int, name_end: int) -> int:
    """End of a listed person's name from token i (its listed words end at `name_end`) with what may follow it:
    one unlisted family name after a first name alone, a regnal number after a king's title, a family name after
    a listed name of two words."""
    toks, keys, n = doc.toks, doc.keys, doc.n
    e = name_end
    if name_end - i == 1 and e < n:  # a first name alone: one unlisted family name may follow
        if (
            keys[e] in ("ابو", "بن")
            and e + 1 < n
            and (plain_word(lex, keys, toks, e + 1) or lex.gaz_match(keys, e + 1) == (e + 2, "GPE"))
        ):
            e += 2  # محمد أبو سلمية: a place's name as a family name
        elif keys[e] in FOREIGN_LINKS:
            f = e
            while f + 1 < n and keys[f + 1] in FOREIGN_LINKS:
                f += 1  # أورسولا فون دير لاين
            if f + 1 < n and foreign_word(lex, keys, toks, f + 1):
                e = f + 2  # نيمار دا سيلفا: the links of a foreign name and its family name
        elif (
            keys[e].endswith(("ا", "و"))
            and len(keys[e]) >= 5  # not a short word in ا (ريم بنا ذكرى)
            and foreign_word(lex, keys, toks, e)
            and e + 1 < n
            and plain_word(lex, keys, toks, e + 1)
            and not lex.verb_like(keys, e + 1)
            and not keys[e + 1].startswith(("ب", "ل", "و", "ف"))
        ):
            e += 2  # a middle name in ا or و, then the family name: غابرييل غارسيا ماركيز
        elif plain_word(lex, keys, toks, e) and not lex.future_verb(keys[e]):  # كريستيانو سيلعب
            e += 1
    if e < n and keys[e] in REGNAL and i > 0 and keys[i - 1] in REGNAL_TITLES:
        e += 1  # الملك عبد الله الثاني, ملعب محمد الخامس
    elif name_end - i >= 2 and e < n and family_word(lex, keys, toks, e):
        e += 1  # فاطمة الزهراء المنصوري: a listed name of two words takes a family name in ي
    elif name_end - i >= 2 and e < n and unlisted_family(lex, keys, toks, name_end - 1, e):
        e += 1  # رجب طيب أردوغان, عبد الرحمن سيساكو: the family name no list knows after two words
    return e


def _placed(lex: Lexicon, doc: Reading, i: int, typ: str) -> bool:
    """Whether a one-word place or currency at token i may count: always, unless the word is an everyday word
    (data/everyday.txt; a currency then only right after a number: ثلاثين قرشا), or a minor place
    (``Lexicon.minor_places``) that morphology in context reads as a common word (القرية, عالية in «أصوات عالية») or
    as a noun of the analyser's dictionary (الحوش); then only a place, and only after a head such as مدينة, قرية or
    حوض, right before a known place after a comma or و (الزيتون، رام الله; العمارة والناصرية), or in a list after
    one (مسقط وصلالة ونزوى)."""
    keys = doc.keys
    stems = [st for st, _p in lex.stems(keys[i])]
    everyday = any(lex.is_everyday(st) for st in stems) or (
        any(st in lex.minor_places for st in stems)
        and (reads_as_common_word(lex, doc, i) or _dictionary_noun(lex, doc, i))
    )
    if not everyday:
        return True
    if typ == "CURR":  # an everyday word is a currency only right after a number (ثلاثين قرشا; not «رأينا قرشا»)
        return i > 0 and (
            doc.toks[i - 1].kind == "number"
            or any(st in lex.num_words or st in lex.mult for st, _p in lex.stems(keys[i - 1]))
        )
    if i > 0 and any(st in GPE_PREFIX or st in NATURAL_HEADS_LISTED for st, _p in lex.stems(keys[i - 1])):
        return True  # بمدينة صور, حوض سرت
    after = i + 2 if i + 1 < doc.n and doc.toks[i + 1].text in ("،", ",") else i + 1
    if (
        after < doc.n
        and (after == i + 2 or keys[after].startswith("و"))
        and (g := lex.gaz_match(keys, after)) is not None
        and g[1] == "GPE"
        and not any(st in lex.minor_places or lex.is_everyday(st) for st, _p in lex.stems(keys[after]))
    ):
        return True  # «الزيتون، رام الله», «العمارة والناصرية»
    return keys[i].startswith("و") and _after_listed_places(lex, doc, i)


def _after_listed_places(lex: Lexicon, doc: Reading, i: int) -> bool:
    """Token i ends a list of places: a known place (neither everyday nor minor) before it, alone or with commas
    and other places between (مسقط وصلالة ونزوى)."""
    x = i - 1
    while x >= 0:
        if doc.toks[x].text in ("،", ","):
            x -= 1
            continue
        g = lex.gaz_match(doc.keys, x)
        if g is None or g[0] != x + 1 or g[1] not in ("GPE", "LOC"):
            return False
        stems = [st for st, _p in lex.stems(doc.keys[x])]
        if not any(st in lex.minor_places or lex.is_everyday(st) for st in stems):
            return True
        x -= 1
    return False


def currencies_with_nisba(lex: Lexicon, doc: Reading) -> None:
    """A currency followed by a nisba: دينار أردني, الدينار الأردني."""
    base_at = doc.base_at
    for lst in list(base_at.values()):
        for sp in lst:
            if sp.type == "CURR":
                nb = [o for o in base_at.get(sp.j, []) if o.type == "NORP"]
                if nb:
                    sp.j = max(sp.j, nb[0].j)


def reads_as_common_word(lex: Lexicon, doc: Reading, i: int) -> bool:
    """Morphology in context reads token i as a common word the lexicon's corpus knows, that accounts for the whole
    word: a verb, an adjective, or a noun whose lemma begins the word once a conjunction, or a preposition before
    the article, is taken off (المحطة is محطة, وباقة is باقة, بالقرية is قرية, البيضاء "the white one" is ابيض),
    not one that reads a name's first
    letters as clitics (فلوريدا as ف + ل + وريد, لوزان as ل + وزان, بعلبك as ب + علبة)."""
    word = doc.context[i]
    if word is None or not word.common or not word.frequency:
        return False
    if word.pos in ("verb", "adj"):
        return True  # البيضاء is أبيض, ناعمة ناعم
    k = doc.keys[i]
    # a colour's feminine read as the noun of its masculine: البيضاء of ابيض, الخضراء of اخضر (فعلاء of أفعل)
    heads = (word.lemma[:3], word.lemma[1:4]) if len(word.lemma) == 4 and word.lemma[0] == "ا" else (word.lemma[:3],)
    return (
        any(
            strip_article(st).startswith(heads) or (st.startswith("ال") and st[2:] == word.lemma)  # التل is تل
            for st, p in lex.stems(k)
            if not p or k[:p] in ("و", "ف") or st.startswith("ال")
        )
        or _broken_plural(word.lemma, k, word.pos, word.lemma_frequency)
        or (
            # a preposition on a very frequent noun read whole: بحركة "with a movement" (a village is called بحركة);
            # لوزان stays ل + وزان (86), بعلبك ب + علبة (the lemma is no stem of the word)
            word.lemma_frequency >= VERY_FREQUENT
            and any(p and strip_article(st) == word.lemma for st, p in lex.stems(k))
        )
    )


def _broken_plural(lemma: str, k: str, pos: str, frequency: int) -> bool:
    """The word, with the article (and و/ف) off, is a broken plural of the noun `lemma` that morphology read: it
    opens on the lemma's first letter and holds its consonants in order (الخيام of خيمة, الميادين of ميدان), not a
    name's first letters read as clitics (فلوريدا is no plural of وريد)."""
    if pos != "noun" or frequency < COMMON_FREQUENCY or len(lemma) < 3:
        return False
    definite = k[1:] if k[:1] in ("و", "ف") and k[1:].startswith("ال") else k
    if not definite.startswith("ال"):
        return False  # the article says the word is a noun, not a name's letters
    word = definite[2:]
    if word[:1] != lemma[:1] or word == lemma:
        return False
    consonants = [c for c in lemma[1:].rstrip("هة") if c not in "اوي"]
    rest = iter(word[1:])
    return bool(consonants) and all(c in rest for c in consonants)


def _dictionary_noun(lex: Lexicon, doc: Reading, i: int) -> bool:
    """Morphology in context reads token i as a common noun of the analyser's dictionary, one with a root whose lemma
    is the whole word once the article and proclitics are off, even one its corpus never counted: الحوش "the
    courtyard" (حوش), للحوش. An unknown name gets a guessed reading with no root (كرمكول, ليمونة)."""
    word = doc.context[i]
    if word is None or word.pos != "noun" or not word.rooted or word.proper >= 0.5:
        return False
    k = doc.keys[i]
    return any(
        strip_article(st) == word.lemma
        for st, p in lex.stems(k)
        if not p or k[:p] in ("و", "ف") or st.startswith("ال")  # not لوزان as ل + وزان, برادس as ب + رادس
    )


def _clitic_is_a_letter_of_the_word(lex: Lexicon, doc: Reading, i: int) -> bool:
    """A name found in token i only once a proclitic is taken off, where morphology in context reads that very
    letter as the first of a common word's lemma: بابها (باب, not ب + أبها), ورقة (not و + الرقة), كبيرا (not ك +
    بيرا), بيوتا (not ب + يوتا)."""
    k = doc.keys[i]
    word = doc.context[i]
    if word is None or not word.common or word.lemma_frequency < COMMON_FREQUENCY or k in lex.gaz:
        return False
    return k[:1] in PROCLITIC_LETTERS and word.lemma[:2] == k[:2]  # بباريس is ب + باريس


PROCLITIC_LETTERS = "وفبلك"
# a lemma rarer than this in the lexicon's corpus is no evidence of an everyday word: rare lemmas are often the
# analyser's artefacts (نزوى as نزوة 3, بجدة as بجدة 20, while ورقة has 33); set on those words, the development
# sets and the everyday sentences of morph_train (docs/design/ner.md, "Everyday words")
COMMON_FREQUENCY = 30
# a noun this frequent, read whole once a preposition is taken off, is that noun (بحركة, حركة 3,423), while the
# readings that take a name's first letter for a preposition stay below it (لوزان as وزان, 86)
VERY_FREQUENT = 1000
