"""`tahqiq analyze` (issue 21): one output line per input line, in order, with the Python API's answers; the same
file from one worker process or two, and from a run killed at any point and resumed; bad lines as error records."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from tahqiq.analysis import Analyzer
from tahqiq.analysis.batch import complete_lines
from tahqiq.cli.analyze import ProgressBar

from tests.support.server import CACHE_DIR

GOLD = Path(__file__).resolve().parents[1] / "gold"
ROWS = [json.loads(line) for line in (GOLD / "ner_everyday_dev.jsonl").read_text(encoding="utf-8").splitlines()]


def analyze(*args: str, stdin: bytes | None = None, **env: str) -> subprocess.CompletedProcess[bytes]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("TAHQIQ_")}
    environ.update({"TAHQIQ_CACHE_DIR": str(CACHE_DIR), "TAHQIQ_DATA_DIR": "/nonexistent", **env})
    command = [sys.executable, "-m", "tahqiq", "analyze", *args]
    return subprocess.run(command, input=stdin, capture_output=True, timeout=300, env=environ, check=False)


def records(out: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """80 everyday documents as JSON lines with ids, and three bad lines among them."""
    path = tmp_path_factory.mktemp("batch") / "docs.jsonl"
    lines = [json.dumps({"doc": f"d{row['id']}", "body": row["text"]}, ensure_ascii=False) for row in ROWS[:80]]
    lines.insert(10, "{not json")
    lines.insert(20, json.dumps({"doc": "no-body"}))
    lines.insert(30, json.dumps({"doc": "long", "body": "كلمة " * 30_000}))  # over the 10,000-character limit
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_each_line_gets_its_answer_in_order(corpus: Path) -> None:
    run = analyze("ner", "--mode", "flat", "--field", "body", "--id", "doc", str(corpus))
    assert run.returncode == 0, run.stderr
    assert run.stderr == b""  # not a terminal: no progress bar
    out = records(run.stdout)
    assert [r["line"] for r in out] == list(range(1, 84))
    bad = {r["line"]: r["error"] for r in out if "error" in r}
    assert sorted(bad) == [11, 21, 31]
    assert bad[11]["type"] == "bad-line" and "JSON" in bad[11]["detail"]
    assert "'body'" in bad[21]["detail"]
    assert bad[31]["status"] == 422 and "limit" in bad[31]["detail"]
    analyzer = Analyzer(cache_dir=CACHE_DIR)
    good = [r for r in out if "result" in r]
    assert [r["id"] for r in good] == [f"d{row['id']}" for row in ROWS[:80]]
    for record, row in zip(good[::7], ROWS[:80:7], strict=True):
        assert record["result"] == analyzer.ner(row["text"], mode="flat")  # one code path with the Python API


def test_plain_text_from_standard_input_with_task_options() -> None:
    text = "\n".join(row["text"] for row in ROWS[:5]).encode()
    run = analyze("morph", "--morph-task", "pos", stdin=text)
    assert run.returncode == 0, run.stderr
    out = records(run.stdout)
    assert [(r["id"], r["line"]) for r in out] == [(n, n) for n in range(1, 6)]
    assert out[0]["result"] == Analyzer(cache_dir=CACHE_DIR).morph(ROWS[0]["text"], task="pos")


def test_two_worker_processes_write_the_same_file(corpus: Path, tmp_path: Path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert analyze("wsd", "--field", "body", str(corpus), "--out", str(one)).returncode == 0
    assert analyze("wsd", "--field", "body", str(corpus), "--out", str(two), "--jobs", "2").returncode == 0
    assert one.read_bytes() == two.read_bytes()
    assert len(one.read_bytes().splitlines()) == 83


def test_a_killed_run_resumed_writes_the_same_file(corpus: Path, tmp_path: Path) -> None:
    whole = tmp_path / "whole.jsonl"
    assert analyze("ner", "--field", "body", "--id", "doc", str(corpus), "--out", str(whole)).returncode == 0
    cut = tmp_path / "cut.jsonl"
    environ = {k: v for k, v in os.environ.items() if not k.startswith("TAHQIQ_")}
    environ["TAHQIQ_CACHE_DIR"] = str(CACHE_DIR)
    command = [sys.executable, "-m", "tahqiq", "analyze", "ner", "--field", "body", "--id", "doc", str(corpus)]
    proc = subprocess.Popen([*command, "--out", str(cut)], env=environ, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not cut.exists() or cut.read_bytes().count(b"\n") < 20):
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    written = cut.read_bytes().count(b"\n")
    assert 20 <= written < 83
    with cut.open("ab") as out:
        out.write(b'{"id":"d99","line":9')  # as if killed in the middle of a write
    resumed = analyze("ner", "--field", "body", "--id", "doc", str(corpus), "--out", str(cut), "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert cut.read_bytes() == whole.read_bytes()
    again = analyze("ner", "--field", "body", "--id", "doc", str(corpus), "--out", str(cut), "--resume")
    assert again.returncode == 0 and cut.read_bytes() == whole.read_bytes()  # nothing left to do


def test_on_error_stop_ends_at_the_first_bad_line(corpus: Path) -> None:
    run = analyze("re", "--field", "body", str(corpus), "--on-error", "stop")
    assert run.returncode == 1
    out = records(run.stdout)
    assert [r["line"] for r in out] == list(range(1, 12)) and "error" in out[-1]
    assert run.stderr.decode().count("\n") == 1 and 'line":11' in run.stderr.decode()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ner", "--id", "doc"], "--id needs --field"),
        (["ner", "--resume"], "--resume needs --out"),
        (["ner", "--include-gloss"], "--include-gloss is not an option of ner"),
        (["ner", "/no/such/file.txt"], "no such file: /no/such/file.txt"),
        (["ner", "--jobs", "-1"], "--jobs must be 0"),
    ],
)
def test_mistakes_get_one_line(args: list[str], message: str) -> None:
    run = analyze(*args, stdin=b"")
    assert run.returncode == 2
    assert message in run.stderr.decode() and run.stderr.decode().count("\n") == 1


def test_an_existing_output_is_not_overwritten(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    out.write_bytes(b'{"id":1}\n')
    run = analyze("ner", "--out", str(out), stdin=b"text\n")
    assert run.returncode == 2 and b"--resume" in run.stderr
    assert out.read_bytes() == b'{"id":1}\n'


def test_complete_lines_cuts_a_partial_last_line(tmp_path: Path) -> None:
    path = tmp_path / "out.jsonl"
    assert complete_lines(path) == 0
    path.write_bytes(b"a\nb\nc")
    assert complete_lines(path) == 2 and path.read_bytes() == b"a\nb\n"
    assert complete_lines(path) == 2


def test_the_progress_bar_shows_documents_rate_and_time_left() -> None:
    stream = io.StringIO()
    bar = ProgressBar(stream, total=100)
    bar.advance(50)
    bar.advance(50)
    bar.end()
    shown = stream.getvalue()
    assert "100/100 documents" in shown and "/s" in shown and "ETA 0 s" in shown


def test_a_reader_that_leaves_early_gets_no_traceback(corpus: Path) -> None:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("TAHQIQ_")}
    environ["TAHQIQ_CACHE_DIR"] = str(CACHE_DIR)
    command = [sys.executable, "-m", "tahqiq", "analyze", "ner", "--field", "body", str(corpus)]
    proc = subprocess.Popen(command, env=environ, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    assert json.loads(proc.stdout.readline())["line"] == 1  # as `| head -1` does
    proc.stdout.close()
    assert proc.wait(timeout=120) == 0
    assert proc.stderr.read() == b""
