"""Area C: the dialect glossary and lookup, in process against rapidfuzz and through the HTTP stack with wrk.

- glossary, in process: `DialectIndex.glossary` against the same glossary with its fuzzy stage done by
  `rapidfuzz.process.extract` over the same index (same candidates, same answers: checked before timing), and the
  fuzzy stage alone (`Lexicon.search_many` against `process.extract` per word);
- glossary and lookup through HTTP: `tahqiq serve --areas analysis` under wrk (GET with a query string), next to a
  bare BlackSheep route under the same server flags, as throughput and p50/p99.
The texts are the contexts of the project's glossary gold sets (dialect sentences the corpus does not contain).
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

from rapidfuzz import fuzz, process
from tahqiq.analysis.dialect import TIE_BREAK_CANDIDATES, DialectIndex, match_form
from tahqiq.analysis.importer import shipped_corpus
from tahqiq.analysis.morphology import Morphology
from tahqiq.analysis.wsd import SenseInventory
from tahqiq.core import scan

from benches import harness
from benches.bench_access import BARE_APP, free_port, granian_args, tahqiq_env, wrk
from benches.bench_access import process as server_process

ROOT = Path(__file__).resolve().parent.parent
GOLD = ROOT / "tests" / "gold"
CACHE = ROOT / "var" / "cache"  # the morphology table, built once here so that no server builds it under load
TOP_K, THRESHOLD = 3, 0.65


def gold_texts() -> list[str]:
    return [
        json.loads(line)["context"]
        for path in sorted(GOLD.glob("glossary_*.jsonl"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]


def rapidfuzz_glossary(index: DialectIndex, text: str) -> list[dict[str, object]]:
    """The glossary with its fuzzy candidates from rapidfuzz instead of tahqiq.core.Lexicon."""
    g = index.glossary_index("all")
    out: list[dict[str, object]] = []
    for t in scan(text):
        if t.kind not in ("word", "number"):
            continue
        norm = match_form(t.text)
        found = process.extract(
            norm, g.keys, scorer=fuzz.ratio, limit=TOP_K + TIE_BREAK_CANDIDATES, score_cutoff=min(THRESHOLD, 0.5) * 100
        )
        hits = [(i, score / 100) for _, score, i in found]
        out.append({"token": t.text, "normalized": norm, "matches": g.matches(t.text, norm, hits, TOP_K, THRESHOLD)})
    return out


def in_process(ctx: harness.Context, index: DialectIndex, texts: list[str]) -> list[harness.Row]:
    assert [index.glossary(t) for t in texts] == [rapidfuzz_glossary(index, t) for t in texts], "answers differ"
    repeats = 3 if ctx.quick else 9
    ours, anchor = harness.paired_medians(
        lambda: [index.glossary(t) for t in texts],
        lambda: [rapidfuzz_glossary(index, t) for t in texts],
        repeats=repeats,
    )
    g = index.glossary_index("all")
    words = [match_form(t.text) for text in texts for t in scan(text) if t.kind == "word"]
    fuzzy_ours, fuzzy_anchor = harness.paired_medians(
        lambda: g.lexicon.search_many(words, top_k=TOP_K, threshold=THRESHOLD),
        lambda: [process.extract(w, g.keys, scorer=fuzz.ratio, limit=TOP_K, score_cutoff=65) for w in words],
        repeats=repeats,
    )
    ratio = anchor / ours
    return [
        harness.Row(
            "analysis",
            f"glossary, {len(texts)} dialect sentences, in process",
            ours / len(texts),
            anchor / len(texts),
            "the same glossary with rapidfuzz.process.extract as its fuzzy stage",
            unit="sentence",
            target=">= 50x",
            met=ratio >= 50,
            notes=f"{len(g.keys):,} corpus forms; identical answers; the rest is Python result assembly",
        ),
        harness.Row(
            "analysis",
            f"glossary fuzzy stage, {len(words)} words",
            fuzzy_ours / len(words),
            fuzzy_anchor / len(words),
            "rapidfuzz.process.extract(scorer=fuzz.ratio, limit=3, score_cutoff=65) per word",
            unit="word",
            target=">= 50x",
            met=fuzzy_anchor / fuzzy_ours >= 50,
            notes="Lexicon.search_many over the same normalised forms",
        ),
    ]


def over_http(ctx: harness.Context, texts: list[str], index: DialectIndex) -> list[harness.Row]:
    seconds = 2 if ctx.quick else 10
    rows: list[harness.Row] = []
    with tempfile.TemporaryDirectory(prefix="tahqiq-bench-analysis-") as tmp:
        work = Path(tmp)
        (work / "bare.py").write_text(BARE_APP)
        env = tahqiq_env(f"sqlite:///{work / 'db.sqlite'}", work)
        env["TAHQIQ_AREAS"] = "analysis"
        env["TAHQIQ_CACHE_DIR"] = str(CACHE)
        port, bare_port = free_port(), free_port()
        url, bare = f"http://127.0.0.1:{port}", f"http://127.0.0.1:{bare_port}/"
        serve = [sys.executable, "-m", "tahqiq", "serve", "--port", str(port), "--areas", "analysis"]
        sentence = index.sources["tahqiq"].sentences[0].text
        news = json.loads((GOLD / "ner_msa.jsonl").read_text(encoding="utf-8").splitlines()[0])["text"]
        cases = [
            (f"ner, a {len(news.split())}-word news sentence", f"{url}/ner?text={quote(news)}"),
            ("wsd, the same sentence", f"{url}/wsd?text={quote(news)}"),
            ("re, the same sentence", f"{url}/re?text={quote(news)}"),
            ("morph, the same sentence", f"{url}/morph?text={quote(news)}"),
            ("glossary, one dialect sentence", f"{url}/dialect/corpus/glossary?text={quote(texts[0])}"),
            ("lookup, exact text", f"{url}/dialect/corpus?text={quote(sentence)}"),
            ("lookup, fuzzy fallback", f"{url}/dialect/corpus?text={quote(sentence[:-3] + 'xyz')}"),
        ]
        with (
            server_process(serve, env, work, url + "/healthz"),
            server_process(granian_args("bare:app", bare_port), env, work, bare),
        ):
            bare_load = wrk(bare, seconds, None, work)
            # One connection: the latency of one request with no queue in front of it (the /ner aim is about this).
            alone = wrk(cases[0][1], seconds, None, work, connections=1)
            rows.append(
                harness.Row(
                    "analysis",
                    f"{cases[0][0]}, HTTP GET, one connection",
                    alone.p50_ms / 1000,
                    None,
                    "-",
                    unit="request (p50)",
                    target="< 2 ms p50",
                    met=alone.p50_ms < 2,
                    notes=f"p50 {alone.p50_ms:.2f} ms, p99 {alone.p99_ms:.2f} ms, {alone.rps:,.0f} req/s",
                )
            )
            for case, target in cases:
                load = wrk(target, seconds, None, work)
                rows.append(
                    harness.Row(
                        "analysis",
                        f"{case}, HTTP GET",
                        1 / load.rps,
                        1 / bare_load.rps,
                        "bare BlackSheep JSON route, same server flags",
                        unit="request",
                        notes=f"{load.rps:,.0f} req/s, p50 {load.p50_ms:.2f} ms, p99 {load.p99_ms:.2f} ms; "
                        f"bare {bare_load.rps:,.0f} req/s; {load.errors} errors",
                    )
                )
    return rows


def run(ctx: harness.Context) -> list[harness.Row]:
    Morphology(CACHE).load()  # outside the timed part (about a minute the first time on a machine)
    SenseInventory(CACHE).load()
    index = DialectIndex({"tahqiq": shipped_corpus()})
    texts = gold_texts()
    if ctx.quick:
        texts = texts[:20]
    started = time.perf_counter()
    rows = in_process(ctx, index, texts)
    rows += over_http(ctx, texts, index)
    ctx.notes.append(
        f"analysis: shipped corpus {len(index.sources['tahqiq'].sentences)} sentences; {len(texts)} gold contexts; "
        f"{statistics.mean(len(t) for t in texts):.0f} characters on average; {time.perf_counter() - started:.0f} s"
    )
    return rows
