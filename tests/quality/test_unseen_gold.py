"""The unseen test sets (issue 5): tests/gold/ner_test.jsonl and relations_test.jsonl, and the second pair
ner_test2.jsonl and relations_test2.jsonl (written blind), and the third pair ner_test3.jsonl and
relations_test3.jsonl (written blind, by an author who never read the first two pairs either), the fourth pair
ner_test4.jsonl and relations_test4.jsonl (written blind in the same way), and the fifth pair ner_test5.jsonl and
relations_test5.jsonl (written blind in the same way).

Written after the recognizer and the extractor, and never read while building or tuning them, so their scores
are the project's honest figures. The floors are the figures measured once on them, minus 0.03, so that a
regression fails: NER P 0.870 R 0.808 F1 0.838; relations with gold entities P 0.904 R 0.644 F1 0.752; with the
system's own entities (what /re does) P 0.710 R 0.402 F1 0.513. Measured once more after the relation patterns
for the predicates it found nothing for were written on development sentences (branch relrecall): with gold
entities P 0.902 R 0.671 F1 0.770, with the system's own entities P 0.713 R 0.420 F1 0.529; floors raised.
Measured a third time after the issue-5 work on relation arguments (branch nerrel, developed on the development sets
only): NER P 0.883 R 0.827 F1 0.854; relations with gold entities P 0.930 R 0.671 F1 0.780, with the system's own
entities P 0.739 R 0.452 F1 0.561; floors raised.

The second unseen pair (ner_test2.jsonl, relations_test2.jsonl: written blind, by an author who never read the
recognizer or the extractor nor ran them) was measured once, for the code of commit 27e34ae: NER P 0.866 R 0.819
F1 0.842; relations with gold entities P 0.880 R 0.615 F1 0.724, with the system's own entities P 0.707 R 0.374
F1 0.489. Its floors are those figures minus 0.03. Both pairs measured once more with the relation classifier
(trained on the development sets only), commit 60bc1ed: the second pair 0.737 with gold entities, 0.495 end to end;
the first pair 0.796 and 0.560. Floors unchanged. Both measured once more with the learned NER layer for PERS, OCC
and FAC (ner_tagger.py, trained and chosen on the development sets only), commit 9c2edd1: the first pair NER P 0.887
R 0.833 F1 0.859, relations with gold entities 0.796, end to end 0.583; the second pair NER P 0.883 R 0.834 F1 0.858,
relations with gold entities 0.737, end to end 0.527 (P 0.728 R 0.413). Floors raised to these minus 0.03. Both
measured once more with the rules for the weak types (LOC, LAW, EVENT, PRODUCT, ORDINAL) and for news at large
(persons, organisations, relation triggers; written on development sets only), commit 0d452f1: the first pair NER
P 0.899 R 0.852 F1 0.875, relations with gold entities 0.808, end to end 0.658 (P 0.812 R 0.553); the second pair NER
P 0.884 R 0.849 F1 0.866, relations with gold entities 0.746, end to end 0.550 (P 0.730 R 0.441). Floors raised to
these minus 0.03. The third pair, written blind after all of that (its author read neither the recognizer nor the
extractor nor the earlier pairs, and never ran the system), measured once for commit d91c65e: NER P 0.886 R 0.849
F1 0.867, relations with gold entities P 0.853 R 0.699 F1 0.768, end to end P 0.674 R 0.493 F1 0.570; its floors
are those minus 0.03.

The third pair measured a second time, with the fourth, for commit d1df688 (the session of 2026-11-26: rules for
relation arguments in news, long-distance relation rules, both developed on development sets only): NER P 0.900
R 0.859 F1 0.879, relations with gold entities P 0.858 R 0.712 F1 0.779, end to end P 0.729 R 0.546 F1 0.624; floors
raised to these minus 0.03.

The fourth pair, ner_test4.jsonl and relations_test4.jsonl (78 sentences, 657 entities, 310 relations, written
blind by an author who read none of the earlier pairs either), measured once, for d1df688 and for the tree before
that session (2aeeddc) in the same look: NER F1 0.862 (P 0.882 R 0.843; 2aeeddc 0.851), relations with gold
entities P 0.838 R 0.652 F1 0.733 (2aeeddc 0.720), end to end P 0.665 R 0.474 F1 0.554 (2aeeddc 0.557). Its floors
are the d1df688 figures minus 0.03.

The fifth pair, ner_test5.jsonl and relations_test5.jsonl (84 sentences, 689 entities, 325 relations, written blind
during the session of 2026-11-26 evening by an author who read none of the earlier pairs), measured for the code
before that session's relation work (091c98f): NER F1 0.833, relations with gold entities 0.797, end to end P 0.696
R 0.486 F1 0.573; for c6420dc (new development sentences, person names, possessive heads): 0.836, 0.801, 0.592; for
076adf5 (full names and appositions, the elided subject of a later clause, threshold 0.5; all developed on
development sets only): NER P 0.847 R 0.829 F1 0.838, relations with gold entities P 0.889 R 0.735 F1 0.805, end to
end P 0.725 R 0.511 F1 0.599. Its floors are the 076adf5 figures minus 0.03. The third and fourth pairs were
measured at c6420dc and 076adf5 too: third NER 0.870 / 0.876, gold entities 0.794 / 0.800, end to end 0.609 /
0.627; fourth 0.859 / 0.863, 0.746 / 0.755, 0.551 / 0.567; floors raised where the figure rose. Pooled over the
three newest pairs at 076adf5, end to end P 0.711 R 0.515 F1 0.598 (given gold entities 0.787): the relation aim of
0.60 end to end is not met on blind text.

The sixth pair, ner_test6.jsonl and relations_test6.jsonl (85 sentences, 719 entities, 344 relations, written blind
during the same session by an author who read none of the earlier pairs' sentences), measured first for 076adf5
(before the session's second round): NER F1 0.869, relations with gold entities 0.793, end to end P 0.779 R 0.564
F1 0.654; then for bf77568 (second round: more person names, participants, posts naming their organisation again;
developed on development sets only): NER P 0.885 R 0.854 F1 0.869, relations with gold entities P 0.867 R 0.741
F1 0.799, end to end P 0.779 R 0.573 F1 0.660. All six pairs were measured at bf77568; end to end (given gold
entities): first 0.695 (0.817), second 0.559 (0.763), third 0.625 (0.809), fourth 0.582 (0.760), fifth 0.603
(0.809), sixth 0.660 (0.799); NER F1 0.885, 0.875, 0.869, 0.866, 0.838, 0.869. Pooled over the six pairs (1,860
relations) end to end P 0.741 R 0.528 F1 0.617, given gold entities P 0.880 R 0.719 F1 0.791: the relation aim of
0.60 is met pooled and on four of the six pairs. Every floor is now the bf77568 figure minus 0.03, or the earlier
floor where that was higher.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from tahqiq.analysis.relations import RelationExtractor

from tests.support.script_support import load_script
from tools.evaluate.ner import ner_report
from tools.evaluate.relations import ner_entities, read_gold, relations_report

ROOT = Path(__file__).resolve().parents[2]
GOLD = ROOT / "tests" / "gold"
NER_TEST = GOLD / "ner_test.jsonl"
RELATIONS_TEST = GOLD / "relations_test.jsonl"
# The second unseen pair, written blind.
NER_TEST2 = GOLD / "ner_test2.jsonl"
RELATIONS_TEST2 = GOLD / "relations_test2.jsonl"
NER_F1_FLOOR = 0.855
RELATIONS_GOLD_ENTITIES_F1_FLOOR = 0.787
RELATIONS_SYSTEM_ENTITIES_F1_FLOOR = 0.665
NER2_F1_FLOOR = 0.845
RELATIONS2_GOLD_ENTITIES_F1_FLOOR = 0.733
RELATIONS2_SYSTEM_ENTITIES_F1_FLOOR = 0.529
# The third unseen pair, written blind (tests/gold/src/ner_test3.txt).
NER_TEST3 = GOLD / "ner_test3.jsonl"
RELATIONS_TEST3 = GOLD / "relations_test3.jsonl"
NER3_F1_FLOOR = 0.849
RELATIONS3_GOLD_ENTITIES_F1_FLOOR = 0.778
RELATIONS3_SYSTEM_ENTITIES_F1_FLOOR = 0.597
# The fourth unseen pair, written blind (tests/gold/src/ner_test4.txt).
NER_TEST4 = GOLD / "ner_test4.jsonl"
RELATIONS_TEST4 = GOLD / "relations_test4.jsonl"
NER4_F1_FLOOR = 0.836
RELATIONS4_GOLD_ENTITIES_F1_FLOOR = 0.730
RELATIONS4_SYSTEM_ENTITIES_F1_FLOOR = 0.552
# The fifth unseen pair, written blind (tests/gold/src/ner_test5.txt).
NER_TEST5 = GOLD / "ner_test5.jsonl"
RELATIONS_TEST5 = GOLD / "relations_test5.jsonl"
NER5_F1_FLOOR = 0.808
RELATIONS5_GOLD_ENTITIES_F1_FLOOR = 0.779
RELATIONS5_SYSTEM_ENTITIES_F1_FLOOR = 0.573
# The sixth unseen pair, written blind (tests/gold/src/ner_test6.txt).
NER_TEST6 = GOLD / "ner_test6.jsonl"
RELATIONS_TEST6 = GOLD / "relations_test6.jsonl"
NER6_F1_FLOOR = 0.839
RELATIONS6_GOLD_ENTITIES_F1_FLOOR = 0.769
RELATIONS6_SYSTEM_ENTITIES_F1_FLOOR = 0.630


@pytest.mark.parametrize("suffix", ["test", "test2", "test3", "test4", "test5", "test6"])
def test_the_test_sets_are_built_from_their_sources_and_pass_the_checks(tmp_path: Path, suffix: str) -> None:
    module = load_script("ner_gold")
    ner_src, rel_src = f"ner_{suffix}.txt", f"relations_{suffix}.txt"
    ner_out, rel_out = f"ner_{suffix}.jsonl", f"relations_{suffix}.jsonl"
    assert (ner_src, ner_out, rel_src, rel_out, None) in module.SETS  # `ner_gold.py build` builds it too
    (tmp_path / "src").mkdir()
    for name in (ner_src, rel_src):
        shutil.copy(GOLD / "src" / name, tmp_path / "src" / name)
    shutil.copy(GOLD / "relation_inventory.json", tmp_path / "relation_inventory.json")
    module.GOLD = tmp_path
    module.build_set(ner_src, ner_out, rel_src, rel_out)
    for name in (ner_out, rel_out):
        assert (tmp_path / name).read_text(encoding="utf-8") == (GOLD / name).read_text(encoding="utf-8"), name
    errors: list[str] = []
    module.check_set(ner_out, rel_out, None, errors)
    assert errors == []


def test_the_checks_catch_a_relation_whose_argument_is_no_entity(tmp_path: Path) -> None:
    module = load_script("ner_gold")
    shutil.copy(NER_TEST, tmp_path / "ner_test.jsonl")
    shutil.copy(GOLD / "relation_inventory.json", tmp_path / "relation_inventory.json")
    rows = read_gold(RELATIONS_TEST)
    rows[0]["relations"][0]["object"]["type"] = "ORG"
    (tmp_path / "relations_test.jsonl").write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )
    module.GOLD = tmp_path
    errors: list[str] = []
    module.check_set("ner_test.jsonl", "relations_test.jsonl", None, errors)
    assert any("wants" in e for e in errors) and any("not an entity" in e for e in errors)


def test_the_test_sets_have_their_size_and_share_no_sentence_with_the_development_sets() -> None:
    ner = read_gold(NER_TEST)
    relations = read_gold(RELATIONS_TEST)
    assert len(ner) == 65 and sum(len(r["entities"]) for r in ner) == 520
    assert len(relations) == 60 and sum(len(r["relations"]) for r in relations) == 219
    assert {r["text"] for r in relations} <= {r["text"] for r in ner}
    development = (
        "ner_msa.jsonl",
        "ner_dev.jsonl",
        "relations.jsonl",
        "relations_dev.jsonl",
        "relations_dev_more.jsonl",
    )
    seen = set()
    for name in development:
        seen |= {r["text"] for r in read_gold(GOLD / name)}
    assert not seen & {r["text"] for r in ner}


def test_the_second_test_sets_have_their_size_and_cover_every_type_and_predicate() -> None:
    ner = read_gold(NER_TEST2)
    relations = read_gold(RELATIONS_TEST2)
    assert len(ner) == 86 and sum(len(r["entities"]) for r in ner) == 788
    assert len(relations) == 86 and sum(len(r["relations"]) for r in relations) == 356
    assert {r["text"] for r in relations} <= {r["text"] for r in ner}
    assert {e["type"] for r in ner for e in r["entities"]} == load_script("ner_gold").TYPES
    inventory = {p["predicate"] for p in json.loads((GOLD / "relation_inventory.json").read_text(encoding="utf-8"))}
    assert {x["predicate"] for r in relations for x in r["relations"]} == inventory
    earlier = ("ner_msa.jsonl", "ner_dev.jsonl", "ner_test.jsonl", "relations.jsonl", "relations_dev.jsonl")
    seen = set()
    for name in (*earlier, "relations_dev_more.jsonl", "relations_test.jsonl"):
        seen |= {r["text"] for r in read_gold(GOLD / name)}
    assert not seen & {r["text"] for r in ner}


@pytest.mark.parametrize(
    ("suffix", "sentences", "entities", "relation_count"), [("test5", 84, 689, 325), ("test6", 85, 719, 344)]
)
def test_the_newer_test_sets_have_their_size_cover_every_type_and_predicate_and_share_no_sentence(
    suffix: str, sentences: int, entities: int, relation_count: int
) -> None:
    """The fifth and sixth pairs are new text: no sentence of theirs is in a development set or another pair."""
    ner = read_gold(GOLD / f"ner_{suffix}.jsonl")
    relations = read_gold(GOLD / f"relations_{suffix}.jsonl")
    assert len(ner) == sentences and sum(len(r["entities"]) for r in ner) == entities
    assert len(relations) == sentences and sum(len(r["relations"]) for r in relations) == relation_count
    assert [r["text"] for r in relations] == [r["text"] for r in ner]
    assert {e["type"] for r in ner for e in r["entities"]} == load_script("ner_gold").TYPES
    inventory = {p["predicate"] for p in json.loads((GOLD / "relation_inventory.json").read_text(encoding="utf-8"))}
    assert {x["predicate"] for r in relations for x in r["relations"]} == inventory
    others = [
        p for p in sorted(GOLD.glob("*.jsonl")) if p.name.startswith(("ner_", "relations")) and suffix not in p.name
    ]
    assert len(others) >= 10
    seen = {r["text"] for p in others for r in read_gold(p)}
    assert not seen & {r["text"] for r in ner}


def test_ner_on_the_unseen_test_set() -> None:
    report = ner_report([NER_TEST])
    assert report["sentences"] == 65
    assert report["micro"]["f1"] >= NER_F1_FLOOR, report["micro"]


@pytest.fixture(scope="module")
def extractor() -> RelationExtractor:
    return RelationExtractor()


def test_relations_on_the_unseen_test_set_with_gold_entities(extractor: RelationExtractor) -> None:
    report = relations_report(extractor, read_gold(RELATIONS_TEST), ner_entities(NER_TEST))
    assert report["n"] == 60
    assert report["micro"]["f1"] >= RELATIONS_GOLD_ENTITIES_F1_FLOOR, report["micro"]


def test_relations_on_the_unseen_test_set_with_the_system_entities(extractor: RelationExtractor) -> None:
    from tahqiq.analysis.ner import Recognizer

    report = relations_report(extractor, read_gold(RELATIONS_TEST), recognize=Recognizer().recognize)
    assert report["micro"]["f1"] >= RELATIONS_SYSTEM_ENTITIES_F1_FLOOR, report["micro"]


# The blind pairs written after the first: (NER file, relations file, sentences, NER floor, relations floors given
# gold entities and end to end).
BLIND_PAIRS = [
    (
        NER_TEST2,
        RELATIONS_TEST2,
        86,
        NER2_F1_FLOOR,
        RELATIONS2_GOLD_ENTITIES_F1_FLOOR,
        RELATIONS2_SYSTEM_ENTITIES_F1_FLOOR,
    ),
    (
        NER_TEST3,
        RELATIONS_TEST3,
        75,
        NER3_F1_FLOOR,
        RELATIONS3_GOLD_ENTITIES_F1_FLOOR,
        RELATIONS3_SYSTEM_ENTITIES_F1_FLOOR,
    ),
    (
        NER_TEST4,
        RELATIONS_TEST4,
        78,
        NER4_F1_FLOOR,
        RELATIONS4_GOLD_ENTITIES_F1_FLOOR,
        RELATIONS4_SYSTEM_ENTITIES_F1_FLOOR,
    ),
    (
        NER_TEST5,
        RELATIONS_TEST5,
        84,
        NER5_F1_FLOOR,
        RELATIONS5_GOLD_ENTITIES_F1_FLOOR,
        RELATIONS5_SYSTEM_ENTITIES_F1_FLOOR,
    ),
    (
        NER_TEST6,
        RELATIONS_TEST6,
        85,
        NER6_F1_FLOOR,
        RELATIONS6_GOLD_ENTITIES_F1_FLOOR,
        RELATIONS6_SYSTEM_ENTITIES_F1_FLOOR,
    ),
]
PAIR_IDS = ["second", "third", "fourth", "fifth", "sixth"]


@pytest.mark.parametrize(
    ("ner_gold", "_relations", "sentences", "floor", "_gold", "_system"), BLIND_PAIRS, ids=PAIR_IDS
)
def test_ner_on_the_later_unseen_test_sets(
    ner_gold: Path, _relations: Path, sentences: int, floor: float, _gold: float, _system: float
) -> None:
    report = ner_report([ner_gold])
    assert report["sentences"] == sentences
    assert report["micro"]["f1"] >= floor, report["micro"]


@pytest.mark.parametrize(("ner_gold", "relations", "sentences", "_ner", "floor", "_system"), BLIND_PAIRS, ids=PAIR_IDS)
def test_relations_on_the_later_unseen_test_sets_with_gold_entities(
    extractor: RelationExtractor,
    ner_gold: Path,
    relations: Path,
    sentences: int,
    _ner: float,
    floor: float,
    _system: float,
) -> None:
    report = relations_report(extractor, read_gold(relations), ner_entities(ner_gold))
    assert report["n"] == sentences
    assert report["micro"]["f1"] >= floor, report["micro"]


@pytest.mark.parametrize(("_ner_gold", "relations", "_sentences", "_ner", "_gold", "floor"), BLIND_PAIRS, ids=PAIR_IDS)
def test_relations_on_the_later_unseen_test_sets_with_the_system_entities(
    extractor: RelationExtractor,
    _ner_gold: Path,
    relations: Path,
    _sentences: int,
    _ner: float,
    _gold: float,
    floor: float,
) -> None:
    from tahqiq.analysis.ner import Recognizer

    report = relations_report(extractor, read_gold(relations), recognize=Recognizer().recognize)
    assert report["micro"]["f1"] >= floor, report["micro"]
