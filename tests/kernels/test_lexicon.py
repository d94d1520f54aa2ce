"""`tahqiq.core.Lexicon` against a brute-force twin built on rapidfuzz: same indices, same scores."""

from __future__ import annotations

import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz
from tahqiq.core import Lexicon

ARABIC = "ابتثجحخدذرزسشصضطظعغفقكلمنهويءآأإؤئىة"
LATIN = "abcdefghijklmnopqrstuvwxyzABC"
MIXED = ARABIC[:12] + LATIN[:8] + "é٣3 "


def reference_search(
    entries: list[str], query: str, top_k: int = 3, threshold: float = 0.65
) -> list[tuple[int, float]]:
    """Score every entry with rapidfuzz, keep those at or above the threshold, best first, ties by index."""
    scored = [(i, fuzz.ratio(query, entry) / 100) for i, entry in enumerate(entries)]
    kept = [(i, s) for i, s in scored if s >= threshold]
    kept.sort(key=lambda pair: (-pair[1], pair[0]))
    return kept[:top_k]


def words(alphabet: str, max_size: int = 10) -> st.SearchStrategy[str]:
    return st.text(alphabet=alphabet, max_size=max_size)


def vocab_and_query(alphabet: str) -> st.SearchStrategy[tuple[list[str], str]]:
    # Queries are often near-copies of an entry, so that matches above the threshold are common.
    def with_query(vocab: list[str]) -> st.SearchStrategy[tuple[list[str], str]]:
        near = (
            st.sampled_from(vocab).flatmap(
                lambda w: st.tuples(st.integers(0, len(w)), words(alphabet, 2)).map(
                    lambda cut: w[: cut[0]] + cut[1] + w[cut[0] + 1 :]
                )
            )
            if vocab
            else words(alphabet)
        )
        return st.tuples(st.just(vocab), st.one_of(near, words(alphabet)))

    return st.lists(words(alphabet), max_size=80).flatmap(with_query)


search_args = st.tuples(
    st.integers(min_value=1, max_value=8),
    st.one_of(st.sampled_from([0.0, 0.5, 0.65, 0.8, 1.0]), st.floats(min_value=0.0, max_value=1.0)),
)


@pytest.mark.parametrize("alphabet", [ARABIC, LATIN, MIXED], ids=["arabic", "latin", "mixed"])
def test_search_equals_rapidfuzz_brute_force(alphabet: str) -> None:
    @settings(max_examples=300, deadline=None)
    @given(vocab_and_query(alphabet), search_args)
    def check(data: tuple[list[str], str], args: tuple[int, float]) -> None:
        vocab, query = data
        top_k, threshold = args
        lexicon = Lexicon(vocab)
        assert lexicon.search(query, top_k, threshold) == reference_search(vocab, query, top_k, threshold)

    check()


@settings(max_examples=100, deadline=None)
@given(vocab_and_query(MIXED), st.lists(words(MIXED), max_size=20), search_args)
def test_search_many_equals_search(data: tuple[list[str], str], queries: list[str], args: tuple[int, float]) -> None:
    vocab, query = data
    lexicon = Lexicon(vocab)
    queries = [query, *queries]
    assert lexicon.search_many(queries, *args) == [lexicon.search(q, *args) for q in queries]


def test_scores_are_exactly_rapidfuzz_ratio_over_100() -> None:
    vocab = ["مدرسة", "مدارس", "المدرسة", "درس", "مدرسه", "school"]
    lexicon = Lexicon(vocab)
    for index, score in lexicon.search("مدرسة", top_k=10, threshold=0.0):
        assert score == fuzz.ratio("مدرسة", vocab[index]) / 100


def test_long_queries_beyond_one_machine_word() -> None:
    base = "الحكومة الفلسطينية تعلن عن خطة جديدة لدعم المزارعين في الضفة الغربية وقطاع غزة " * 2
    vocab = [base, base.replace("خطة", "خطط"), base[::-1], base[:70]]
    lexicon = Lexicon(vocab)
    assert len(base) > 128
    assert lexicon.search(base, 4, 0.0) == reference_search(vocab, base, 4, 0.0)


def test_duplicates_and_empty_entries_are_allowed() -> None:
    lexicon = Lexicon(["", "سلام", "", "سلام"])
    assert len(lexicon) == 4
    assert lexicon.search("") == [(0, 1.0), (2, 1.0)]
    assert lexicon.search("سلام", top_k=5) == [(1, 1.0), (3, 1.0)]


def test_empty_lexicon() -> None:
    lexicon = Lexicon([])
    assert len(lexicon) == 0
    assert lexicon.search("x") == []
    assert lexicon.search_many(["x", ""]) == [[], []]


@pytest.mark.parametrize(
    ("top_k", "threshold", "message"),
    [
        (0, 0.65, "top_k"),
        (-3, 0.65, "top_k"),
        (3, -0.01, "threshold"),
        (3, 1.5, "threshold"),
        (3, float("nan"), "threshold"),
    ],
)
def test_bad_arguments_raise_value_error(top_k: int, threshold: float, message: str) -> None:
    lexicon = Lexicon(["a"])
    with pytest.raises(ValueError, match=message):
        lexicon.search("a", top_k, threshold)
    with pytest.raises(ValueError, match=message):
        lexicon.search_many(["a"], top_k, threshold)


def test_non_string_entries_are_named() -> None:
    with pytest.raises(TypeError, match=r"entries\[1\] must be str"):
        Lexicon(["a", 3])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="not a single str"):
        Lexicon("abc")
    with pytest.raises(TypeError, match=r"queries\[0\] must be str"):
        Lexicon(["a"]).search_many([None])  # type: ignore[list-item]


def test_search_many_releases_the_gil() -> None:
    # While search_many runs, a pure-Python thread must keep running; with the GIL held it would stall.
    vocab = [f"{a}{b}{c}{d}" for a in ARABIC for b in ARABIC[:20] for c in ARABIC[:10] for d in "ابت"]
    lexicon = Lexicon(vocab)
    queries = [w + "ي" for w in vocab[:: len(vocab) // 3000]] * 4
    counter = 0
    running = threading.Event()
    stop = threading.Event()

    def spin() -> None:
        nonlocal counter
        running.set()
        while not stop.is_set():
            counter += 1

    thread = threading.Thread(target=spin)
    thread.start()
    running.wait()
    time.sleep(0.01)
    before = counter
    started = time.perf_counter()
    lexicon.search_many(queries, 3, 0.5)
    elapsed = time.perf_counter() - started
    during = counter - before
    stop.set()
    thread.join()
    assert elapsed > 0.05, "the workload is too small to tell"
    assert during > 10_000
