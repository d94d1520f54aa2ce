"""Resolving the layers' spans: crossing and disallowed spans dropped, depth counted; which learned spans to keep."""

from __future__ import annotations

from collections.abc import Sequence

from tahqiq.analysis.ner.cues import (
    COMPLEMENTISERS,
    CONTENT_STOP,
    DAY_PARTS,
    DAYS,
    GULF,
    LONE_UNIT_BLOCK,
    MONTH_BEFORE,
    NUMERIC_HOSTS,
    SPOKESPERSONS,
    TIME_OF_DAY,
)
from tahqiq.analysis.ner.lexicon import Lexicon
from tahqiq.analysis.ner.reading import Span
from tahqiq.analysis.ner.words import adjective_next, is_definite
from tahqiq.core import Token

# punctuation that separates clauses or list items: no learned span starts or ends on one
SEPARATORS = frozenset({":", "،", ",", ".", "؛", ";", "!", "?", "؟"})


def resolve(lex: Lexicon, toks: list[Token], keys: Sequence[str], spans: list[Span]) -> list[tuple[Span, int]]:
    """Drop crossing and disallowed spans; return (span, depth) sorted outermost first (`keys`: the tokens'
    `key`s)."""
    quantity_end = {s.j for s in spans if s.type == "QUANTITY"}
    spans = [
        s
        for s in spans
        if (s.type != "UNIT" or s.j in quantity_end or (s.j - s.i == 1 and _lone_unit_ok(lex, keys[s.i])))
        and not (s.type == "PERS" and s.rank >= 0 and lex.l_article(keys[s.i]))
        and not _not_a_name_here(lex, toks, keys, s)
    ]
    for x, s in enumerate(spans):  # … زايد للكتاب, فهد للبترول: ل with the article ends a name
        if s.type == "PERS" and s.rank >= 0 and s.j - s.i >= 2:
            cut = next((y for y in range(s.i + 1, s.j) if lex.l_article(keys[y])), s.j)
            if cut < s.j:
                spans[x] = Span(s.type, s.i, cut, s.rank)
    order = sorted(spans, key=lambda s: (s.rank, -(s.j - s.i), s.i))
    kept: list[Span] = []
    cover: list[list[Span]] = [[] for _ in toks]  # kept spans over each token
    for s in order:
        ok = True
        near = {id(o): o for x in range(s.i, s.j) for o in cover[x]}.values()
        for o in near:
            if s.i < o.j and o.i < s.j:
                same = s.i == o.i and s.j == o.j
                inside = o.i <= s.i and s.j <= o.j
                contains = s.i <= o.i and o.j <= s.j
                if same or not (inside or contains):
                    ok = False
                    break
                outer, inner = (o, s) if inside else (s, o)
                if outer.type == inner.type:
                    ok = False
                    break
                if outer.type == "PERS" or (
                    (outer.type in NUMERIC_HOSTS or outer.type in ("LAW", "PRODUCT")) and inner.type == "CARDINAL"
                ):
                    ok = False
                    break
                if (
                    outer.type in NUMERIC_HOSTS
                    and inner.type in ("GPE", "LOC", "NORP", "PERS")
                    and outer.type != "MONEY"
                ):
                    ok = False
                    break
        if ok:
            kept.append(s)
            for x in range(s.i, s.j):
                cover[x].append(s)
    kept.sort(key=lambda s: (s.i, -(s.j - s.i)))
    out: list[tuple[Span, int]] = []
    for s in kept:
        depth = sum(1 for o in cover[s.i] if o is not s and o.i <= s.i and s.j <= o.j)
        out.append((s, depth))
    return out


def _lone_unit_ok(lex: Lexicon, k: str) -> bool:
    """A unit with no number may stand alone unless it is also an everyday word, with its clitics too (ولقدم
    الجمل: the camel's foot)."""
    return not any(st in LONE_UNIT_BLOCK for st, _p in lex.stems(k))


def _not_a_name_here(lex: Lexicon, toks: list[Token], keys: Sequence[str], s: Span) -> bool:
    """باسم after a spokesperson is "on behalf of", not a person (للمتحدث باسم الوزارة); a month alone after
    a preposition or before a number is a date, not the company (في نيسان, نيسان 2026)."""
    if s.i == 0 or s.rank < 0:
        return False
    if s.type == "PERS" and keys[s.i] == "باسم":
        return bool(lex.heads(keys[s.i - 1]) & SPOKESPERSONS)
    if s.type == "NORP" and s.j - s.i == 1:  # الخليج العربي is a name, its nisba no group of people
        return GULF in lex.heads(keys[s.i - 1])
    if s.type == "ORG" and s.j - s.i == 1:
        window = keys[s.i - 1 : s.i + 2]  # the month read alone, with one word after it at most
        if lex.month_at(window, 1)[0] == 2:
            return window[0] in MONTH_BEFORE or (len(toks) > s.j and toks[s.j].kind == "number")
    return False


def keep_learned(
    lex: Lexicon, typ: str, keys: Sequence[str], toks: list[Token], spans: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    """The learned spans that hold no word the rules know ends a name (docs/design/ner.md): a verb (سيلعب, ويقيم), a
    time word (مساء, الخميس, العام); in a person's name also a noun in ا with its indefinite adjective (اتصالا
    هاتفيا) or a complementiser (بأن, أنه). A span holding one is dropped whole and the rules' span stays:
    cutting it measured worse by cross-validation. Nor may a learned span start or end on a separator (: ، . ؛)."""
    ks = list(keys)

    def ends_name(x: int) -> bool:
        k = ks[x]
        if k in lex.name_part:
            return False
        if lex.verb_like(ks, x) or k in DAY_PARTS or k in TIME_OF_DAY or k in CONTENT_STOP or k in DAYS:
            return True
        if typ == "PERS" and k in COMPLEMENTISERS:
            return True  # reported speech after a name: لين جيان بأن …, جيه دي فانس أنه …
        return typ == "PERS" and k.endswith("ا") and adjective_next(ks, toks, x)

    def ends_in_place(j: int) -> bool:
        # a definite place the name would end in is where the person is (البابا فرنسيس العراق), not a family
        # name: a bare one may be (إرلينغ هالاند)
        x = j - 1
        g = lex.gaz_match(ks, x) if is_definite(toks[x].text, ks[x]) and ks[x] not in lex.name_part else None
        return g is not None and g[0] == j and g[1] in ("GPE", "LOC")

    return [
        (i, j)
        for i, j in spans
        if toks[i].text not in SEPARATORS
        and toks[j - 1].text not in SEPARATORS  # «معلمة المادة:» ends before its colon
        and not any(ends_name(x) for x in range(i + 1, j))
        and not (typ == "PERS" and (lex.l_article(ks[i]) or (j - i >= 2 and ends_in_place(j))))
    ]
