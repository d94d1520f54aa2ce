"""Numbers and what they measure: TIME, DATE, PERCENT, MONEY, QUANTITY, CARDINAL, ORDINAL."""

from __future__ import annotations

from tahqiq.analysis.ner.cues import (
    APPROX,
    DATE_UNITS,
    DAY_PARTS,
    DAYS,
    DIGIT_ORDINAL,
    DURATION,
    MORE_LESS,
    SINGLE_DATES,
    TIME_HEAD,
    TIME_OF_DAY,
)
from tahqiq.analysis.ner.dates import date_at
from tahqiq.analysis.ner.lexicon import Lexicon
from tahqiq.analysis.ner.reading import Reading


def numbers_and_dates(lex: Lexicon, doc: Reading) -> None:
    """TIME, DATE, PERCENT, MONEY, QUANTITY, CARDINAL and ORDINAL; their tokens are claimed."""
    toks, keys, n, claimed, base_at, add = doc.toks, doc.keys, doc.n, doc.claimed, doc.base_at, doc.add
    i = 0
    while i < n:
        if claimed[i]:
            i += 1
            continue
        k = keys[i]
        # TIME: الساعة 10:30 صباحا / 10:30
        if k in TIME_HEAD or (
            toks[i].kind == "number" and i + 2 < n and toks[i + 1].text == ":" and toks[i + 2].kind == "number"
        ):
            j = i + 1 if k in TIME_HEAD else i
            if j < n and toks[j].kind == "number":
                j += 1
                if j + 1 < n and toks[j].text == ":" and toks[j + 1].kind == "number":
                    j += 2
            elif j < n and (e := lex.ordinal_at(keys, j)):
                j = e
            elif j < n and keys[j] in lex.num_words:
                j += 1
            if j > i + (1 if k in TIME_HEAD else 0):
                while j < n and keys[j] in TIME_OF_DAY | {"والنصف", "والربع", "الا", "ربعا"}:
                    j += 1
                add("TIME", i, j, 0)
                for x in range(i, j):
                    claimed[x] = True
                i = j
                continue
        # TIME: a part of the day with a day (مساء الأحد, صباح اليوم)
        if (
            k in DAY_PARTS
            and i + 1 < n
            and (keys[i + 1] in DAYS or keys[i + 1] in SINGLE_DATES or keys[i + 1] in ("اليوم", "الغد"))
        ):
            add("TIME", i, i + 2, 0)
            claimed[i] = claimed[i + 1] = True
            i += 2
            continue
        if k in DAY_PARTS and i + 1 < n and toks[i + 1].kind == "number":
            add("TIME", i, i + 1, 0)  # مساء 14 أوت
            claimed[i] = True
            i += 1
            continue
        # TIME: durations (8 دقائق و6 ثوان)
        ne = lex.number_at(toks, keys, i)
        if ne and ne < n and keys[ne] in DURATION:
            j = ne + 1
            while j + 1 < n and keys[j][:1] == "و" and keys[j][1:].isdigit() and keys[j + 1] in DURATION:
                j += 2
            add("TIME", i, j, 0)
            for x in range(i, j):
                claimed[x] = True
            i = j
            continue
        # DATE
        d = date_at(lex, toks, keys, i)
        if d:
            j, inner = d
            add("DATE", i, j, 0)
            if inner:
                add("ORDINAL", inner[0], inner[1], 1)
            for x in range(i, j):
                claimed[x] = True
            i = j
            continue
        lead = 0  # أكثر من, نحو: part of the number that follows
        if k in APPROX and i + 1 < n:
            lead = 1
        elif k in MORE_LESS and i + 2 < n and keys[i + 1] == "من":
            lead = 2
        num_end = lex.number_at(toks, keys, i + lead) if lead else lex.number_at(toks, keys, i)
        if lead and not num_end:
            lead = 0
        if num_end and num_end < n and keys[num_end] in DATE_UNITS:
            add("DATE", i, num_end + 1, 0)  # 30 عاما, خمسة أيام
            for x in range(i, num_end + 1):
                claimed[x] = True
            i = num_end + 1
            continue
        if num_end:
            j = num_end
            # PERCENT
            if j < n and (keys[j] in ("%", "٪") or toks[j].text in ("%", "٪")):
                add("PERCENT", i, j + 1, 0)
                i = j + 1
                continue
            pe = 0
            for s in lex.pct:
                if tuple(keys[j : j + len(s)]) == s:
                    pe = j + len(s)
                    break
            if pe:
                add("PERCENT", i, pe, 0)
                i = pe
                continue
            cur = [s for s in base_at.get(j, []) if s.type == "CURR"]
            if cur:
                e = cur[0].j
                norp = [s for s in base_at.get(e, []) if s.type == "NORP"]
                if norp:
                    cur[0].j = norp[0].j
                    e = cur[0].j
                add("MONEY", i, e, 0)
                i = e
                continue
            unit = [s for s in base_at.get(j, []) if s.type == "UNIT"]
            if unit:
                add("QUANTITY", i, unit[0].j, 0)
                i = unit[0].j
                continue
            add("CARDINAL", i, j, 2)
            i = j
            continue
        o = i + 1 if DIGIT_ORDINAL.match(k) else lex.ordinal_at(keys, i)
        if o:
            add("ORDINAL", i, o, 2)
            i = o
            continue
        i += 1
