"""Dates over tokens: day, month and year in any order and calendar, ranges, decades, relative dates."""

from __future__ import annotations

from tahqiq.analysis.ner.cues import (
    DATE_PREFIX,
    DAY_HEAD,
    DAYS,
    MONTH_HEAD,
    OF,
    RANGE_LINK,
    RELATIVE_DATE,
    RELATIVE_HEAD,
    SEASONS,
    SINGLE_DATES,
    YEAR_HEAD,
    YEAR_MARK,
)
from tahqiq.analysis.ner.lexicon import Lexicon
from tahqiq.core import Token


def date_at(lex: Lexicon, toks: list[Token], keys: list[str], i: int) -> tuple[int, tuple[int, int] | None] | None:
    n = len(toks)
    k = keys[i]
    if k in DATE_PREFIX and i + 1 < n:
        inner_date = date_at(lex, toks, keys, i + 1)
        if inner_date:
            return inner_date[0], inner_date[1]
        return None
    # ranges: من 6 إلى 17 تشرين الثاني, يومي 12 و13 شتنبر
    r = i + 1 if k in ("من", "بين", "يومي") else i
    if r + 2 < n and toks[r].kind == "number" and len(keys[r]) <= 2:
        x = r + 1
        if x < n and keys[x] in RANGE_LINK and x + 1 < n and toks[x + 1].kind == "number":
            x += 2
        elif x < n and keys[x][:1] == "و" and keys[x][1:].isdigit() and len(keys[x]) <= 3:
            x += 1
        if x > r + 1 and x < n and (m := lex.month_at(keys, x))[0]:
            j = m[0]
            if j < n and toks[j].kind == "number" and len(keys[j]) == 4:
                j += 1
                if j < n and keys[j] in YEAR_MARK:
                    j += 1  # من 2 إلى 9 شوال 1445 هـ
            return j, None
        if r > i and (cross := month_range(lex, toks, keys, r)):
            return cross, None
        if r > i:
            return None
    # quarters and centuries: الربع الثالث, القرن السادس الميلادي
    for st, _p in lex.stems(k):
        if st in ("الربع", "القرن") and i + 1 < n and (o := lex.ordinal_at(keys, i + 1)):
            e = o
            if e < n and keys[e] in ("الميلادي", "الهجري", "للميلاد", "قبل"):
                e += 1
            elif e + 1 < n and keys[e] == "من" and keys[e + 1] in ("العام", "السنه"):
                e += 2  # الربع الأول من العام (الجاري)
                if e < n and keys[e] in RELATIVE_DATE:
                    e += 1
            return e, (i + 1, o)  # the ordinal stays an ORDINAL inside the date (docs/design/ner.md)
    inner: tuple[int, int] | None = None
    j = i
    day = False
    if k in DAY_HEAD and i + 1 < n and keys[i + 1] in DAYS:
        j = i + 2
        if j < n and keys[j][:1] == "و" and keys[j][1:] in DAYS:
            return j + 1, None  # يومي الأربعاء والخميس
        if j < n and _day_of_month_at(lex, toks, keys, j) and (d := date_at(lex, toks, keys, j)):
            return d  # يوم السبت 18 ماي, يوم الخميس الخامس عشر من تشرين الأول (its ORDINAL inside)
        return (j + 1 if j < n and keys[j] in RELATIVE_DATE else j), None  # يوم الثلاثاء المقبل
    elif k in DAYS or any(s in DAYS for s, p in lex.stems(k) if p):
        if i + 1 < n and _day_of_month_at(lex, toks, keys, i + 1) and (d := date_at(lex, toks, keys, i + 1)):
            return d  # الأحد 5 تشرين الأول, as يوم السبت 18 ماي
        return (i + 2 if i + 1 < n and keys[i + 1] in RELATIVE_DATE else i + 1), None  # السبت الماضي
    elif k in DAY_HEAD and i + 1 < n and (toks[i + 1].kind == "number" or lex.ordinal_at(keys, i + 1)):
        j = i + 1  # يوم 5 يونيو, يوم الخامس من تموز
    elif k in SINGLE_DATES or any(s in SINGLE_DATES for s, p in lex.stems(k) if p):
        return i + 1, None
    # a day number or an ordinal day (فاتح: the first, in Morocco)
    if j < n and ((toks[j].kind == "number" and len(keys[j]) <= 2) or keys[j] == "فاتح"):
        j2 = j + 1
        if j2 < n and keys[j2] in OF:
            j2 += 1
        if j2 < n and lex.month_at(keys, j2)[0]:
            j = j2
    elif j < n and (o := lex.ordinal_at(keys, j)):
        j2 = o
        if j2 < n and keys[j2] in OF:
            j2 += 1
        if j2 < n and lex.month_at(keys, j2)[0]:
            inner = (j, o)
            j = j2
    month_head = False
    if j < n and keys[j] in MONTH_HEAD:
        month_head = True
        j += 1
    m_end, strong = lex.month_at(keys, j) if j < n else (0, False)
    if m_end:
        explicit = j > i or month_head
        j = m_end
        if j < n and keys[j] in RELATIVE_DATE:
            return j + 1, inner
        if j < n and toks[j].kind == "number" and len(keys[j]) in (3, 4):
            j += 1
            if j < n and keys[j] in YEAR_MARK:
                j += 1
            return j, inner
        if strong or explicit:
            if month_head and not strong and j - 1 == i:
                return None
            return j, inner
        return None
    if day:
        return j, None
    year_head = k in YEAR_HEAD or any(st in YEAR_HEAD for st, p in lex.stems(k) if p)
    if year_head and i + 1 < n and toks[i + 1].kind == "number" and len(keys[i + 1]) == 4:
        j = i + 2
        if j < n and keys[j] in YEAR_MARK:
            j += 1
        return j, None
    if k in RELATIVE_HEAD and i + 1 < n and keys[i + 1] in RELATIVE_DATE:
        return i + 2, None
    if any(st in SEASONS for st, _p in lex.stems(k)) and i + 1 < n and toks[i + 1].kind == "number":
        if len(keys[i + 1]) == 4:
            return i + 2, None  # صيف 2026
    if (
        toks[i].kind == "number"
        and len(keys[i]) == 4
        and keys[i].isdigit()
        and 1950 <= int(keys[i]) <= 2035
        and not (i + 1 < n and (keys[i + 1] in ("%", "٪") or lex.gaz_match(keys, i + 1) is not None))
        and not (i + 1 < n and keys[i + 1] in lex.mult)
        and not (i > 0 and toks[i - 1].text in "-/.,:")
    ):
        j = i + 1
        if j < n and keys[j] in YEAR_MARK:
            j += 1
        return j, None
    return None


def _day_of_month_at(lex: Lexicon, toks: list[Token], keys: list[str], j: int) -> bool:
    """Token j may open a date of its own after a weekday: a day's number or an ordinal (الخامس عشر من تشرين)."""
    return toks[j].kind == "number" or bool(lex.ordinal_at(keys, j))


def month_range(lex: Lexicon, toks: list[Token], keys: list[str], r: int) -> int:
    """End of a range across two months from its first day at token r, after من or بين (0 when none): a day,
    its month, إلى/حتى or و on the second day, that day's month and a year (بين 29 تشرين الأول و6 تشرين
    الثاني 2018, من 26 أيلول إلى 5 تشرين الأول)."""
    n = len(toks)
    x = lex.month_at(keys, r + 1)[0]
    if not x or x >= n:
        return 0
    if keys[x] in RANGE_LINK and x + 1 < n and toks[x + 1].kind == "number" and len(keys[x + 1]) <= 2:
        y = x + 2
    elif keys[x][:1] == "و" and keys[x][1:].isdigit() and len(keys[x]) <= 3:
        y = x + 1
    else:
        return 0
    j = lex.month_at(keys, y)[0] if y < n else 0
    if not j:
        return 0
    if j < n and toks[j].kind == "number" and len(keys[j]) == 4:
        j += 1
    return j
