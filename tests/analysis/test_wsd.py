"""Word-sense disambiguation: the arramooz sense inventory, stable ids, context choice, entities, the gold."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tahqiq.analysis.morphology import Morphology
from tahqiq.analysis.wsd import (
    CONTEXT_WINDOW,
    EXAMPLES_FILE,
    Disambiguator,
    Example,
    Sense,
    SenseInventory,
    entity_sense_id,
    parse_definition,
    parse_examples,
    read_examples,
    sense_id_for,
)
from tahqiq.arabic.clitics import light_stem
from tahqiq.core import normalize

from tests.support.script_support import load_script
from tests.support.server import CACHE_DIR
from tools.evaluate.wsd import read_gold, wsd_report

GOLD = Path(__file__).resolve().parents[1] / "gold" / "wsd.jsonl"
NATURAL = Path(__file__).resolve().parents[1] / "gold" / "wsd_natural.jsonl"


@pytest.fixture(scope="module")
def inventory(tmp_path_factory: pytest.TempPathFactory) -> SenseInventory:
    inv = SenseInventory(tmp_path_factory.mktemp("wsd"), shipped_dir=None)  # built here: these tests check the build
    inv.load()
    return inv


@pytest.fixture(scope="module")
def wsd(inventory: SenseInventory) -> Disambiguator:
    return Disambiguator(inventory, Morphology(CACHE_DIR))


def test_parse_numbered_definition() -> None:
    senses = parse_definition('"1.""رآه بالعين"" : عضو الإبصار. 2.""ملأ عينه"" : أعجبه. سورة آية 19 كذا"')
    assert [n for n, _ in senses] == [1, 2]
    assert senses[0][1].startswith('"رآه بالعين"')
    assert "آية 19" in senses[1][1]
    assert parse_definition("تعريف بلا أرقام") == [(1, "تعريف بلا أرقام")]
    assert parse_definition('""') == []


def test_sense_ids_are_stable_hashes() -> None:
    assert sense_id_for("arramooz", "عَيْنٌ", 1) == sense_id_for("arramooz", "عَيْنٌ", 1)
    assert sense_id_for("arramooz", "عَيْنٌ", 1) != sense_id_for("arramooz", "عَيْنٌ", 2)
    assert len(sense_id_for("arramooz", "x", 1)) == 12
    assert entity_sense_id("GPE") == "entity:GPE"


def test_inventory_is_compiled_into_the_cache_and_reloaded(inventory: SenseInventory) -> None:
    assert inventory.path.exists() and inventory.built
    again = SenseInventory(inventory.cache_dir, shipped_dir=None)
    again.load()
    assert not again.built
    assert again.sizes() == inventory.sizes()
    assert inventory.sizes()["wsd_senses"] > 30_000
    ids = [s.sense_id for s in inventory.senses_for("عين")]
    assert len(ids) > 5 and len(set(ids)) == len(ids)
    assert ids == [s.sense_id for s in again.senses_for("عين")]


def test_stale_cache_is_rebuilt(tmp_path: Path) -> None:
    inv = SenseInventory(tmp_path, shipped_dir=None)
    tmp_path.mkdir(exist_ok=True)
    inv.path.write_bytes(b"not a pickle")
    inv.load()
    assert inv.built and inv.sizes()["wsd_senses"] > 30_000


def test_light_stem() -> None:
    assert light_stem("والأموال") == light_stem("أموال")
    assert light_stem("بالعين") == "عين"


def test_context_chooses_the_sense(wsd: Disambiguator) -> None:
    court = wsd.disambiguate("نطق القاضي بالحكم على المتهم بالسجن")
    match = wsd.disambiguate("أطلق الحكم صافرة نهاية المباراة بعد أن سير اللعب")
    by_token = {r["token"]: r for r in court}
    assert by_token["بالحكم"]["sense_id"] == "3324556c18a7"
    assert {r["token"]: r for r in match}["الحكم"]["sense_id"] == "83ff3dfc8993"


def test_fallback_is_the_most_frequent_sense(wsd: Disambiguator, inventory: SenseInventory) -> None:
    [item] = wsd.disambiguate("العين")
    assert item["sense_id"] == inventory.senses_for("عين")[0].sense_id
    assert wsd.disambiguate_span("العين", 0, 5, baseline=True) == item["sense_id"]


def test_output_fields_gloss_and_url(wsd: Disambiguator) -> None:
    out = wsd.disambiguate("وضع الرجل أمواله في البنك", include_gloss=True, sense_url=lambda s: f"/lexicon/senses/{s}")
    bank = next(r for r in out if r["token"] == "البنك")
    assert set(bank) == {"token", "lemma", "sense_id", "sense_url", "gloss"}
    assert bank["sense_url"] == f"/lexicon/senses/{bank['sense_id']}"
    assert "البنك" in normalize(bank["gloss"], alef=False)
    plain = wsd.disambiguate("وضع الرجل أمواله في البنك")
    assert "gloss" not in plain[0] and plain[0]["sense_url"] is None
    function_word = next(r for r in out if r["token"] == "في")
    assert function_word["sense_id"] is None and function_word["sense_url"] is None


def test_entities_get_entity_senses(wsd: Disambiguator) -> None:
    text = "زار الوزير بيت لحم أمس"
    out = wsd.disambiguate(text, entities=[{"type": "GPE", "start": 11, "end": 18}], include_gloss=True)
    by_token = {r["token"]: r for r in out}
    assert by_token["بيت"]["sense_id"] == by_token["لحم"]["sense_id"] == "entity:GPE"
    assert by_token["الوزير"]["sense_id"] != "entity:GPE"
    assert wsd.sense("entity:GPE") is not None and wsd.sense("entity:NOPE") is None


def test_sense_lookup(wsd: Disambiguator) -> None:
    entry = wsd.sense("83ff3dfc8993")
    assert entry is not None and entry["sense_id"] == "83ff3dfc8993" and entry["source"] == "arramooz"
    assert entry["gloss"] and "3324556c18a7" in entry["other_senses"]
    assert wsd.sense("000000000000") is None


def test_development_set_accuracy_beats_the_baseline(wsd: Disambiguator) -> None:
    """tests/gold/wsd.jsonl, written by the disambiguator's author (0.92 without the examples, 0.94 with): its floor
    is no claim that issue 5's aim is met; the blind set below is the honest measure."""
    gold = read_gold(GOLD)
    assert len(gold) == 100
    for item in gold:
        assert item["text"][item["start"] : item["end"]] == item["token"]
        assert wsd.inventory.get(item["expected_sense_id"]) is not None
    report = wsd_report(wsd, gold)
    assert report["accuracy"] >= 0.90
    assert report["accuracy"] > report["baseline_accuracy"]


def _span(text: str, token: str) -> tuple[str, int, int]:
    start = text.index(token)
    return text, start, start + len(token)


def test_a_context_word_counts_through_its_own_glosses(wsd: Disambiguator) -> None:
    # ركود shares no word with any gloss of سوق, but its own gloss says كساد, which the slump sense's gloss uses.
    slump = wsd.disambiguate_span(*_span("يشكو أصحاب المحلات من ركود السوق منذ أشهر", "السوق"))
    assert slump == "0e07281a276a"
    assert wsd.disambiguate_span(*_span("اشترت أمي الخضار من السوق", "السوق")) == "22fbc4bbe934"


def test_words_that_cannot_be_verbs_get_noun_senses(wsd: Disambiguator) -> None:
    # The morphology reads وجه after في as a verb and ساعة as an adverb; a preposition and ta marbuta say noun.
    assert wsd.disambiguate_span(*_span("ابتسم البائع في وجه الزبائن", "وجه")) == "575b6c7f516b"
    assert wsd.disambiguate_span(*_span("انتظرت صديقي ساعة كاملة", "ساعة")) == "321a655f3092"


class _FixedScores(Disambiguator):
    """Scores given per sense id: isolates the choice rule from the overlap."""

    def __init__(self, inventory: SenseInventory, morphology: Morphology, scores: dict[str, float]) -> None:
        super().__init__(inventory, morphology)
        self.scores = scores

    def score(self, sense: Sense, words: object, index: int) -> float:  # type: ignore[override]
        return self.scores.get(sense.sense_id, 0.0)


def test_rank_prior_breaks_weak_overlaps_toward_earlier_senses(inventory: SenseInventory) -> None:
    cands = inventory.senses_for("عين")
    morph = Morphology(CACHE_DIR)
    weak = _FixedScores(inventory, morph, {cands[3].sense_id: 0.3})
    assert weak.choose(cands, [], 0) == cands[0]  # 0.3 + 1/4 < 1
    strong = _FixedScores(inventory, morph, {cands[3].sense_id: 0.9})
    assert strong.choose(cands, [], 0) == cands[3]  # 0.9 + 1/4 > 1
    close = _FixedScores(inventory, morph, {cands[1].sense_id: 0.6, cands[2].sense_id: 0.7})
    assert close.choose(cands, [], 0) == cands[1]  # 0.6 + 1/2 > 0.7 + 1/3 > 0 + 1
    assert _FixedScores(inventory, morph, {}).choose(cands, [], 0) == cands[0]


def test_examples_file_shape(inventory: SenseInventory) -> None:
    """data/wsd_examples.txt: CC BY-SA, 100+ lemmas, 2+ senses each, 3+ sentences a sense, ids of the lemma's senses,
    and no sentence of a development set (they measure the examples, so they must never be among them)."""
    head = EXAMPLES_FILE.read_text(encoding="utf-8").splitlines()[:3]
    assert any("CC BY-SA 4.0" in line for line in head)
    examples = read_examples()
    per_sense: dict[str, int] = {}
    senses_of: dict[str, set[str]] = {}
    for ex in examples:
        assert ex.sense_id in {s.sense_id for s in inventory.senses_for(ex.lemma)}, ex
        assert ex.text[ex.start : ex.end].strip() == ex.text[ex.start : ex.end] != ""
        per_sense[ex.sense_id] = per_sense.get(ex.sense_id, 0) + 1
        senses_of.setdefault(ex.lemma, set()).add(ex.sense_id)
    assert len(senses_of) >= 100 and all(len(s) >= 2 for s in senses_of.values())
    assert min(per_sense.values()) >= 3
    assert len({ex.text for ex in examples}) == len(examples)
    gold_texts = {g["text"] for path in (GOLD, NATURAL) for g in read_gold(path)}
    assert not gold_texts & {ex.text for ex in examples}


def test_parse_examples() -> None:
    [ex] = parse_examples("// comment\nكلية | 30f512eb3f5a | تبرع [بكليته] لأخيه\n")
    assert ex == Example("كلية", "30f512eb3f5a", "تبرع بكليته لأخيه", 5, 11)
    for bad in ("كلية | x | بلا هدف", "كلية | x | [أ] [ب]", "كلية | [أ]"):
        with pytest.raises(ValueError):
            parse_examples(bad)


def test_examples_choose_where_the_glosses_cannot(wsd: Disambiguator, inventory: SenseInventory) -> None:
    # No gloss of كلية shares a word with this sentence, so overlap alone leaves the first sense (the college); the
    # kidney's examples hold غسيل and مريض.
    text, start, end = _span("يحتاج المريض إلى غسيل الكلية مرتين كل أسبوع", "الكلية")
    plain = Disambiguator(inventory, wsd.morphology, examples=())
    assert plain.disambiguate_span(text, start, end) == "cf36b8c562f1"
    assert wsd.disambiguate_span(text, start, end) == "30f512eb3f5a"


def test_examples_profile_weights(inventory: SenseInventory) -> None:
    """Two senses with two examples each: a context word of only one sense's examples weighs for it alone, one
    shared by both weighs for neither, and a word without examples has no profile (today's behaviour)."""
    college, kidney = "cf36b8c562f1", "30f512eb3f5a"
    examples = [
        Example("كلية", sid, *_span(text, "الكلية"))
        for sid, text in (
            (college, "درس الطالب في الكلية أربع سنوات"),
            (college, "نجح الطالب في امتحان الكلية"),
            (kidney, "أصيب الطالب بمرض في الكلية"),
            (kidney, "عالج الطبيب الطالب من حصى الكلية"),
        )
    ]
    d = Disambiguator(inventory, Morphology(CACHE_DIR), examples=examples)
    key = inventory.get(kidney).key  # type: ignore[union-attr]
    profile = d.profile(key)
    assert set(profile) == {college, kidney}
    assert light_stem("امتحان") in profile[college] and light_stem("امتحان") not in profile[kidney]
    assert light_stem("بمرض") in profile[kidney] and light_stem("حصى") in profile[kidney]
    assert light_stem("طالب") not in profile[college] and light_stem("طالب") not in profile[kidney]
    assert d.profile(inventory.senses_for("عين")[0].key) == {}
    text, start, end = _span("نقل المريض إلى المستشفى بسبب الكلية", "الكلية")
    assert d.disambiguate_span(text, start, end) == kidney


def test_examples_script_checks_the_file_and_finds_faults() -> None:
    script = load_script("wsd_examples")
    assert script.check(read_examples()) == []
    text, start, end = _span("تخرج أخي في الكلية", "الكلية")
    wrong_lemma = Example("كلية", "3a70a914e73b", text, start, end)  # a sense of رقم
    half_word = Example("كلية", "cf36b8c562f1", text, start + 2, end)
    problems = script.check([wrong_lemma, half_word])
    assert any("not a sense of كلية" in p for p in problems)
    assert any("not one whole word" in p for p in problems)
    alone = script.check([half_word])
    assert any("one sense" in p for p in alone) and any("< 3" in p for p in alone)
    # Stock sentences two writers meet on count as near-duplicates; two uses of the word alone do not.
    assert script.near_duplicate("ترك الشاب مقعده في الحافلة لامرأة مسنة", "ترك الشاب مقعده في الحافلة المزدحمة لامرأة")
    assert not script.near_duplicate("ترك الشاب مقعده في الحافلة", "فاز الحزب بعشرين مقعدا في البرلمان")


def test_example_contexts_are_cached(wsd: Disambiguator, inventory: SenseInventory) -> None:
    """The shipped examples are lemmatised once into the cache directory; another disambiguator reads them back."""
    contexts = wsd.example_contexts()
    assert len(contexts) >= 100
    [cached] = inventory.cache_dir.glob("wsd-examples-*.pickle")

    class NoLemmatising(Disambiguator):
        def _context_keys(self, ex: Example, key: str) -> frozenset[str]:
            raise AssertionError("the cached contexts were not used")

    again = NoLemmatising(inventory, wsd.morphology)
    assert again.example_contexts() == contexts
    cached.write_bytes(b"not a pickle")  # a damaged file is rebuilt, not trusted
    with pytest.raises(AssertionError, match="cached contexts"):
        NoLemmatising(inventory, wsd.morphology).example_contexts()


def test_natural_dev_set_accuracy(wsd: Disambiguator) -> None:
    """tests/gold/wsd_natural.jsonl: natural sentences written without the disambiguator's gloss wording. Measured
    0.622 before the sense-tagged examples, 0.816 with them (held-back ids 73-98 0.500 -> 0.769; MFS 0.306)."""
    gold = read_gold(NATURAL)
    assert len(gold) == 98
    report = wsd_report(wsd, gold)
    assert report["accuracy"] >= 0.78
    assert report["accuracy"] >= report["baseline_accuracy"] + 0.45


BLIND_SETS = [
    # (file, items, floor): the floor sits 0.03 under the last look (tests/gold/WSD.md counts every look).
    # wsd_test: 0.343 at d1df688, 0.475 at 29b8359, 0.707 at 4629391 (the sense-tagged examples); baseline 0.313.
    ("wsd_test.jsonl", 99, 0.677),
    # wsd_test2: 0.619 for the code of 091c98f, 0.762 at 4629391; baseline 0.295.
    ("wsd_test2.jsonl", 105, 0.732),
]


@pytest.mark.parametrize(("name", "items", "floor"), BLIND_SETS, ids=[name for name, _, _ in BLIND_SETS])
def test_blind_test_set_accuracy_keeps_its_measured_level(
    wsd: Disambiguator, name: str, items: int, floor: float
) -> None:
    """The blind sets (tests/gold/WSD.md), written by authors who never read the disambiguator: a regression under
    the last look's figure fails. Issue 5's aim is 0.70 beside the most-frequent-sense baseline."""
    gold = read_gold(Path(__file__).resolve().parents[1] / "gold" / name)
    assert len(gold) == items
    report = wsd_report(wsd, gold)
    assert report["accuracy"] >= floor
    assert report["accuracy"] > report["baseline_accuracy"] + 0.3


def test_context_words_count_within_the_window_only(wsd: Disambiguator, inventory: SenseInventory) -> None:
    """A word's sense is read from the words within CONTEXT_WINDOW of it (the work per word is bounded): المباراة
    (the match) supports the referee's sense of الحكم from CONTEXT_WINDOW words away, not from one word further."""
    referee = inventory.get("83ff3dfc8993")
    assert referee is not None

    def support(fillers: int) -> tuple[float, float]:
        words = wsd._words("الحكم " + " ".join(["و"] * fillers) + " المباراة")
        assert len(words) == fillers + 2
        return wsd.score(referee, words, 0), wsd.example_score(referee, words, 0)

    inside, outside = support(CONTEXT_WINDOW - 1), support(CONTEXT_WINDOW)
    assert inside[0] > 0 and inside[1] > 0
    assert outside == (0.0, 0.0)


def test_an_answer_does_not_depend_on_the_texts_read_before(inventory: SenseInventory) -> None:
    # the gloss words of a word's candidates were memoised by headword, though a verb reading and a noun reading of
    # the same headword have other candidates: «ضع يدك» then got another sense after some texts than before them
    everyday = GOLD.with_name("ner_everyday_dev.jsonl").read_text(encoding="utf-8").splitlines()
    texts = [json.loads(line)["text"] for line in everyday[:40]]
    morphology = Morphology(CACHE_DIR)  # reads each text alone: it keeps no state between texts
    alone = {text: Disambiguator(inventory, morphology).disambiguate(text) for text in texts[30:]}
    reader = Disambiguator(inventory, morphology)
    for text in texts[:30]:
        reader.disambiguate(text)
    assert {text: reader.disambiguate(text) for text in texts[30:]} == alone
