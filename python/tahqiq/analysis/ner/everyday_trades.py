"""Everyday trades as posts (docs/design/ner.md, "Everyday words"): the baker, the fisherman, the technician of the
everyday sets (الفران, الصياد, بالفني; cues `trade`) are OCC, as the conventions make any singular noun of an
occupation. They are found here, with morphology in context, rather than by the rule layers' triggers: as triggers
they would change what the learned layer sees (which then guesses a person after each of them), and their adjective
readings (الدعم الفني "technical support", التيار الكهربائي) need the reading to be told apart."""

from __future__ import annotations

from tahqiq.analysis.ner.cues import SELLERS, TRADES
from tahqiq.analysis.ner.lexicon import Lexicon
from tahqiq.analysis.ner.reading import FUNCTION_POS, Reading, Span

NOUN = frozenset({"noun"})
ADJECTIVE = frozenset({"adj"})
NOT_A_NOUN = FUNCTION_POS | {"adj", "verb"}


def everyday_trades(lex: Lexicon, doc: Reading, spans: list[Span]) -> list[Span]:
    """The spans and an OCC for each trade that no span covers: the noun, read as a noun and not in an adjective's
    place, and when it has no article the noun after it that says what it sells or serves (بائع الخضار, بائع طيور,
    فني التبريد)."""
    covered = {x for s in spans for x in range(s.i, s.j)}
    found: list[Span] = []
    for x in range(doc.n):
        if x in covered or not _trade(lex, doc, x) or _in_an_adjectives_place(doc, x):
            continue
        end = x + 1
        if not _definite(doc.keys[x]) and end < doc.n and end not in covered and _complement(lex, doc, x, end):
            end += 1
        found.append(Span("OCC", x, end, 1))
    return spans + found if found else spans


def _trade(lex: Lexicon, doc: Reading, x: int) -> bool:
    """Token x is a trade's noun (cues `trade`), with a clitic, the article or the accusative's alif (صيادا), that
    morphology in context reads as a noun, or as an adjective where a preposition on it governs it as a noun
    (فاتصل بالفني: no noun before it to qualify)."""
    k = doc.keys[x]
    stems = lex.bare_heads(k) | lex.bare_heads(k[:-1]) if k.endswith("ا") else lex.bare_heads(k)
    if not stems & TRADES:
        return False
    governed = k.lstrip("وف").startswith(("بال", "لل", "كال"))
    return doc.read_as(x, NOUN) or (governed and doc.read_as(x, ADJECTIVE))


def _definite(k: str) -> bool:
    return k.lstrip("وفبلك").startswith("ال") or k.startswith("لل")


def _in_an_adjectives_place(doc: Reading, x: int) -> bool:
    """Token x comes right after a common noun as definite as it is (الدعم الفني, مشكلة فنية): an adjective's place,
    whatever morphology calls the word."""
    if x == 0 or not doc.read_as(x - 1, NOUN):
        return False
    return _definite(doc.keys[x - 1]) == _definite(doc.keys[x])


def _complement(lex: Lexicon, doc: Reading, trade: int, x: int) -> bool:
    """Token x is the complement of the trade's construct: a definite word that morphology reads as no adjective,
    verb or function word (الخضار, العرقسوس: a rare word may have no reading at all), or after a seller (cues
    `seller`) an indefinite noun (بائع خضار, بائع طيور; not عجوز in خباز عجوز, an adjective's place)."""
    k = doc.keys[x]
    if k.startswith("ال"):
        return not doc.read_as(x, NOT_A_NOUN)
    return bool(lex.bare_heads(doc.keys[trade]) & SELLERS) and doc.read_as(x, NOUN)
