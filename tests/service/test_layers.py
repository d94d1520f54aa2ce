"""No name private to a module (`_name`) is imported by another module: import-linter (pyproject.toml, run by
.ci/run) checks the layers, the areas' independence, private modules and cycles, but not private names."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "python" / "tahqiq"


def test_no_private_name_is_imported_from_another_module() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tahqiq"):
                for alias in node.names:
                    module = PACKAGE.parent / f"{node.module}.{alias.name}".replace(".", "/")
                    if module.with_suffix(".py").exists() or module.is_dir():
                        continue  # a module: import-linter's private_modules contract checks those
                    if alias.name.startswith("_") and not alias.name.startswith("__"):
                        found.append(f"{path.relative_to(PACKAGE.parent)}: from {node.module} import {alias.name}")
    assert not found, "private names imported across modules:\n" + "\n".join(found)
