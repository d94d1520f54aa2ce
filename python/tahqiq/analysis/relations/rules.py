"""The relation inventory, ``data/relations.json`` (CC BY-SA 4.0, written for the project): 40 predicates, each
with its domain → range entity types (the 21 Wojood types, ``ENTITY_TYPES`` of the extractor), whether it is
functional (one birth place, one capital …), a prior precision and its Arabic trigger patterns; and the nesting
rules, which read relations off an entity inside another one's name.

Every trigger and nesting rule carries its own ``precision``, written by ``python -m tools.calibrate.relations``: it
runs the extractor (gold entities, patterns alone, every match counted: ``MEASURE_CONFIDENCE``) on the calibration
half — tests/gold/relations_dev.jsonl, relations_dev_more.jsonl, relations_dev_news.jsonl and
relations_dev_news2.jsonl (development sentences written for it; relations_dev_news2's ids 466–485 are held back)
and gold ids 1–40 of tests/gold/relations.jsonl (ids 41–80 are held out) — counts each pattern's
true and false positives and stores ``(tp + 1) / (tp + fp + 2)`` (add-one smoothing), or the pattern's ``prior``
(the predicate's ``precision`` unless the trigger has its own) when it fired fewer than 3 times; ``tp``, ``fp`` and
``prior`` are kept next to it. A trigger without a ``precision`` falls back to its predicate's prior. Re-run the
script after changing a pattern (``--check`` tells whether the file is up to date).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from tahqiq.analysis.relations.model import ANY_WORD, Predicate, Trigger
from tahqiq.arabic.keys import loose_unpunctuated

__all__ = ["NestedRule", "load_inventory", "load_nested_rules"]


@dataclass(frozen=True, slots=True)
class NestedRule:
    """A relation read off nesting: an ``outer`` entity holding an ``inner`` one (``derived.nested_relations``)."""

    outer: frozenset[str]
    inner: frozenset[str]
    predicate: str
    heads: tuple[tuple[str, ...], ...]  # for OCC: title words that the outer entity must start with (any when empty)
    precision: float | None = None  # the rule's own precision (the predicate's when None)
    inverse: bool = False  # the inner entity is the subject (إيرباص A350: إيرباص produces it)
    outer_heads: frozenset[str] | None = None  # the outer entity's first word must be one of these
    not_outer_heads: frozenset[str] = frozenset()  # … and must not be one of these
    # the inner entity is a nisba (الأردني): the related one is an entity of these types elsewhere in the sentence
    # named by it (الأردن): الدستور الأردني … الأردن → law_of
    nisba_of: frozenset[str] | None = None


def _words(text: str) -> frozenset[str]:
    """The loosely normalised words of ``text``, a list of heads in the inventory."""
    return frozenset(loose_unpunctuated(w) for w in text.split())


def _data() -> dict[str, Any]:
    """The packaged inventory, ``data/relations.json``."""
    text = (resources.files("tahqiq.analysis.relations") / "data" / "relations.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def load_nested_rules(data: dict[str, Any] | None = None) -> list[NestedRule]:
    """The nesting rules of ``data`` (default: the packaged ``data/relations.json``)."""
    data = _data() if data is None else data
    return [
        NestedRule(
            frozenset(str(r["outer"]).split()),
            frozenset(str(r["inner"]).split()),
            str(r["predicate"]),
            tuple(tuple(loose_unpunctuated(w) for w in h.split()) for h in r.get("heads", ())),
            float(r["precision"]) if "precision" in r else None,
            bool(r.get("inverse", False)),
            _words(r["outer_heads"]) if "outer_heads" in r else None,
            _words(r.get("not_outer_heads", "")),
            frozenset(str(r["nisba_of"]).split()) if "nisba_of" in r else None,
        )
        for r in data.get("nested", ())
    ]


def load_inventory(data: dict[str, Any] | None = None) -> list[Predicate]:
    """The predicates of ``data`` (default: the packaged ``data/relations.json``)."""
    data = _data() if data is None else data
    out: list[Predicate] = []
    for p in data["predicates"]:
        triggers = tuple(
            Trigger(
                tuple(ANY_WORD if w == ANY_WORD else loose_unpunctuated(w) for w in str(t["text"]).split()),
                str(t.get("site", "between")),
                str(t.get("order", "so")),
                int(t["max_gap"]) if "max_gap" in t else None,
                frozenset(t["object_types"]) if "object_types" in t else None,
                float(t["precision"]) if "precision" in t else None,
                frozenset(t["subject_types"]) if "subject_types" in t else None,
                _words(t["subject_heads"]) if "subject_heads" in t else None,
                _words(t.get("not_subject_heads", "")),
                _words(t["object_heads"]) if "object_heads" in t else None,
                _words(t.get("not_object_heads", "")),
                bool(t.get("topic", False)),
                bool(t.get("plain_subject", False)),
                bool(t.get("conjuncts", False)),
            )
            for t in p["triggers"]
        )
        out.append(
            Predicate(
                str(p["predicate"]),
                frozenset(p["domain"]),
                frozenset(p["range"]),
                str(p.get("description", "")),
                bool(p.get("functional", False)),
                float(p.get("precision", 0.7)),
                triggers,
            )
        )
    return out
