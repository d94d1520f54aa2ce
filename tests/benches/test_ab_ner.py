"""The same-run A/B tool for the recognizer (benches/ab_ner.py) times what it reports: two variants of the same
package in alternating rounds give a ratio near 1, and a variant that cannot start is an error, not a figure."""

from __future__ import annotations

from pathlib import Path

import pytest
import tahqiq

from benches import ab_ner


def test_the_same_package_twice_reports_its_pass_time_and_a_ratio_near_one() -> None:
    package_dir = str(Path(tahqiq.__file__).resolve().parent.parent)
    medians = ab_ner.run({"a": package_dir, "b": package_dir}, rounds=4, limit=20)
    assert medians["a"]["sentences"] == medians["b"]["sentences"] == 20
    assert medians["a"]["ratio"] == 1.0
    assert medians["a"]["median_s"] > 0 and medians["b"]["median_s"] > 0
    assert 0.3 < medians["b"]["ratio"] < 3.0  # the same code: only noise separates them


def test_a_variant_without_the_package_is_an_error(tmp_path: Path) -> None:
    package_dir = str(Path(tahqiq.__file__).resolve().parent.parent)
    empty = tmp_path / "empty"
    empty.mkdir()
    # with the editable install on sys.path the empty directory would still import the installed package, so
    # the worker is pointed at a directory whose tahqiq is broken
    (empty / "tahqiq").mkdir()
    (empty / "tahqiq" / "__init__.py").write_text("raise ImportError('not a tahqiq')\n")
    with pytest.raises(RuntimeError, match="stopped"):
        ab_ner.run({"a": package_dir, "broken": str(empty)}, rounds=1, limit=5)
