"""The package's shape in figures: the longest modules and functions of python/tahqiq (repository tooling).

    python -m tools.structure [--top N]

The limits are the ones issue 19 set and tests/service/test_structure.py holds: no module over MAX_MODULE_LINES
lines and no function over MAX_FUNCTION_LINES (a function's lines run from its ``def`` or first decorator to its last
line, its docstring and comments included). Import cycles and layers are import-linter's (``lint-imports``).
"""

from __future__ import annotations

import argparse
import ast
from dataclasses import dataclass
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "python" / "tahqiq"
MAX_MODULE_LINES = 900
MAX_FUNCTION_LINES = 120


@dataclass(frozen=True, slots=True)
class Measure:
    lines: int
    where: str  # path relative to python/, and for a function ``:qualified.name``


def modules(package: Path = PACKAGE) -> list[Measure]:
    """Every module's line count, longest first."""
    found = [
        Measure(len(path.read_text(encoding="utf-8").splitlines()), str(path.relative_to(package.parent)))
        for path in package.rglob("*.py")
    ]
    return sorted(found, key=lambda m: (-m.lines, m.where))


def functions(package: Path = PACKAGE) -> list[Measure]:
    """Every function's and method's length in lines (nested ones too), longest first."""
    found: list[Measure] = []
    for path in package.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        stack: list[tuple[ast.AST, str]] = [(tree, "")]
        while stack:
            node, prefix = stack.pop()
            for child in ast.iter_child_nodes(node):
                name = prefix
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    name = f"{prefix}.{child.name}" if prefix else child.name
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    first = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                    lines = (child.end_lineno or child.lineno) - first + 1
                    found.append(Measure(lines, f"{path.relative_to(package.parent)}:{name}"))
                stack.append((child, name))
    return sorted(found, key=lambda m: (-m.lines, m.where))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--top", type=int, default=10, help="how many of each to list")
    args = parser.parse_args(argv)
    mods, funcs = modules(), functions()
    print(f"{len(mods)} modules, {sum(m.lines for m in mods)} lines; {len(funcs)} functions")
    print(f"\nlongest modules (limit {MAX_MODULE_LINES}):")
    for m in mods[: args.top]:
        print(f"  {m.lines:5d}  {m.where}")
    print(f"\nlongest functions (limit {MAX_FUNCTION_LINES}):")
    for f in funcs[: args.top]:
        print(f"  {f.lines:5d}  {f.where}")


if __name__ == "__main__":
    main()
