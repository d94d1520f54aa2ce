"""Relation extraction over named-entity spans (Area C, `/re`).

- `extractor`: `RelationExtractor`, one sentence at a time: the trigger patterns over each pair of its entities,
  then the steps of `derived`, then the classifier.
- `rules`: the inventory of predicates, triggers and nesting rules (`data/relations.json`) and how its
  precisions are calibrated.
- `derived`: the relations read off nested entities and off those the patterns found (conjuncts, an
  organisation named again, who was beaten, a courtesy title beside a post).
- `mentions`, `words`: how the sentence's entities stand to one another, and how its words are compared.
- `model`: what the patterns and the classifier share: predicates, triggers, mentions, how a trigger word matches.
- `classifier`: the statistical layer, a logistic regression over the pairs no pattern judged (weights in
  `data/relations_classifier.json`).
"""

from __future__ import annotations

from tahqiq.analysis.relations.extractor import ENTITY_TYPES, MEASURE_CONFIDENCE, RelationExtractor
from tahqiq.analysis.relations.model import Predicate, Trigger
from tahqiq.analysis.relations.rules import NestedRule, load_inventory, load_nested_rules

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
