"""`Lexicon` against rapidfuzz on a real Arabic vocabulary (Debian's hunspell-ar), in the same run.

- search: `Lexicon.search` vs
  `rapidfuzz.process.extract(q, vocab, scorer=fuzz.ratio, limit=3, score_cutoff=65)`,
  per query on one core, after checking that both give the same indices and scores for every query.
- search_many: `Lexicon.search_many` vs `rapidfuzz.process.cdist(..., workers=-1)` plus top-3 selection.
- build: index construction time for the whole vocabulary, and heap bytes per entry.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import numpy as np
from rapidfuzz import fuzz, process
from tahqiq.core import Lexicon

from benches import harness
from benches.data import arabic_vocabulary, perturbed_queries

TOP_K = 3
THRESHOLD = 0.65


def _extract(query: str, vocab: list[str]) -> list[tuple[int, float]]:
    found = process.extract(query, vocab, scorer=fuzz.ratio, limit=TOP_K, score_cutoff=THRESHOLD * 100)
    return [(index, score / 100) for _, score, index in found]


def _cdist_top_k(queries: list[str], vocab: list[str], chunk: int = 100) -> list[list[tuple[int, float]]]:
    """The batch anchor: a score matrix from cdist on every core, then top-k per row (ties by lower index)."""
    out: list[list[tuple[int, float]]] = []
    for start in range(0, len(queries), chunk):
        matrix = process.cdist(
            queries[start : start + chunk],
            vocab,
            scorer=fuzz.ratio,
            score_cutoff=THRESHOLD * 100,
            dtype=np.float64,
            workers=-1,
        )
        for row in matrix:
            kept = np.flatnonzero(row >= THRESHOLD * 100)
            order = np.lexsort((kept, -row[kept]))[:TOP_K]
            out.append([(int(kept[i]), float(row[kept[i]]) / 100) for i in order])
    return out


def _per_query_times(fn: Callable[[str], object], queries: list[str]) -> list[float]:
    times = []
    for q in queries:
        start = time.perf_counter()
        fn(q)
        times.append(time.perf_counter() - start)
    return times


def run(ctx: harness.Context) -> list[harness.Row]:
    vocab = arabic_vocabulary()
    n_queries = 100 if ctx.quick else 1000
    queries = perturbed_queries(vocab, n_queries)
    ctx.notes.append(f"lexicon: {len(vocab):,} Arabic word forms from hunspell-ar, {n_queries} perturbed queries")
    rows: list[harness.Row] = []

    # Build time and memory.
    build_s = harness.median_time(lambda: Lexicon(vocab), repeats=3 if ctx.quick else 7)
    lexicon = Lexicon(vocab)
    per_entry = lexicon.memory_bytes() / len(lexicon)
    rows.append(
        harness.Row(
            "lexicon",
            f"build index, {len(vocab):,} entries",
            build_s,
            None,
            "-",
            unit="build",
            target="< 1 s",
            met=build_s < 1.0,
            notes=f"{per_entry:.1f} heap bytes per entry",
        )
    )

    # Single queries, one core: same answers first, then per-query medians.
    ours_results = [lexicon.search(q, TOP_K, THRESHOLD) for q in queries]
    anchor_times: list[float] = []
    mismatches = 0
    for q, ours in zip(queries, ours_results, strict=True):
        start = time.perf_counter()
        theirs = _extract(q, vocab)
        anchor_times.append(time.perf_counter() - start)
        mismatches += theirs != ours
    ours_rounds = [_per_query_times(lambda q: lexicon.search(q, TOP_K, THRESHOLD), queries) for _ in range(5)]
    ours_median = statistics.median(statistics.median(r) for r in ours_rounds)
    anchor_median = statistics.median(anchor_times)
    ratio = anchor_median / ours_median
    rows.append(
        harness.Row(
            "lexicon",
            "search, top-3 at 0.65, one core",
            ours_median,
            anchor_median,
            "rapidfuzz.process.extract(scorer=fuzz.ratio, limit=3, score_cutoff=65)",
            unit="query",
            target=">= 100x, identical results",
            met=ratio >= 100 and mismatches == 0,
            notes=f"{mismatches} of {len(queries)} queries differ from the anchor",
        )
    )

    # Batches on every core.
    many_ours = lexicon.search_many(queries, TOP_K, THRESHOLD)
    many_anchor = _cdist_top_k(queries, vocab)
    batch_mismatches = sum(a != b for a, b in zip(many_ours, many_anchor, strict=True))
    ours_s, anchor_s = harness.paired_medians(
        lambda: lexicon.search_many(queries, TOP_K, THRESHOLD),
        lambda: _cdist_top_k(queries, vocab),
        repeats=3,
    )
    rows.append(
        harness.Row(
            "lexicon",
            f"search_many, {len(queries)} queries, all cores",
            ours_s / len(queries),
            anchor_s / len(queries),
            "rapidfuzz.process.cdist(workers=-1) + top-3 selection",
            unit="query",
            target="faster",
            met=anchor_s > ours_s and batch_mismatches == 0,
            notes=f"{batch_mismatches} of {len(queries)} queries differ from the anchor",
        )
    )
    return rows
