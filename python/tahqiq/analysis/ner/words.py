"""Word tests over a text's token keys that several layers share: whether a word may be part of a name, a
complement, a verb, and where a name no list knows ends."""

from __future__ import annotations

from tahqiq.analysis.ner.cues import (
    COMPLEMENTISERS,
    CONTENT_STOP,
    FAMILY_LINKS,
    NAME_ENDERS,
    NOT_FACILITY_NAMES,
    NOT_NAME_PARTS,
    NOT_NAMES,
    PREPOSITION_WORDS,
    REGNAL,
)
from tahqiq.analysis.ner.lexicon import Lexicon
from tahqiq.core import Token


def is_definite(raw: str, k: str) -> bool:
    """Whether a token carries the article: its key starts with ال and its spelling with a bare alef (ألبرت and
    إلياس fold to ال… under normalisation but have none)."""
    return k.startswith("ال") and not raw.lstrip("\u0640").startswith(("أل", "إل", "آل"))


def plain_word(lex: Lexicon, keys: list[str], toks: list[Token], j: int, *, accusative: bool = False) -> bool:
    """A word that no list knows: a candidate for an unlisted name part (with ``accusative``, also one ending
    in ا, which otherwise reads as an indefinite accusative noun)."""
    if j >= len(keys) or toks[j].kind != "word":
        return False
    k = keys[j]
    return (
        len(k) >= 3
        and not k.isascii()
        and not k.startswith("\u200b")
        and k not in NOT_NAME_PARTS
        and (accusative or not (k.endswith("ا") and not k.endswith("اا")))  # accusative nouns: حفلا, متطوعا
        and k not in lex.stop
        and k not in CONTENT_STOP
        and k not in NOT_NAMES
        and k not in COMPLEMENTISERS
        and lex.gaz_match(keys, j) is None
        and lex.trigger_at(keys, j) is None
        and not lex.month_at(keys, j)[0]
        and not lex.nisba(k)
        and k not in lex.num_words
    )


def content(lex: Lexicon, keys: list[str], toks: list[Token], j: int, *, facility: bool = False) -> bool:
    """A definite word that may continue a head: not a function word, not an OCC/ORG/FAC head. After a
    facility's head, a common noun that no gazetteer may take alone names it too (قصر السيف, ساحة الحرية)."""
    k = keys[j]
    if toks[j].kind != "word" or not is_definite(toks[j].text, k) or len(k) <= 3:
        return False
    if k in CONTENT_STOP or (k in lex.stop_content and not (facility and k not in NOT_FACILITY_NAMES)):
        return False
    t = lex.trigger_at(keys, j)
    return t is None or t[1] in ("EVENT", "LAW")


def foreign_word(lex: Lexicon, keys: list[str], toks: list[Token], j: int) -> bool:
    """An unlisted word that may be a transliterated name: a plain word, or one ending in ا (غارسيا, سوينكا)
    that no list knows as a head, month or place."""
    if j >= len(keys):
        return False
    k = keys[j]
    if plain_word(lex, keys, toks, j):
        return True
    return (
        toks[j].kind == "word"
        and k.endswith("ا")
        and plain_word(lex, keys, toks, j, accusative=True)
        and not k.startswith("و")
        and not is_definite(toks[j].text, k)
    )


def long_foreign(lex: Lexicon, keys: list[str], toks: list[Token], j: int) -> bool:
    """An unlisted word too long for a present-tense verb without a suffix (تشيبتيغي, أديسينا): a
    transliterated name even when it opens with ي, ت or سي."""
    k = keys[j] if j < len(keys) else ""
    return (
        len(k) >= 7
        and not k.startswith(("و", "ف", "ال"))
        and not k.endswith(("ون", "ان", "ين", "وا", "ها", "هم", "نا", "كم", "ات"))
        and foreign_word(lex, keys, toks, j)
    )


def name_like_verb(lex: Lexicon, keys: list[str], toks: list[Token], j: int) -> bool:
    """A word after a title that reads as a verb (سيمون, تيدروس, سيسيه) but opens a name: a long
    transliterated word, or one followed by an unlisted bare word (no article, clitic, plural or accusative
    ending) that reads as no verb: سيمون بايلز, not يسجل هدفين or سيقود الفريق."""
    n = len(keys)
    k = keys[j]
    if k.startswith(("و", "ف")) or not foreign_word(lex, keys, toks, j):
        return False
    if long_foreign(lex, keys, toks, j):
        return True
    if j + 1 >= n or not bare_name(lex, keys, toks, j + 1) or lex.verb_like(keys, j + 1):
        return False
    return not keys[j + 1].startswith(("ب", "ل", "ك")) and not keys[j + 1].endswith("ة")


def adjective_next(keys: list[str], toks: list[Token], j: int) -> bool:
    """The word after token j agrees with it as an indefinite adjective (اتصالا هاتفيا, بيانا رسميا): token
    j is then a noun, not a name."""
    return j + 1 < len(keys) and toks[j + 1].kind == "word" and keys[j + 1].endswith(("يا", "ا"))


def bare_name(lex: Lexicon, keys: list[str], toks: list[Token], j: int) -> bool:
    """An unlisted proper name: a plain word without the article that does not read as an adjective or a
    plural (no ة, no accusative ا, no ون/ين/ات ending); ألونسو and ألباريس fold to ال… but carry no article."""
    k = keys[j]
    return (
        plain_word(lex, keys, toks, j)
        and not is_definite(toks[j].text, k)
        and not k.startswith("و")
        and not k.endswith(("ه", "ا", "ون", "ين", "ات", "ي"))
    )


def feminine_name(lex: Lexicon, keys: list[str], toks: list[Token], j: int) -> bool:
    """An unlisted word in ة that is no nisba adjective (عودة, not الوطنية or عربية) and no definite word."""
    k = keys[j]
    return (
        toks[j].kind == "word"
        and k.endswith("ه")
        and not k.endswith("يه")
        and not k.startswith(("ال", "و"))
        and len(k) >= 4
        and k not in lex.stop
        and k not in CONTENT_STOP
        and lex.gaz_match(keys, j) is None
        and lex.trigger_at(keys, j) is None
        and not lex.nisba(k)
    )


def name_ends_before(lex: Lexicon, keys: list[str], toks: list[Token], after: int) -> bool:
    """Token ``after`` ends a name before it: the end, a mark, a complementiser or a function word."""
    return (
        after >= len(keys)
        or toks[after].kind != "word"
        or keys[after].lstrip("\u200b") in NAME_ENDERS  # إلى and على keep a mark (_spans)
        or keys[after] in PREPOSITION_WORDS
        or keys[after] in COMPLEMENTISERS
    )


def family_word(lex: Lexicon, keys: list[str], toks: list[Token], j: int) -> bool:
    """A family name no list knows after a listed name (الجواهري, الجابر الصباح): a definite word that is a
    listed name part, or ends in ي (and is no nisba of a known place), or comes before a listed name part;
    never a function word, head, month or listed entity."""
    k = keys[j]
    if toks[j].kind != "word" or not k.startswith("ال") or len(k) < 5:
        return False
    if k in lex.name_part:
        return True
    if (
        k in CONTENT_STOP
        or k in lex.stop
        or k in NOT_NAME_PARTS
        or k in REGNAL
        or lex.nisba(k)
        or lex.trigger_at(keys, j) is not None
        or lex.gaz_match(keys, j) is not None
        or lex.month_at(keys, j)[0]
    ):
        return False
    return k.endswith("ي") or (j + 1 < len(keys) and keys[j + 1] in lex.name_part)


def unlisted_family(lex: Lexicon, keys: list[str], toks: list[Token], last: int, j: int) -> bool:
    """An unlisted family name at token j after a listed name of two words ending at ``last``: a bare word
    (no article, clitic, plural or accusative ending) that reads as no verb; not after a link (أبو, بن),
    which takes its own part; and only when a function word, a verb or a mark follows it, since a noun
    after it makes it the object of the verb before the name (رياض محرز هدف الفوز, سمير حنا افتتاح فرع)."""
    k = keys[j]
    after = j + 1
    return (
        keys[last] not in ("ابو", "بن", "ابن", "بنت", "ال")
        and plain_word(lex, keys, toks, j)
        and not is_definite(toks[j].text, k)
        and not k.endswith(("ا", "ون", "ين", "ات"))  # an accusative or a plural: اجتماعا, هاتفيا
        and not (k.endswith("ه") and not toks[j].text.endswith("ة"))  # a pronoun: قصائده, قرانه (not عودة)
        and (
            k[:1] not in "وبلفك"
            # لانغو، : ل/ب may open a family name only right before a mark or the end (not لمدة, بحفاوة)
            or (
                k[:1] in "بل"
                and (after >= len(keys) or toks[after].kind != "word")
                and not k.endswith("ه")
                and lex.gaz_match(keys, j) is None
            )
        )
        and (not lex.verb_like(keys, j) or long_foreign(lex, keys, toks, j))
        and (
            name_ends_before(lex, keys, toks, after)
            # a verb in ي (not a noun in ت: محمد مصطفى إعادة تأهيل)
            or (lex.verb_like(keys, after) and keys[after].lstrip("وف")[:1] in "يس")
        )
    )


def linked_family(lex: Lexicon, keys: list[str], toks: list[Token], e: int) -> bool:
    """أبو or ولد at token e and a family name no list knows after a listed name (غسان أبو ستة, محمد سالم ولد
    مرزوك, سيدي ولد التاه): the next word is no function word, verb or time word (not ولد في, ولد عام: the verb
    was born); a number word is a family name only after أبو."""
    n = len(keys)
    if e + 1 >= n or keys[e] not in FAMILY_LINKS or toks[e + 1].kind != "word":
        return False
    k = keys[e + 1]
    if keys[e] == "ابو" and k in lex.num_words:
        return True
    return (
        len(k) >= 3
        and not k.startswith(("و", "ف"))
        and k not in lex.stop
        and k not in CONTENT_STOP
        and k not in NOT_NAME_PARTS
        and k not in COMPLEMENTISERS
        and k not in PREPOSITION_WORDS
        and not lex.verb_like(keys, e + 1)
        and not lex.nisba(k)
        and lex.gaz_match(keys, e + 1) is None
        and lex.trigger_at(keys, e + 1) is None
        and not lex.month_at(keys, e + 1)[0]
    )


def last_family(lex: Lexicon, keys: list[str], toks: list[Token], j: int, e: int) -> int:
    """End of a name after a title (from token j, read up to e) with one more family name no list knows: a
    compound one (حسام الدين عبد الغفار), or a definite one when the clause goes on right after it with a
    punctuation mark, a complementiser, a verb, an indefinite accusative or a word with ب or ل (حسن بن عبد الله
    الغانم رئيسا, الدكتور عبد الرزاق الخشمان إن); not before a preposition (محمود عباس الوفد في: an object)."""
    n = len(keys)
    if e >= n or e - j >= 4 or toks[e].kind != "word" or keys[e - 1] in REGNAL:
        return e  # nothing follows a regnal number: الملك محمد السادس العرش
    w = 2 if keys[e] == "عبد" and e + 1 < n and keys[e + 1].startswith("ال") else 1
    last = e + w - 1
    k = keys[last]
    if (
        last >= n
        or not k.startswith("ال")
        or len(k) < 5
        or k in CONTENT_STOP
        or k in lex.stop
        or k in NOT_NAME_PARTS
        or k in REGNAL
        or lex.nisba(k)
        or lex.verb_like(keys, last)
        or lex.trigger_at(keys, last) is not None
        or lex.gaz_match(keys, last) is not None
        or lex.month_at(keys, last)[0]
    ):
        return e
    after = last + 1
    return after if w == 2 or clause_goes_on(lex, keys, toks, after) else e  # عبد + a definite word: a name


def clause_goes_on(lex: Lexicon, keys: list[str], toks: list[Token], after: int) -> bool:
    """The clause goes on at token ``after`` as it does right after a name: the end, a punctuation mark, a
    complementiser, a verb, an indefinite accusative or a word with ب or ل (not an object or a noun's
    complement, which would make the word before it a noun)."""
    n = len(keys)
    return (
        after >= n
        or toks[after].kind != "word"
        or keys[after] in COMPLEMENTISERS
        or lex.verb_like(keys, after)
        or (keys[after].endswith("ا") and not keys[after].startswith("ال") and len(keys[after]) >= 4)
        or (keys[after][:1] in "بل" and not keys[after].startswith(("بال", "لل")) and len(keys[after]) >= 4)
    )


def noun_read_first_name(lex: Lexicon, keys: list[str], toks: list[Token], j: int) -> bool:
    """A first name after a title that reads as a common noun (بيت, a stop word for the gazetteers) or an
    accusative (غريتا): a name when an unlisted bare word of five letters or more follows it, even one that
    reads as a verb (تونبرغ), and the name ends right there (a mark, a function word, a complementiser)."""
    n = len(keys)
    if j + 2 > n or toks[j].kind != "word" or toks[j + 1].kind != "word":
        return False
    k, nxt = keys[j], keys[j + 1]
    if (
        len(k) < 3
        or k.startswith(("و", "ف"))
        or is_definite(toks[j].text, k)
        or k.endswith(("ه", "ين", "ون", "ات"))
        or k in NAME_ENDERS
        or k in PREPOSITION_WORDS
        or k in COMPLEMENTISERS
        or k in NOT_NAME_PARTS
        or k in lex.num_words
        or lex.nisba(k)
        or lex.month_at(keys, j)[0]
        or lex.gaz_match(keys, j) is not None
        or (plain_word(lex, keys, toks, j) and not lex.verb_like(keys, j))  # the other readings take it
    ):
        return False
    return (
        len(nxt) >= 5
        and bare_name(lex, keys, toks, j + 1)
        and nxt[:1] not in "بلفك"
        and not lex.future_verb(nxt)
        and name_ends_before(lex, keys, toks, j + 2)
    )
