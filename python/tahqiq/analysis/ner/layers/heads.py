"""Layer 2: heads (ORG, FAC, EVENT, LAW, OCC) with the words that complete them, and the rules over their spans."""

from __future__ import annotations

from tahqiq.analysis.ner.complement import complement
from tahqiq.analysis.ner.cues import (
    COMMON_PHRASES,
    CONSTITUTION,
    DEPUTIES,
    DOOR_HEADS,
    LISTED_NAMES,
    MEMBER_BODIES,
    NAME_LINKS,
    PARTY_HEADS,
    PRESS,
    RESOLUTION,
)
from tahqiq.analysis.ner.lexicon import Lexicon
from tahqiq.analysis.ner.reading import Reading, Span


def headed_names(lex: Lexicon, doc: Reading) -> None:
    """Layer 2: a head (ORG, FAC, EVENT, LAW, then OCC, which may hold an ORG) and the words that complete it; a
    family name that is also a title inside a listed name stays a name (سامي الخطيب)."""
    toks, keys, n, spans, claimed, base_at, add = (
        doc.toks,
        doc.keys,
        doc.n,
        doc.spans,
        doc.claimed,
        doc.base_at,
        doc.add,
    )
    in_name = {x for sp in spans if sp.type == "PERS" and sp.j - sp.i >= 2 for x in range(sp.i + 1, sp.j)}
    for phase in ("other", "OCC"):
        i = 0
        while i < n:
            if claimed[i] or toks[i].kind != "word" or i in in_name:
                i += 1
                continue
            tr = lex.trigger_at(keys, i)
            if tr is None or (tr[1] == "OCC") != (phase == "OCC") or (i > 0 and keys[i - 1] in NAME_LINKS):
                i += 1  # after فان/فون a head word is a name's part: كاسبار فان دير بيرغ
                continue
            head_end, typ = tr
            if any(o.rank == 1 and o.j - o.i >= 2 and o.type in LISTED_NAMES for o in base_at.get(i, [])):
                i += 1  # مجلة الشغل is a listed law, not a magazine (ORG head) with a complement
                continue
            if head_end < n and any((h, keys[head_end]) in COMMON_PHRASES for h in lex.heads(keys[i])):
                i += 1  # دورة المياه, سوق الخضار: an everyday noun phrase
                continue
            if head_end < n and lex.heads(keys[i]) & DOOR_HEADS and frequent_common_noun(doc, head_end):
                i += 1  # باب البناية, باب المطبخ: a door; a gate is named by a name (باب العامود, باب توما)
                continue
            if typ == "LAW" and head_end < n and keys[head_end] == "التشغيل":
                i += 1  # نظام التشغيل: an operating system (a product), not a law
                continue
            # ألعاب reads as definite once alef is folded: the article is ال written without hamza
            definite = keys[i].startswith(("ال", "بال", "وال", "فال", "كال")) and not toks[i].text.lstrip(
                "وفبك"
            ).startswith(("أل", "إل", "آل"))
            end = complement(lex, keys, toks, head_end, base_at, typ, definite, head_end - i >= 2, doc.context)
            if end > head_end:
                base_at.setdefault(i, []).append(add(typ, i, end, 0))
                i = end if typ != "OCC" else i + 1
                continue
            if typ == "OCC":
                base_at.setdefault(i, []).append(add(typ, i, head_end, 0))
            elif (
                typ == "LAW" and head_end == i + 1 and keys[i] in CONSTITUTION and (i == 0 or keys[i - 1] not in PRESS)
            ):
                base_at.setdefault(i, []).append(add(typ, i, head_end, 0))  # المكفولة في الدستور
            i += 1


def member_bodies(lex: Lexicon, doc: Reading) -> None:
    """The members a body is named by are no post of their own: نقابة الفنانين السوريين."""
    keys, spans, base_at = doc.keys, doc.spans, doc.base_at
    bodies = [(s.i, s.j) for s in spans if s.type == "ORG" and keys[s.i] in MEMBER_BODIES]
    if bodies:
        spans[:] = [s for s in spans if not (s.type == "OCC" and any(a < s.i and s.j <= b for a, b in bodies))]
        for x in list(base_at):
            base_at[x] = [s for s in base_at[x] if s in spans or s.type != "OCC"]


def deputies(lex: Lexicon, doc: Reading) -> None:
    """A deputy's post holds the post it deputises: نائب الرئيس الأمريكي, نائب رئيسها."""
    keys, spans, base_at, add = doc.keys, doc.spans, doc.base_at, doc.add
    occ_at: dict[int, int] = {}
    for sp in spans:
        if sp.type == "OCC":
            occ_at[sp.i] = max(occ_at.get(sp.i, 0), sp.j)
    for sp in [s for s in spans if s.type == "OCC" and s.j - s.i == 1 and keys[s.i] in DEPUTIES]:
        if sp.j in occ_at:
            base_at.setdefault(sp.i, []).append(add("OCC", sp.i, occ_at[sp.j], 0))


def resolutions(lex: Lexicon, doc: Reading) -> None:
    """A resolution by its number alone: والقرار 242, القرار 2334."""
    toks, keys, n, spans, claimed, base_at, add = (
        doc.toks,
        doc.keys,
        doc.n,
        doc.spans,
        doc.claimed,
        doc.base_at,
        doc.add,
    )
    for q in range(n - 1):
        if not claimed[q] and toks[q + 1].kind == "number" and lex.heads(keys[q]) & RESOLUTION:
            if not any(s.i <= q < s.j for s in spans if s.type == "LAW"):
                base_at.setdefault(q, []).append(add("LAW", q, q + 2, 0))


def heads_read_as_names(lex: Lexicon, doc: Reading) -> None:
    """An event's or law's head read as a name (بعيد الاستقلال: ب + عيد) is the head, not a person."""
    spans, base_at = doc.spans, doc.base_at
    built = {s.i: s.j for s in spans if s.type in ("EVENT", "LAW") and s.rank == 0 and s.j - s.i >= 2}
    if built:

        def head_name(o: Span) -> bool:  # بعيد الاستقلال, عيد التحرير: a name from the head on, inside the event
            return o.type == "PERS" and o.i in built and o.j <= built[o.i]

        spans[:] = [s for s in spans if not head_name(s)]
        for x in built:
            base_at[x] = [s for s in base_at.get(x, []) if not head_name(s)]


def bodies_of_organisations(lex: Lexicon, doc: Reading) -> None:
    """A body of an organisation: an ORG head right before an organisation's name (مجلس نقابة المحامين), a definite
    body followed by its party with ل (اللجنة المركزية لحركة فتح, المكتب السياسي لحركة حماس)."""
    keys, spans, claimed, add = doc.keys, doc.spans, doc.claimed, doc.add
    orgs = sorted((s for s in spans if s.type == "ORG"), key=lambda s: (s.i, -s.j))
    org_at = {s.i: s for s in reversed(orgs)}
    for q in [x - 1 for x in org_at if x > 0 and x - 1 not in org_at and not claimed[x - 1]]:
        tr = lex.trigger_at(keys, q)
        if tr and tr[1] == "ORG" and tr[0] == q + 1:
            add("ORG", q, org_at[q + 1].j, 0)
    for body in orgs:
        party = org_at.get(body.j)
        if (
            party
            and keys[body.i].startswith("ال")
            and body.j - body.i >= 2
            and keys[body.j][:1] == "ل"
            and any(st in PARTY_HEADS for st, p in lex.stems(keys[body.j]) if p)
        ):
            add("ORG", body.i, party.j, 0)


def frequent_common_noun(doc: Reading, x: int, floor: int = 100) -> bool:
    """Morphology in context reads token x as a frequent common noun (its lemma `floor` or more in the lexicon's
    corpus) that no rule before has found as a name (a place: باب الخليل)."""
    word = doc.context[x]
    return (
        word is not None
        and word.common
        and word.pos == "noun"
        and word.lemma_frequency >= floor
        and not any(o.type in ("GPE", "LOC", "PERS", "FAC", "ORG") for o in doc.base_at.get(x, []))
    )
