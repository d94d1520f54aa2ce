"""The compiled language data (tahqiq.analysis.compiled): the wheel's copy is read first, and a machine without it
builds each file once, however many processes start together."""

from __future__ import annotations

import multiprocessing
import os
import pickle
import time
from pathlib import Path

import pytest
from tahqiq.analysis.compiled import SHIPPED_DIR, CompiledData, read_or_build, read_pickle, shipped_files, write_pickle
from tahqiq.analysis.runner import AnalysisConfig

NAME = "thing-1.pickle"


def _build_slowly(cache_dir: str, log: str) -> str:
    """In a worker process: read or build NAME, noting each build in ``log`` (one line per build)."""

    def build(path: Path) -> str:
        with open(log, "a", encoding="utf-8") as fh:
            fh.write(f"{os.getpid()}\n")
        time.sleep(0.5)  # long enough for the other processes to find the file missing and wait
        write_pickle(path, "built", stale="thing-*.pickle")
        return "built"

    value, _built = read_or_build(NAME, Path(cache_dir), None, read_pickle, build)
    return value


def test_processes_started_together_build_once(tmp_path: Path) -> None:
    log = tmp_path / "builds.log"
    context = multiprocessing.get_context("spawn")
    with context.Pool(4) as pool:
        values = pool.starmap(_build_slowly, [(str(tmp_path / "cache"), str(log))] * 4)
    assert values == ["built"] * 4
    assert len(log.read_text().splitlines()) == 1


def test_the_shipped_file_is_read_first_and_nothing_is_written(tmp_path: Path) -> None:
    shipped, cache = tmp_path / "shipped", tmp_path / "cache"
    write_pickle(shipped / NAME, {"from": "wheel"}, stale="thing-*.pickle")
    data = CompiledData(cache, shipped)
    found = data.pickled(NAME, lambda: pytest.fail("built although shipped"), stale="thing-*.pickle")
    assert found == {"from": "wheel"}
    assert not cache.exists()


def test_a_damaged_or_other_version_shipped_file_is_rebuilt_into_the_cache(tmp_path: Path) -> None:
    shipped, cache = tmp_path / "shipped", tmp_path / "cache"
    shipped.mkdir()
    (shipped / NAME).write_bytes(b"not a pickle")
    write_pickle(
        shipped / "thing-0.pickle",
        "an older version",
    )
    write_pickle(
        cache / "thing-0.pickle",
        "an older version",
    )
    value = CompiledData(cache, shipped).pickled(NAME, lambda: "fresh", stale="thing-*.pickle")
    assert value == "fresh"
    assert pickle.loads((cache / NAME).read_bytes()) == "fresh"
    assert not (cache / "thing-0.pickle").exists()  # the cache's older version goes; the wheel is not touched
    assert (shipped / "thing-0.pickle").exists()


def test_the_installed_package_ships_the_compiled_data_this_code_reads(tmp_path: Path) -> None:
    """The wheel (and an editable install) carries every file under the exact name this version looks for, so a
    fresh install builds nothing. Fails in an environment built without the backend (``maturin develop``): run
    ``pip install -e .`` there, which compiles into python/tahqiq/analysis/data/compiled/."""
    service = AnalysisConfig(data_dir="", cache_dir=str(tmp_path), max_chars=10_000).build()
    service.prepare()
    assert not service.morphology.table_built and not service.senses.built
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".pickle"] == []  # nothing built, nothing cached
    shipped = {p.name for p in SHIPPED_DIR.iterdir()}
    assert service.morphology.table_name in shipped
    assert service.senses.name in shipped
    assert any(name.startswith("ner-installed-") for name in shipped)
    assert any(name.startswith("wsd-examples-") for name in shipped)
    # nothing else: no lock, no cache of a running service (the analyser's shared answers)
    assert {name for name in shipped if not name.startswith(".")} == {p.name for p in shipped_files(SHIPPED_DIR)}
