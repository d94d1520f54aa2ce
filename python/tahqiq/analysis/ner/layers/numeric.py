"""Numbers and what they measure: TIME, DATE, PERCENT, MONEY, QUANTITY, CARDINAL, ORDINAL."""

from __future__ import annotations

from tahqiq.analysis.ner.cues import (
    APPROX,
    DATE_UNITS,
    DAY_PARTS,
    DAYS,
    DIGIT_ORDINAL,
    DUAL_DATE,
    DUAL_TIME,
    DURATION,
    EVERY_WORD,
    FRACTION_WORDS,
    LONE_ONE,
    MORE_LESS,
    ONE_DATE,
    ONE_TIME,
    RELATIVE_DATE,
    SINGLE_DATES,
    TIME_HEAD,
    TIME_OF_DAY,
    TIME_UNIT_ORDINAL,
)
from tahqiq.analysis.ner.dates import date_at
from tahqiq.analysis.ner.lexicon import Lexicon
from tahqiq.analysis.ner.reading import Reading


def numbers_and_dates(lex: Lexicon, doc: Reading) -> None:
    """TIME, DATE, PERCENT, MONEY, QUANTITY, CARDINAL and ORDINAL, left to right; their tokens are claimed. Each
    reader below returns where the entity it found ends, or 0; the cheap tests in front of the first two keep
    most words from a call, and the number a duration and an amount both start with is read once."""
    toks, keys = doc.toks, doc.keys
    i = 0
    while i < doc.n:
        if doc.claimed[i]:
            i += 1
            continue
        k = keys[i]
        end = 0
        if k in TIME_HEAD or toks[i].kind == "number":
            end = _clock_time(lex, doc, i)
        elif k.endswith("ه") and i + 1 < doc.n and doc.plain_key(i + 1) in HOUR_AFTER:
            _hour_by_its_ordinal(lex, doc, i)  # the TIME, then the ORDINAL inside it below
        if not end and k in DAY_PARTS:
            end = _part_of_day(doc, i)
        if not end:
            number_end = lex.number_at(toks, keys, i)
            end = (
                _dual_duration(lex, doc, i, number_end)
                or _one_and_a_fraction(lex, doc, i)
                or _duration(doc, i, number_end)
                or _date(lex, doc, i)
                or _amount(lex, doc, i, number_end)
                or _ordinal(lex, doc, i)
            )
        i = end or i + 1


def _claim(doc: Reading, i: int, j: int) -> int:
    for x in range(i, j):
        doc.claimed[x] = True
    return j


def _clock_time(lex: Lexicon, doc: Reading, i: int) -> int:
    """TIME: الساعة 10:30 صباحا, 10:30."""
    toks, keys, n = doc.toks, doc.keys, doc.n
    k = keys[i]
    if not (
        k in TIME_HEAD
        or (toks[i].kind == "number" and i + 2 < n and toks[i + 1].text == ":" and toks[i + 2].kind == "number")
    ):
        return 0
    j = i + 1 if k in TIME_HEAD else i
    if j < n and toks[j].kind == "number":
        j += 1
        if j + 1 < n and toks[j].text == ":" and toks[j + 1].kind == "number":
            j += 2
    elif j < n and (e := lex.ordinal_at(keys, j)):
        j = e
    elif j < n and keys[j] in lex.num_words:
        j += 1
    if j <= i + (1 if k in TIME_HEAD else 0):
        return 0
    j = _time_of_day_after(doc, j)
    doc.add("TIME", i, j, 0)
    return _claim(doc, i, j)


CLOCK_FRACTIONS = frozenset({"والنصف", "والربع", "الا", "ربعا"})
HOUR_RANGE_LINKS = frozenset({"الي", "حتي"})
# what may follow an hour's ordinal of one word (الحادية عشرة has two: its ordinal_at reads it whole)
PART_OF_DAY_OR_MINUTES = TIME_OF_DAY | CLOCK_FRACTIONS
HOUR_AFTER = PART_OF_DAY_OR_MINUTES | HOUR_RANGE_LINKS | {"بعد", "قبل", "عشره"}


def _time_of_day_after(doc: Reading, j: int) -> int:
    """The end of what says the half of the day or the minutes after a clock time's hour at token j: صباحا,
    والنصف, إلا ربعا, بعد الظهر, بعد منتصف الليل."""
    keys, n = doc.keys, doc.n
    while j < n and keys[j] in PART_OF_DAY_OR_MINUTES:
        j += 1
    if j + 1 < n and keys[j] in ("بعد", "قبل") and keys[j + 1] in ("الظهر", "الظهيره"):
        j += 2  # الساعة الثانية بعد الظهر: the half of the day is the time's, as صباحا is
    elif j + 2 < n and keys[j] in ("بعد", "قبل") and keys[j + 1] == "منتصف" and keys[j + 2] in ("الليل", "النهار"):
        j += 3  # الساعة الثانية بعد منتصف الليل, as بعد الظهر
    return j


def _hour_by_its_ordinal(lex: Lexicon, doc: Reading, i: int) -> None:
    """TIME without الساعة: a feminine ordinal (the hour's) right before a part of the day or the minutes (في
    الثامنة صباحا, الثالثة بعد الظهر, السابعة والنصف), holding the ORDINAL, which is read next (the everyday
    headers: السابعة صباحا ⊃ ORDINAL السابعة); a range to another hour is one TIME (من الثامنة صباحا حتى الرابعة
    عصرا); nothing is claimed."""
    e = _hour_at(lex, doc, i)
    if not e:
        return
    j = _time_of_day_after(doc, e)
    if j + 1 < doc.n and doc.plain_key(j) in HOUR_RANGE_LINKS and (last := _hour_at(lex, doc, j + 1)):
        end = _time_of_day_after(doc, last)
        if j > e or end > last:  # a part of the day at either end says they are hours
            j = end  # «من التاسعة صباحا إلى الحادية عشرة», «من التاسعة حتى الواحدة ظهرا»: one range, من outside
    if j > e:
        doc.add("TIME", i, j, 0)


def _hour_at(lex: Lexicon, doc: Reading, i: int) -> int:
    """The end of an hour named by its feminine ordinal at token i (الثامنة, الحادية عشرة) or by الواحدة, else 0."""
    if doc.keys[i] == "الواحده":
        return i + 1
    e = lex.ordinal_at(doc.keys, i)
    return e if e and doc.keys[e - 1].endswith("ه") else 0


def _part_of_day(doc: Reading, i: int) -> int:
    """TIME: a part of the day with a day (مساء الأحد, صباح اليوم, مساء الخميس المقبل, صباح يوم الجمعة) or before a
    date's number (مساء 14 أوت)."""
    toks, keys, n = doc.toks, doc.keys, doc.n
    if keys[i] not in DAY_PARTS or i + 1 >= n:
        return 0
    if keys[i + 1] == "يوم" and i + 2 < n and keys[i + 2] in DAYS:
        # صباح يوم الجمعة (الماضي): the day with its head, one TIME as صباح الجمعة
        end = i + 4 if i + 3 < n and keys[i + 3] in RELATIVE_DATE else i + 3
        doc.add("TIME", i, end, 0)
        return _claim(doc, i, end)
    if keys[i + 1] in DAYS or keys[i + 1] in SINGLE_DATES or keys[i + 1] in ("اليوم", "الغد"):
        # a day's relative word goes with it, as in a DATE (مساء الخميس المقبل, صباح السبت الماضي)
        end = i + 3 if keys[i + 1] in DAYS and i + 2 < n and keys[i + 2] in RELATIVE_DATE else i + 2
        doc.add("TIME", i, end, 0)
        return _claim(doc, i, end)
    if toks[i + 1].kind == "number":
        doc.add("TIME", i, i + 1, 0)
        return _claim(doc, i, i + 1)
    return 0


def _dual_duration(lex: Lexicon, doc: Reading, i: int, ne: int) -> int:
    """TIME or DATE: a duration's noun in the dual, no number before it (cues `dual_time`, `dual_date`: ساعتين,
    يومين, لمدة شهرين → شهرين, دون السنتين), that morphology in context reads as a noun; the everyday headers
    count it, as a number word would. Without morphology (the learned layer's training) no dual is read."""
    if ne or not doc.keys[i].endswith(("ين", "ان")) or not doc.read_as(i, NOUN):
        return 0
    stems = lex.bare_heads(doc.keys[i])
    typ = "TIME" if stems & DUAL_TIME else "DATE" if stems & DUAL_DATE else ""
    if not typ:
        return 0
    j = i + 1
    if j < doc.n and doc.keys[j] in DUAL_AFTER:
        j += 1  # ساعتين ونصف, الأسبوعين القادمين
    elif j + 1 < doc.n and doc.keys[j] == "الا" and doc.keys[j + 1] == "ربعا":
        j += 2  # ساعتين إلا ربعا
    doc.add(typ, i, j, 0)
    return _claim(doc, i, j)


NOUN = frozenset({"noun"})
DUAL_AFTER = frozenset({"ونصف", "وربع", "القادمين", "الماضيين", "المقبلين", "الاخيرين"})
AND_A_FRACTION = frozenset({"ونصف", "ونصفا", "وربع", "وربعا"})


def _one_and_a_fraction(lex: Lexicon, doc: Reading, i: int) -> int:
    """One of a unit, a currency or a span of time and a half or a quarter: QUANTITY ⊃ UNIT (لترا ونصفا, ولتر ونصف,
    which morphology may read as a verb), MONEY ⊃ CURR (بدينار ونصف), and, read in context as a noun, TIME below a
    day and DATE from a day up (cues `one_time`, `one_date`: ساعة ونصف, سنة ونصف), as the everyday headers count
    them. Without morphology (the learned layer's training) none is read."""
    if i + 1 >= doc.n or doc.keys[i + 1] not in AND_A_FRACTION or doc.context[i] is None:
        return 0
    inner = [s for s in doc.base_at.get(i, []) if s.j == i + 1 and s.type in ("UNIT", "CURR")]
    if inner:
        typ = "QUANTITY" if inner[0].type == "UNIT" else "MONEY"
    elif doc.read_as(i, NOUN):
        stems = lex.bare_heads(doc.keys[i])
        typ = "TIME" if stems & ONE_TIME else "DATE" if stems & ONE_DATE else ""
    else:
        typ = ""
    if not typ:
        return 0
    doc.add(typ, i, i + 2, 0)
    return _claim(doc, i, i + 2)


def _duration(doc: Reading, i: int, ne: int) -> int:
    """TIME: a duration (8 دقائق و6 ثوان); `ne`: the end of the number that token i opens, or that an approximator
    at i leads (0 when none)."""
    keys, n = doc.keys, doc.n
    if not (ne and ne < n and keys[ne] in DURATION):
        return 0
    j = ne + 1
    while j + 1 < n and keys[j][:1] == "و" and keys[j][1:].isdigit() and keys[j + 1] in DURATION:
        j += 2
    doc.add("TIME", i, j, 0)
    return _claim(doc, i, j)


def _date(lex: Lexicon, doc: Reading, i: int) -> int:
    """DATE (``dates.date_at``), with the ordinal of its day inside."""
    d = date_at(lex, doc.toks, doc.keys, i)
    if not d:
        return 0
    j, inner = d
    doc.add("DATE", i, j, 0)
    if inner:
        doc.add("ORDINAL", inner[0], inner[1], 1)
    return _claim(doc, i, j)


def _amount(lex: Lexicon, doc: Reading, i: int, number_end: int) -> int:
    """A number and what it counts: a span of time (DATE: 30 عاما), PERCENT, MONEY (with its currency's nisba),
    QUANTITY, or else a CARDINAL; أكثر من, نحو before it are part of it (`number_end`: the end of a number at i)."""
    toks, keys, n, base_at, add = doc.toks, doc.keys, doc.n, doc.base_at, doc.add
    k = keys[i]
    lead = 0
    if k in APPROX and i + 1 < n:
        lead = 1
    elif k in MORE_LESS and i + 2 < n and keys[i + 1] == "من":
        lead = 2
    num_end = lex.number_at(toks, keys, i + lead) if lead else number_end
    if not num_end:
        return _fraction_of_a_currency(lex, doc, i)
    if num_end < n and keys[num_end] in DATE_UNITS:
        add("DATE", i, num_end + 1, 0)  # 30 عاما, خمسة أيام
        return _claim(doc, i, num_end + 1)
    if lead and num_end < n and keys[num_end] in DURATION:
        return _duration(doc, i, num_end)  # نحو خمس ساعات, as نحو خمسة أيام
    j = num_end
    if j < n and (keys[j] in ("%", "٪") or toks[j].text in ("%", "٪")):
        add("PERCENT", i, j + 1, 0)
        return j + 1
    for s in lex.pct:
        if tuple(keys[j : j + len(s)]) == s:
            add("PERCENT", i, j + len(s), 0)
            return j + len(s)
    cur = [s for s in base_at.get(j, []) if s.type == "CURR"]
    if cur:
        e = cur[0].j
        norp = [s for s in base_at.get(e, []) if s.type == "NORP"]
        if norp:
            cur[0].j = norp[0].j
            e = cur[0].j
        if e + 1 < n and keys[e][:1] == "و" and keys[e][1:].isdigit():
            more = [s for s in base_at.get(e + 1, []) if s.type == "CURR"]
            if more:
                e = more[0].j  # 7 دنانير و500 فلس: one price in two units, each CURR inside
        add("MONEY", i, e, 0)
        return e
    unit = [s for s in base_at.get(j, []) if s.type == "UNIT"]
    if unit:
        add("QUANTITY", i, unit[0].j, 0)
        return unit[0].j
    if j - i == 1 and any(st in LONE_ONE for st, _p in lex.stems(k)):
        return 0  # غرفة واحدة, كل واحد: "one" alone is no CARDINAL
    add("CARDINAL", i, j, 2)
    return j


def _fraction_of_a_currency(lex: Lexicon, doc: Reading, i: int) -> int:
    """MONEY: a fraction (cues `fraction_word`, a clitic allowed) right before a currency: «بنصف دينار» "for half a
    dinar", as «بدينار ونصف» is one."""
    # every token without a number comes here: the currency after it is the cheap test, so it goes first
    cur = [s for s in doc.base_at.get(i + 1, []) if s.type == "CURR"]
    if not cur or not any(st in FRACTION_WORDS for st, _p in lex.stems(doc.keys[i])):
        return 0
    doc.add("MONEY", i, cur[0].j, 0)
    return cur[0].j


def _ordinal(lex: Lexicon, doc: Reading, i: int) -> int:
    """ORDINAL: in words (الثالث, الحادي عشر) or in digits with the article (الـ25)."""
    keys = doc.keys
    o = i + 1 if DIGIT_ORDINAL.match(keys[i]) else lex.ordinal_at(keys, i)
    if (
        o == i + 1
        and lex.heads(keys[i]) & TIME_UNIT_ORDINAL
        and ((i > 0 and keys[i - 1] in EVERY_WORD) or (o < doc.n and keys[o] in LONE_ONE))
    ):
        return 0  # كل ثانية, (ب)ثانية واحدة: the second of time
    if o:
        doc.add("ORDINAL", i, o, 2)
    return o
