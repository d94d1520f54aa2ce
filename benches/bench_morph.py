"""Morphology throughput: tokens per second of `Morphology.analyze` warm (one core) and cold.

- warm: the gold sentences (MSA news) analysed again and again by a loaded instance, task full, flag 1; every form
  is then in the table or the memo, which is the steady state of a running service.
- cold: a fresh instance on an existing table directory: load of the compiled table plus the first call.
- unseen: forms outside the table, each one analysed by the package's analyser (the memo is emptied with `forget`).
The compiled table is built once in a temporary directory before timing (its build time is reported too).
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from tahqiq.analysis.morphology import DEFAULT_TABLE_SIZE, Morphology

from benches import harness
from tools.report import DEFAULT_GOLD, load_gold


def run(ctx: harness.Context) -> list[harness.Row]:
    sentences = list(dict.fromkeys(row["sentence"] for row in load_gold(DEFAULT_GOLD)))
    text = " ".join(sentences)
    table_size = 500 if ctx.quick else DEFAULT_TABLE_SIZE
    rows: list[harness.Row] = []
    with tempfile.TemporaryDirectory(prefix="bench-morph-") as tmp:
        data = Path(tmp)
        started = time.perf_counter()
        # built here (not the wheel's table), and without the analyser's answers shared on disk (each start cold)
        built = Morphology(data, table_size=table_size, shipped_dir=None, shared=False)
        built.load()
        build_s = time.perf_counter() - started
        n_tokens = len(built.analyze(text))
        ctx.notes.append(
            f"morph: {built.package} {built.package_version()}, table of {table_size:,} corpus forms "
            f"({built.sizes()['morphology_lemmas']:,} lemmas); text: {len(sentences)} gold sentences, {n_tokens} words"
        )
        rows.append(
            harness.Row("morph", "build compiled table", build_s, None, "-", unit="build", notes="once per version")
        )

        def cold() -> None:
            Morphology(data, table_size=table_size, shipped_dir=None, shared=False).analyze(text)

        def cold_shared() -> None:
            Morphology(data, table_size=table_size, shipped_dir=None).analyze(text)

        cold_s = harness.median_time(cold, repeats=3 if ctx.quick else 7)
        cold_shared()  # the analyser's answers for the text's rare forms now on disk, as after any earlier run
        shared_s = harness.median_time(cold_shared, repeats=3 if ctx.quick else 7)
        rows.append(
            harness.Row(
                "morph",
                "cold: load table + first call",
                cold_s,
                None,
                "-",
                unit="start",
                notes=f"{n_tokens / cold_s:,.0f} tokens/s including the load",
            ),
        )
        rows.append(
            harness.Row(
                "morph",
                "cold start, the analyser's answers shared on disk vs not",
                shared_s,
                cold_s,
                "the analyser's answers in memory only",
                unit="start",
                notes="a restart, or another worker, after a run that met the same rare forms",
            )
        )

        built.analyze(text)  # every form now in the table or the memo
        number = 3 if ctx.quick else 20
        warm_s = harness.median_time(lambda: built.analyze(text), repeats=5 if ctx.quick else 9, number=number)
        per_token = warm_s / n_tokens
        rows.append(
            harness.Row(
                "morph",
                "warm: analyze, task full, flag 1",
                per_token,
                None,
                "-",
                unit="token",
                target=">= 50,000 tokens/s",
                met=1 / per_token >= 50_000,
                notes=f"{1 / per_token:,.0f} tokens/s",
            )
        )
        all_s = harness.median_time(
            lambda: built.analyze(text, flag="*", include_lemma=True, lemma_url=str),
            repeats=5 if ctx.quick else 9,
            number=number,
        )
        rows.append(
            harness.Row(
                "morph",
                "warm: flag *, include_lemma",
                all_s / n_tokens,
                None,
                "-",
                unit="token",
                notes=f"{n_tokens / all_s:,.0f} tokens/s",
            )
        )

        unseen = [f"وب{w}" for w in ("المستشفيات", "الجامعات", "الطائرات", "القطارات", "المحطات", "المكتبات")]
        unseen += [f"ول{w}" for w in ("مستشفيات", "جامعات", "طائرات", "قطارات", "محطات", "مكتبات")]

        def fresh_forms() -> None:
            built.forget()
            built.analyze(" ".join(unseen))

        unseen_s = harness.median_time(fresh_forms, repeats=3 if ctx.quick else 7)
        rows.append(
            harness.Row(
                "morph",
                "unseen form: analyser path",
                unseen_s / len(unseen),
                None,
                "-",
                unit="token",
                notes=f"{len(unseen) / unseen_s:,.0f} tokens/s; memoised afterwards",
            )
        )
    return rows
