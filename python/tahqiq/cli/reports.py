"""`tahqiq report morph | glossary | summaries`: accuracy on the gold sets in tests/gold, from a checkout.

The reports are repository tooling (`tools.report`, never in the wheel): this command finds them by name in the
checkout it runs in, and from an installed wheel outside one says how to run them. (Named `reports.py`: the CI's
wheel check refuses any `report.py` in the wheel.)
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from tahqiq.cli.common import Commands

REPORT_NEEDS_CHECKOUT = (
    "tahqiq report needs the repository's tools/ and tests/gold: run it from a checkout of tahqiq (its root directory)"
)


def _checkout_roots(report_args: Sequence[str]) -> list[Path]:
    """Directories that may be the repository's root: the current one and those above it, then those above each
    path named in the arguments (a ``--gold`` file)."""
    starts = [Path.cwd()]
    for arg in report_args:
        value = arg.split("=", 1)[1] if arg.startswith("--") and "=" in arg else arg
        if value.endswith(".jsonl"):
            starts.append(Path(value).resolve().parent)
    roots: list[Path] = []
    for start in starts:
        for directory in (start, *start.parents):
            if directory not in roots:
                roots.append(directory)
    return roots


def _report_main(report_args: Sequence[str]) -> Callable[[list[str]], int] | None:
    """``tools.report.main`` of the repository (the evaluation is repository tooling, not in the wheel): imported
    as it is when ``tools`` is importable (run from the root), else from the first checkout found above the
    current directory or a gold file named; None when there is none (an installed wheel outside a checkout)."""
    for root in [None, *_checkout_roots(report_args)]:
        if root is not None:
            if not ((root / "tools" / "report.py").is_file() and (root / "tests" / "gold").is_dir()):
                continue
            sys.path.insert(0, str(root))
        try:
            module = importlib.import_module("tools.report")
        except ImportError:
            if root is not None:
                sys.path.remove(str(root))
            continue
        main: Callable[[list[str]], int] = module.main
        return main
    return None


def run(args: argparse.Namespace) -> int:
    report_main = _report_main(args.report_args)
    if report_main is None:
        print(REPORT_NEEDS_CHECKOUT, file=sys.stderr)
        return 2
    return report_main(args.report_args)


def add_parser(commands: Commands) -> None:
    # No help of its own and the rest of the line as it is: `tahqiq report --help` is the report parser's help.
    report = commands.add_parser(
        "report",
        help="accuracy on the project's gold sets: report morph | glossary | summaries (see --help)",
        add_help=False,
    )
    report.add_argument("report_args", nargs=argparse.REMAINDER)
    report.set_defaults(run=run)
