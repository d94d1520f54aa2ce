"""Places: natural places by their head, regions, towns, capitals and states."""

from __future__ import annotations

from tahqiq.analysis.ner.cues import (
    CAPITAL_WORDS,
    COMPASS_NOUNS,
    CONTENT_STOP,
    GPE_PREFIX,
    NATURAL_ADJ,
    NATURAL_CUES,
    NATURAL_HEADS,
    NATURAL_HEADS_LISTED,
    PLACE_WORDS,
    SETTLEMENT_HEADS,
    STATE_FORMS,
    WATER_HEADS_DEFINITE,
)
from tahqiq.analysis.ner.lexicon import Lexicon
from tahqiq.analysis.ner.reading import FUNCTION_POS, Reading, Span
from tahqiq.analysis.ner.words import is_definite, plain_word
from tahqiq.core import normalize

ADJECTIVE = frozenset({"adj"})


def natural_places(lex: Lexicon, doc: Reading) -> None:
    """Natural places by their head and name, one LOC each (docs/design/ner.md): a head such as نهر, جبل, مضيق, صحراء
    and a listed place, a definite name (جبال الأطلس) or an unlisted word (مضيق هرمز), then up to two adjectives of
    the name or a nisba (صحراء الربع الخالي, جبال الأطلس المغربية); a compass word before a listed region
    (جنوب شرق آسيا, غرب أفريقيا)."""
    keys, toks, heads_of, spans, base_at = doc.keys, doc.toks, doc.heads_of, doc.spans, doc.base_at
    n = len(keys)
    for q in range(n - 1):
        heads = heads_of[q]
        if not heads & NATURAL_CUES or toks[q].kind != "word":
            continue  # one set test for most words
        if heads & COMPASS_NOUNS:
            w = q + 2 if heads_of[q + 1] & COMPASS_NOUNS and q + 2 < n else q + 1
            region = [o for o in base_at.get(w, []) if o.type == "LOC"]
            if (
                region
                and not keys[q].startswith("ال")
                and not keys[w].endswith("ي")  # حلف شمال الأطلسي: an adjective, not the region
                and not any(o.type == "GPE" for o in base_at.get(q, []))
            ):
                spans.append(Span("LOC", q, max(o.j for o in region), 0))
            continue
        listed_only = bool(heads & NATURAL_HEADS_LISTED)
        w = q + 1
        if heads & WATER_HEADS_DEFINITE:
            water = next((x for x in (2, 1) if w + x <= n and " ".join(keys[w : w + x]) in lex.water_names), 0)
            if water:
                spans.append(Span("LOC", q, w + water, 0))  # البحر الأصفر, المحيط الهادي
            continue
        if not (heads & NATURAL_HEADS or listed_only):
            if not (heads_of[w] & {"جبال"} and w + 1 < n):
                continue
            w += 1  # سلسلة جبال الأطلس
        named = [o for o in base_at.get(w, []) if o.type in ("GPE", "LOC", "PERS", "FAC")]
        k = keys[w]
        water = next((x for x in (2, 1) if w + x <= n and " ".join(keys[w : w + x]) in lex.water_names), 0)
        if water and not named:
            e = w + water  # خليج جيمس, بحر مرمرة: a sea's name the installed list knows only with its head
        elif named:
            # a person's name ends at its first word here (بجبل موسى بطول 12 كيلومترا)
            e = w + 1 if all(o.type == "PERS" for o in named) else max(o.j for o in named if o.type != "PERS")
        elif listed_only or toks[w].kind != "word" or k in lex.stop or len(k) < 2:
            continue
        elif doc.read_as(w, FUNCTION_POS):
            continue  # «سفح جبل قرب مدينة إفران»: near, no mountain's name
        elif not is_definite(toks[w].text, k) and (doc.read_as(w, ADJECTIVE) or (k[0] == "و" and doc.read_common(w))):
            continue  # «تحت جبل عال» "a high mountain", «جزيرة وخليج ونهر»: a common noun and what describes it
        elif is_definite(toks[w].text, k):
            if k in CONTENT_STOP or lex.trigger_at(keys, w) or lex.verb_like(keys, w) or lex.nisba(k):
                continue
            e = w + 1  # جبال الأطلس, صحراء الربع الخالي
        elif (plain_word(lex, keys, toks, w) or (len(k) == 2 and not is_definite(toks[w].text, k))) and not (
            lex.verb_like(keys, w) or k.endswith(("ون", "ين", "ات"))
        ):
            e = w + 1  # مضيق هرمز, جبل كليمنجارو, وادي رم
        else:
            continue
        while e < n and e - w < 3 and toks[e].kind == "word":
            a = keys[e]
            if a in NATURAL_ADJ or (
                a.startswith("ال") and a.endswith("ي") and a not in CONTENT_STOP and a not in lex.stop
            ):
                e += 1
            elif any(o.type == "NORP" for o in base_at.get(e, [])):
                e = max(o.j for o in base_at[e] if o.type == "NORP")  # … المغربية: a NORP inside the place
            else:
                break
        spans.append(Span("LOC", q, e, 0))


def regions_by_cities(lex: Lexicon, doc: Reading) -> None:
    """A region named by its cities (جهة طنجة تطوان الحسيمة)."""
    keys, spans, base_at = doc.keys, doc.spans, doc.base_at
    for sp in [s for s in spans if s.type == "GPE" and s.j - s.i >= 2]:
        if keys[sp.i] == normalize("جهة", ta_marbuta=True):
            while nxt := [o for o in base_at.get(sp.j, []) if o.type == "GPE" and o is not sp]:
                sp.j = max(o.j for o in nxt)


def towns_capitals_states(lex: Lexicon, doc: Reading) -> None:
    """A town no list knows after مدينة or بلدة (مدينة آرل → آرل), a capital after العاصمة and a nisba (العاصمة
    السنغالية دكار), a state by its form and nisba (المملكة المغربية)."""
    toks, keys, n, spans, base_at, add, heads_of = (
        doc.toks,
        doc.keys,
        doc.n,
        doc.spans,
        doc.base_at,
        doc.add,
        doc.heads_of,
    )
    covered: set[int] | None = None
    for q in range(n - 1):
        heads = heads_of[q]
        if not (heads & PLACE_WORDS) and keys[q] not in STATE_FORMS:
            continue
        if covered is None:
            covered = {x for sp in spans for x in range(sp.i, sp.j)}
        w = q + 1
        if heads & CAPITAL_WORDS and any(o.type == "NORP" and o.j == q + 2 for o in base_at.get(q + 1, [])):
            w = q + 2
        elif not heads & (GPE_PREFIX - {"دوله"}) or q + 1 in covered:
            w = -1
        if 0 < w < n and w not in covered and plain_word(lex, keys, toks, w) and toks[w].kind == "word":
            k = keys[w]
            if not k.startswith("ال") and not k.endswith(("ه", "ا")) and not (k[:1] in "يت" and len(k) >= 4):
                kept_head = w == q + 1 and not heads & SETTLEMENT_HEADS  # ولاية سنار; مدينة آرل → آرل
                add("GPE", q if kept_head else w, w + 1, 1)
        norp = [o for o in base_at.get(q + 1, []) if o.type == "NORP" and keys[q + 1].startswith("ال")]
        if keys[q] in STATE_FORMS and norp:
            end = max(o.j for o in norp)
            while end < n and any(o.type == "NORP" for o in base_at.get(end, [])):
                end += 1  # المملكة الأردنية الهاشمية
            spans[:] = [o for o in spans if not (o.type == "NORP" and q < o.i and o.j <= end)]
            add("GPE", q, end, 0)


def places_hold_no_names(lex: Lexicon, doc: Reading) -> None:
    """A place holds no place or person it is named after (نهر الأردن, بحيرة تشاد, بجبل موسى), only a nisba (جبال
    الأطلس المغربية ⊃ NORP)."""
    spans = doc.spans
    places = [s for s in spans if s.type == "LOC" and s.j - s.i >= 2]
    if places:
        spans[:] = [
            o
            for o in spans
            if not (
                o.type in ("GPE", "PERS", "LOC", "FAC")
                and any(p.i <= o.i and o.j <= p.j and o.j - o.i < p.j - p.i for p in places)
            )
        ]
