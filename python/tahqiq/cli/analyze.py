"""`tahqiq analyze TASK [FILE ...]`: a corpus through one analysis operation, one JSON line out per line in
(tahqiq.analysis.batch; docs/cli.md)."""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, BinaryIO

from tahqiq.cli.common import Commands, settings_from

if TYPE_CHECKING:
    from tahqiq.analysis.cluster import DaskEngine

BATCH_SIZE = 16  # documents a worker takes at a time: enough to hide the hand-over, few enough to keep order cheap


def add_parser(commands: Commands) -> None:
    p = commands.add_parser(
        "analyze",
        help="run a corpus through ner, re, morph, wsd or glossary: JSON lines out, one per input line",
        description="Reads plain text (one document a line) or JSON lines (--field), from the files or standard "
        'input, and writes one JSON line per input line, in order: {"id", "line", "result"} or, for a line that '
        'cannot be analysed, {"id", "line", "error"}. Settings: TAHQIQ_CACHE_DIR, TAHQIQ_DATA_DIR, '
        "TAHQIQ_ANALYSIS_MAX_CHARS.",
    )
    p.add_argument("task", choices=("ner", "re", "morph", "wsd", "glossary"))
    p.add_argument("files", nargs="*", metavar="FILE", help="input files (default: standard input; - is too)")
    p.add_argument("--field", help="the input is JSON lines; this field holds the text")
    p.add_argument("--id", dest="id_field", help="with --field: the field that holds each document's id")
    p.add_argument("--out", help="write here instead of standard output")
    p.add_argument("--resume", action="store_true", help="with --out: skip the lines it already holds, append")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (0: one per core; 1: this process)")
    p.add_argument("--on-error", choices=("continue", "stop"), default="continue", help="after a bad line")
    p.add_argument("--engine", choices=("local", "dask"), default="local", help="where the work runs")
    p.add_argument("--scheduler", help="with --engine dask: the scheduler's address, tcp://HOST:PORT")
    options = p.add_argument_group("task options (as the HTTP routes take them)")
    options.add_argument("--mode", choices=("nested", "flat"), help="ner")
    options.add_argument("--include-offsets", action="store_true", help="ner, glossary")
    options.add_argument("--morph-task", dest="morph_task", choices=("full", "lemmatization", "pos", "root"))
    options.add_argument("--flag", choices=("1", "*"), help="morph: the chosen analysis, or all of them")
    options.add_argument("--include-lemma", action="store_true", help="morph")
    options.add_argument("--include-gloss", action="store_true", help="wsd")
    options.add_argument("--dialect", help="glossary: one corpus by name (default: all)")
    options.add_argument("--top-k", type=int, help="glossary")
    options.add_argument("--threshold", type=float, help="glossary: similarity threshold")
    p.set_defaults(run=run)


# Which task takes which option, as (flag attribute, route parameter).
TASK_OPTIONS: dict[str, tuple[tuple[str, str], ...]] = {
    "ner": (("mode", "mode"), ("include_offsets", "include_offsets")),
    "re": (),
    "morph": (("morph_task", "task"), ("flag", "flag"), ("include_lemma", "include_lemma")),
    "wsd": (("include_gloss", "include_gloss"),),
    "glossary": (
        ("dialect", "source"),
        ("top_k", "top_k"),
        ("threshold", "similarity_threshold"),
        ("include_offsets", "include_offsets"),
    ),
}
ALL_OPTIONS = tuple(dict.fromkeys(attr for options in TASK_OPTIONS.values() for attr, _param in options))


def task_options(args: argparse.Namespace) -> dict[str, Any] | str:
    """The route parameters the flags give, or what is wrong with them (a flag of another task)."""
    taken = dict(TASK_OPTIONS[args.task])
    options: dict[str, Any] = {}
    for attr in ALL_OPTIONS:
        value = getattr(args, attr)
        if value is None or value is False:
            continue
        if attr not in taken:
            return f"--{attr.replace('_', '-')} is not an option of {args.task}"
        options[taken[attr]] = value
    return options


def fail(message: str) -> int:
    print(f"tahqiq analyze: {message}", file=sys.stderr)
    return 2


@contextlib.contextmanager
def _inputs(files: list[str]) -> Iterator[list[BinaryIO]]:
    with contextlib.ExitStack() as stack:
        yield [sys.stdin.buffer if f == "-" else stack.enter_context(open(f, "rb")) for f in files or ["-"]]


class ProgressBar:
    """Documents done, documents per second and, when the inputs are files, the time left; on a terminal only."""

    def __init__(self, stream: IO[str], total: int | None) -> None:
        self.stream = stream
        self.total = total
        self.done = 0
        self.started = time.monotonic()
        self.shown = 0.0

    def advance(self, count: int) -> None:
        self.done += count
        now = time.monotonic()
        if now - self.shown < 0.2 and (self.total is None or self.done < self.total):
            return
        self.shown = now
        rate = self.done / max(now - self.started, 1e-9)
        line = f"{self.done:,} documents, {rate:,.1f}/s"
        if self.total:
            left = max(self.total - self.done, 0)
            line = f"{self.done:,}/{self.total:,} documents, {rate:,.1f}/s, ETA {left / rate if rate else 0:,.0f} s"
        print(f"\r{line}   ", end="", file=self.stream, flush=True)

    def end(self) -> None:
        print(file=self.stream)


def run(args: argparse.Namespace) -> int:
    from tahqiq.analysis import batch
    from tahqiq.analysis.runner import AnalysisConfig, cpu_count

    options = task_options(args)
    if isinstance(options, str):
        return fail(options)
    if args.id_field and not args.field:
        return fail("--id needs --field (ids are read from JSON lines)")
    if args.resume and not args.out:
        return fail("--resume needs --out (the file to resume)")
    if args.jobs < 0:
        return fail("--jobs must be 0 (one per core) or more")
    if args.engine == "dask" and not args.scheduler:
        return fail("--engine dask needs --scheduler tcp://HOST:PORT (a running Dask scheduler)")
    if args.scheduler and args.engine != "dask":
        return fail("--scheduler goes with --engine dask")
    missing = [f for f in args.files if f != "-" and not Path(f).is_file()]
    if missing:
        return fail(f"no such file: {', '.join(missing)}")
    if args.out and not args.resume and Path(args.out).exists() and Path(args.out).stat().st_size:
        return fail(f"{args.out} exists: give --resume to go on from where it stopped, or remove it")
    settings = settings_from(args)
    config = AnalysisConfig(settings.data_dir, settings.cache_dir, settings.analysis_max_chars)
    job = batch.BatchJob(args.task, options, args.field, args.id_field)
    jobs = cpu_count() if args.jobs == 0 else args.jobs
    done = batch.complete_lines(Path(args.out)) if args.resume else 0

    total = None
    if args.files and "-" not in args.files:
        total = sum(sum(1 for _ in open(f, "rb")) for f in args.files)
    bar = ProgressBar(sys.stderr, total) if sys.stderr.isatty() else None
    if bar is not None:
        bar.done = done
    engine: batch.InProcessEngine | batch.LocalEngine | DaskEngine
    if args.engine == "dask":
        from tahqiq.analysis.cluster import ClusterUnavailable, DaskEngine

        try:
            engine = DaskEngine(config, args.scheduler)
        except ClusterUnavailable as exc:
            return fail(str(exc))
    elif jobs == 1:
        from tahqiq.analysis.api import loaded

        engine = batch.InProcessEngine(loaded(config)[0])
    else:
        engine = batch.LocalEngine(config, jobs)
    out: BinaryIO = open(args.out, "ab") if args.out else sys.stdout.buffer
    errors = 0
    try:
        with _inputs(args.files) as inputs:
            work = batch.batches(batch.read_lines(inputs, skip=done), BATCH_SIZE)
            for count, lines in engine.run(job, work):
                if args.on_error == "stop" and b'"error":{' in lines:
                    kept, bad = _until_error(lines)
                    out.write(kept)
                    out.flush()
                    print(f"tahqiq analyze: stopped at a bad line: {bad.decode()}", file=sys.stderr)
                    return 1
                errors += lines.count(b'"error":{')
                out.write(lines)
                out.flush()
                if bar is not None:
                    bar.advance(count)
    except BrokenPipeError:
        return 0  # the reader went away (| head): not an error
    except KeyboardInterrupt:
        print("\ntahqiq analyze: interrupted; --resume goes on from here", file=sys.stderr)
        return 130
    finally:
        engine.close()
        if bar is not None:
            bar.end()
        if args.out:
            out.close()
    if errors and sys.stderr.isatty():
        print(f"tahqiq analyze: {errors:,} lines could not be analysed (their error records say why)", file=sys.stderr)
    return 0


def _until_error(lines: bytes) -> tuple[bytes, bytes]:
    """The output lines before the first error record, and that record (which is written too)."""
    kept = b""
    for line in lines.splitlines(keepends=True):
        kept += line
        if b'"error":{' in line:
            return kept, line.rstrip(b"\n")
    return kept, b""
