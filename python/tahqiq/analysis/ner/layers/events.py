"""Events and laws named by their head and name, an edition, a host city, a race or a war."""

from __future__ import annotations

import itertools

from tahqiq.analysis.ner.cues import (
    AGREEMENTS,
    ANNIVERSARY,
    BALL_GAMES,
    CONTENT_STOP,
    EVENT_NOUNS,
    EVENT_PREFIX,
    EVENT_REGIONS,
    NAME_ADJ,
    NOT_COMPLEMENTS,
    QUALIFYING,
    RACE_HEADS,
    RACE_STYLES,
    RELATIVE_DATE,
    SEASON_HEADS,
    WAR_HEADS,
)
from tahqiq.analysis.ner.lexicon import Lexicon
from tahqiq.analysis.ner.reading import Reading, Span
from tahqiq.analysis.ner.words import bare_name
from tahqiq.core import Token


def name_adjective(lex: Lexicon, keys: list[str], toks: list[Token], j: int) -> bool:
    """A definite adjective that goes on an event's or law's name (المشتركة, المتوسطي, الكبرى): a listed one
    or one in ي/ية that is no function word, head, date word or ordinal."""
    k = keys[j]
    if toks[j].kind != "word" or not k.startswith("ال"):
        return False
    if k in NAME_ADJ:
        return True
    return (
        k.endswith(("ي", "يه"))
        and len(k) > 5
        and k not in CONTENT_STOP
        and k not in lex.stop
        and k not in RELATIVE_DATE
        and lex.trigger_at(keys, j) is None
        and not lex.ordinal_at(keys, j)
    )


def event_and_law_names(lex: Lexicon, doc: Reading) -> None:
    """What goes on an event's or law's name past its head's complement (docs/design/ner.md): up to two adjectives
    (القمة العربية الإسلامية المشتركة, اتفاقية التجارة الحرة العربية الكبرى); for a law, the states of an
    agreement (بين الإمارات والهند) and its subject after بشأن (… بشأن تغير المناخ); a head before an event
    (بطولة كأس الأمم الأفريقية, سباق جائزة السعودية الكبرى للفورمولا 1). What a law is about after المتعلق ب
    stays outside it (القانون رقم 43.22 المتعلق بالعقوبات البديلة), as the gold has it."""
    keys, toks, heads_of, spans, base_at = doc.keys, doc.toks, doc.heads_of, doc.spans, doc.base_at
    n = len(keys)
    named = [s for s in spans if s.type in ("EVENT", "LAW")]
    for sp in named:
        e = sp.j
        while e < n and e - sp.j < 2 and name_adjective(lex, keys, toks, e):
            e += 1
        if sp.type == "LAW" and e + 2 < n:
            head = lex.heads(keys[sp.i])
            if keys[e] == "بين" and keys[e + 2][:1] == "و":
                first = [o for o in base_at.get(e + 1, []) if o.type == "GPE"]
                second = [o for o in base_at.get(e + 2, []) if o.type == "GPE"] if first else []
                if first and second and max(o.j for o in first) == e + 2:
                    e = max(o.j for o in second)
            elif keys[e] == "بشان" and head & AGREEMENTS:
                f = e + 1
                while f < n and f - e <= 3 and toks[f].kind == "word" and keys[f] not in lex.stop:
                    if keys[f] in CONTENT_STOP or (f > e + 1 and keys[f][:1] in "وبلف"):  # a noun: تغير المناخ
                        break
                    f += 1
                if f > e + 1:
                    e = f
        if sp.type == "EVENT" and e > sp.j:
            while e < n and keys[e].startswith("لل") and len(keys[e]) > 4 and lex.trigger_at(keys, e) is None:
                e += 1  # سباق جائزة السعودية الكبرى للفورمولا 1
                if e < n and toks[e].kind == "number" and keys[e - 1].startswith("لل"):
                    e += 1
        sp.j = e
    for sp in [s for s in named if s.type == "EVENT" and s.i > 0]:
        p = sp.i - 1
        if toks[p].kind == "word" and heads_of[p] & EVENT_PREFIX:
            spans.append(Span("EVENT", p, sp.j, 0))
    events = {s.i: s for s in spans if s.type == "EVENT"}
    for sp in [s for s in named if s.type == "EVENT"]:
        nxt = events.get(sp.j + 1)
        if nxt and keys[sp.j] in QUALIFYING and keys[sp.j + 1].startswith("ل"):
            spans.append(Span("EVENT", sp.i, nxt.j, 0))  # التصفيات الآسيوية المؤهلة لكأس العالم
    for q in range(n - 1):
        # a season named by its city (موسم الرياض); a feast's name with ل after an anniversary (الذكرى
        # الثانية والستين للاستقلال)
        if heads_of[q] & SEASON_HEADS and (city := [o for o in base_at.get(q + 1, []) if o.type == "GPE"]):
            spans.append(Span("EVENT", q, max(o.j for o in city), 0))
        elif (
            keys[q + 1].startswith("لل")
            and "ال" + keys[q + 1][2:] in EVENT_NOUNS
            and any(ANNIVERSARY in lex.heads(k) for k in keys[max(0, q - 3) : q + 1])
        ):
            spans.append(Span("EVENT", q + 1, q + 2, 0))


def event_tails(lex: Lexicon, doc: Reading) -> None:
    """A listed event ending in a region or العالم takes its ل complement (كأس العالم للأندية, كأس العرب لكرة
    القدم) and a bare year (كأس آسيا 2027; not after عام, which dates the sentence), as built ones do."""
    keys, toks, spans = doc.keys, doc.toks, doc.spans
    n = len(keys)
    for sp in [s for s in spans if s.type == "EVENT" and s.j < n]:
        j = sp.j
        if keys[j - 1] in EVENT_REGIONS:
            k = keys[j]
            if k.startswith("لل") and len(k) >= 5 and k[2:] not in CONTENT_STOP and k not in NOT_COMPLEMENTS:
                j += 1
            elif k.startswith("ل") and j + 1 < n and keys[j + 1] in BALL_GAMES:
                j += 2
        if (
            j < n
            and toks[j].kind == "number"
            and len(keys[j]) == 4
            and keys[j].isdigit()
            and 1950 <= int(keys[j]) <= 2040
            and toks[j - 1].kind == "word"
        ):
            j += 1
        if j > sp.j and not any(o.i < j <= o.j - 1 and o.i >= sp.j for o in spans if o.type == "EVENT"):
            sp.j = j


def editions(lex: Lexicon, doc: Reading) -> None:
    """An edition of an event: الدورة الثامنة والثلاثين لمهرجان جرش, الدورة السادسة من مهرجان القاهرة."""
    keys, spans, add = doc.keys, doc.spans, doc.add
    events = sorted((s for s in spans if s.type == "EVENT"), key=lambda s: s.i)
    for ev1, ev2 in itertools.pairwise(events):
        link = ev2.i - ev1.j
        if (link == 0 and keys[ev2.i].startswith("ل")) or (link == 1 and keys[ev1.j] == "من"):
            add("EVENT", ev1.i, ev2.j, 0)


def host_cities(lex: Lexicon, doc: Reading) -> None:
    """An event with the city it is held in attached (دورة الألعاب الأولمبية بباريس)."""
    toks, keys, spans, base_at = doc.toks, doc.keys, doc.spans, doc.base_at
    for sp in [s for s in spans if s.type == "EVENT"]:
        host = [o for o in base_at.get(sp.j, []) if o.type == "GPE"]
        # not after a lone head (مؤتمر بأبوظبي), nor after a name that holds a place or a name of its own
        # (منتدى دافوس الاقتصادي بسويسرا; a continent is no such place: بطولة آسيا لألعاب القوى بالدوحة)
        named = (
            sp.j - sp.i < 2
            or any(o is not sp and o.type in ("GPE", "PERS") and sp.i < o.i and o.j <= sp.j for o in spans)
            or any(bare_name(lex, keys, toks, x) and not keys[x].startswith("ل") for x in range(sp.i + 1, sp.j))
        )
        if host and keys[sp.j].startswith("ب") and not keys[sp.j].startswith("بين") and not named:
            sp.j = max(o.j for o in host)


def races_and_wars(lex: Lexicon, doc: Reading) -> None:
    """An event named by its race and distance (سباق 800 متر حرة) or by its war and date (حرب حزيران 1967)."""
    toks, keys, n, spans, add, heads_of = doc.toks, doc.keys, doc.n, doc.spans, doc.add, doc.heads_of
    for q in range(n - 1):
        race, war = heads_of[q] & RACE_HEADS, heads_of[q] & WAR_HEADS
        if not (race or war) or toks[q].kind != "word":
            continue
        nxt = [o for o in spans if o.i == q + 1]
        if race and (qty := [o for o in nxt if o.type == "QUANTITY"]):
            e = max(o.j for o in qty)
            if e < n and keys[e] in RACE_STYLES:
                e += 1
            add("EVENT", q, e, 0)
        elif war and (dated := [o for o in nxt if o.type == "DATE"]):
            add("EVENT", q, max(o.j for o in dated), 0)
