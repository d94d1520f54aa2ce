"""The package stays easy to change: no module over 900 lines and no function over 120 (issue 19's limits,
measured by tools/structure.py, which `python -m tools.structure` prints)."""

from __future__ import annotations

from pathlib import Path

from tools import structure


def test_no_module_is_longer_than_the_limit() -> None:
    over = [m for m in structure.modules() if m.lines > structure.MAX_MODULE_LINES]
    assert not over, f"modules over {structure.MAX_MODULE_LINES} lines: {over}"


def test_no_function_is_longer_than_the_limit() -> None:
    over = [f for f in structure.functions() if f.lines > structure.MAX_FUNCTION_LINES]
    assert not over, f"functions over {structure.MAX_FUNCTION_LINES} lines: {over}"


def test_the_measure_counts_decorators_nested_functions_and_methods(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "m.py").write_text(
        "import functools\n\n\n@functools.cache\ndef outer():\n    def inner():\n        return 1\n\n"
        "    return inner\n\n\nclass C:\n    def method(self):\n        pass\n"
    )
    found = {f.where: f.lines for f in structure.functions(package)}
    assert found == {"pkg/m.py:outer": 6, "pkg/m.py:outer.inner": 2, "pkg/m.py:C.method": 2}
    assert structure.modules(package)[0].lines == 14
