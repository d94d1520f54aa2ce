"""NER throughput: sentences per second and p50/p99 latency of `Recognizer.tag` on 30-word sentences, in process.

The sentences are the NER development gold sentences (tests/gold/ner_*.jsonl without the blind ner_test*
and ner_everyday sets, which nothing but their measurement may read) joined and cut into 30-word windows, so the mix
of entities is that of news text. One instance is built first (its build time is reported); every call is
timed alone (nested mode, with offsets, the heaviest shape of /ner). The per-token memo is warm, as in a running
service; a cold row times sentences whose words the memo has not seen. A rules-only recognizer (``learned=False``)
is timed on the same sentences, interleaved, so the learned layer's own cost is the difference in the same run.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from tahqiq.analysis.ner import Recognizer

from benches import harness
from tools.evaluate.ner import is_blind

GOLD = Path(__file__).resolve().parent.parent / "tests" / "gold"
WORDS = 30


def sentences() -> list[str]:
    words: list[str] = []
    for path in sorted(GOLD.glob("ner_*.jsonl")):
        if is_blind(path):  # the blind sets: read only by their measurement
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                words.extend(json.loads(line)["text"].split())
    return [" ".join(words[i : i + WORDS]) for i in range(0, len(words) - WORDS + 1, WORDS)]


def run(ctx: harness.Context) -> list[harness.Row]:
    started = time.perf_counter()
    rec = Recognizer()
    build_s = time.perf_counter() - started
    rules = Recognizer(learned=False)
    sents = sentences()
    rounds = 3 if ctx.quick else 30
    for s in sents:  # warm the per-token memo
        rec.tag(s, include_offsets=True)
        rules.tag(s, include_offsets=True)
    samples: list[float] = []
    rules_samples: list[float] = []
    for _ in range(rounds):
        for s in sents:
            t0 = time.perf_counter()
            rec.tag(s, include_offsets=True)
            t1 = time.perf_counter()
            rules.tag(s, include_offsets=True)
            rules_samples.append(time.perf_counter() - t1)
            samples.append(t1 - t0)
    p50 = harness.percentile(samples, 50)
    p99 = harness.percentile(samples, 99)
    per_s = len(samples) / sum(samples)
    cold = Recognizer()
    cold_samples = []
    for s in sents:
        t0 = time.perf_counter()
        cold.tag(s, include_offsets=True)
        cold_samples.append(time.perf_counter() - t0)
    ctx.notes.append(
        f"ner: {len(sents)} sentences of {WORDS} words from the NER development gold files; "
        f"{per_s:,.0f} sentences/s warm; "
        f"gazetteer entries {rec.sizes()['gazetteer_entries']:,}"
    )
    return [
        harness.Row("ner", "build recognizer", build_s, None, "-", unit="build", notes="once per process"),
        harness.Row(
            "ner",
            "tag 30 words, p50",
            p50,
            None,
            "-",
            unit="sentence",
            target="< 2 ms p50",
            met=p50 < 0.002,
            notes=f"{per_s:,.0f} sentences/s",
        ),
        harness.Row("ner", "tag 30 words, p99", p99, None, "-", unit="sentence"),
        harness.Row(
            "ner",
            "tag 30 words, rules alone (no learned layer), p50",
            harness.percentile(rules_samples, 50),
            None,
            "-",
            unit="sentence",
            notes="the learned layer's cost is the p50 above minus this",
        ),
        harness.Row(
            "ner", "tag 30 words, cold memo, p50", harness.percentile(cold_samples, 50), None, "-", unit="sentence"
        ),
    ]
