"""Relation extraction over named-entity spans (Area C, `/relations`).

- `extractor`: `RelationExtractor`, the trigger patterns read over each pair of a sentence's entities.
- `model`: what the patterns and the classifier share: predicates, triggers, mentions, how a trigger word matches.
- `classifier`: the statistical layer adding, for pairs no pattern judged, what its logistic regression finds.
- `data/`: the inventory of predicates, triggers and nesting rules (`relations.json`) and the classifier's
  weights (`relations_classifier.json`).
"""

from __future__ import annotations

from tahqiq.analysis.relations.extractor import (
    ENTITY_TYPES,
    MEASURE_CONFIDENCE,
    NestedRule,
    RelationExtractor,
    load_inventory,
    load_nested_rules,
)
from tahqiq.analysis.relations.model import Predicate, Trigger

__all__ = [
    "ENTITY_TYPES",
    "MEASURE_CONFIDENCE",
    "NestedRule",
    "Predicate",
    "RelationExtractor",
    "Trigger",
    "load_inventory",
    "load_nested_rules",
]
