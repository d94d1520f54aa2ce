"""How the entities of a sentence stand to one another, as the extractor and the rules after it read them: a
part of another's name, a courtesy title, the titles before a name, a title's holders; and how the relations
found so far are kept (``BestRelations``).
"""

from __future__ import annotations

from typing import Final

from tahqiq.analysis.relations.model import Mention, Predicate
from tahqiq.analysis.relations.words import head_in
from tahqiq.arabic.keys import loose_unpunctuated

__all__ = ["BestRelations", "PairKey", "is_honorific", "is_name_part", "lead_of", "title_holders"]

# a relation's key: its subject's and its object's (start, end, type)
PairKey = tuple[tuple[int, int, str], tuple[int, int, str]]
# the relations found so far in a sentence: per pair, the best one's (confidence, predicate, pattern)
BestRelations = dict[PairKey, tuple[float, Predicate, str]]
# courtesy titles that stand between a person's post and name (ولي العهد السعودي الأمير محمد بن سلمان)
_HONORIFICS: Final = frozenset(
    loose_unpunctuated(w)
    for w in "الشيخ الشيخة الأمير الأميرة الملك الملكة الدكتور الدكتورة اللواء العميد الفريق السيد السيدة الحاج".split()
)
# entities that are part of another entity's name are no argument of a trigger (مطار الملك خالد: no PERS خالد)
_NAME_TYPES: Final = frozenset({"ORG", "FAC", "EVENT", "LAW", "PRODUCT", "GPE", "LOC"})


def is_name_part(e: Mention, ents: list[Mention]) -> bool:
    """Whether ``e`` is inside another entity's name (مطار الملك خالد الدولي, جامعة قطر): such a part is
    related to its whole by the nesting rules only."""
    return any(f.type in _NAME_TYPES and f.start <= e.start and e.end <= f.end and f.span != e.span for f in ents)


def is_honorific(e: Mention, loose_words: list[str]) -> bool:
    """Whether ``e`` is an OCC of one word that is a courtesy title (الشيخ، الأمير، الدكتور), a clitic aside."""
    return e.type == "OCC" and e.last - e.first == 1 and head_in(loose_words[e.first], _HONORIFICS)


def lead_of(e: Mention, ents: list[Mention]) -> int:
    """The first word of the titles and nisbas standing right before ``e`` (its own first word when none):
    a verb before a titled subject stands before the title (ولد الكاتب الفلسطيني سليم حداد)."""
    lead = e.first
    while True:
        before = [f for f in ents if f.last == lead and f.type in ("OCC", "NORP")]
        if not before:
            return lead
        lead = min(f.first for f in before)


def title_holders(title: Mention, ents: list[Mention], loose_words: list[str]) -> list[Mention]:
    """The persons a title belongs to: right after it (a courtesy title between them aside: ولي العهد
    السعودي الأمير محمد بن سلمان) or right before it (عبد اللطيف الجواهري، محافظ بنك المغرب)."""
    if is_name_part(title, ents):
        return []
    after = title.last
    honorific = [e for e in ents if e.first == after and e is not title and is_honorific(e, loose_words)]
    if honorific and not is_honorific(title, loose_words):
        after = honorific[0].last
    out: list[Mention] = []
    for e in ents:
        if e.type != "PERS" or is_name_part(e, ents):
            continue
        if 0 <= e.first - after <= 1 or 0 <= title.first - e.last <= 1:
            out.append(e)
    return out
