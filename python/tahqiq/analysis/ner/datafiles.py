"""Reading the NER's data files (``data/*.txt``; the format is in ``data/README.md``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

DATA_DIR = Path(__file__).with_name("data")


def read_lines(name: str) -> Iterator[str]:
    """The entries of ``data/<name>``: one a line, stripped; blank lines and ``#`` comments skipped."""
    for raw in (DATA_DIR / name).read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            yield line


def read_pairs(name: str) -> Iterator[tuple[str, str]]:
    """The ``KIND<TAB>value`` entries of ``data/<name>`` (lines without a value are skipped)."""
    for line in read_lines(name):
        kind, _, value = line.partition("\t")
        if value.strip():
            yield kind.strip(), value.strip()


def read_lists(name: str) -> dict[str, tuple[str, ...]]:
    """The named word lists of ``data/<name>`` (``LIST<TAB>word`` lines), each in file order."""
    lists: dict[str, list[str]] = {}
    for list_name, word in read_pairs(name):
        lists.setdefault(list_name, []).append(word)
    return {list_name: tuple(words) for list_name, words in lists.items()}
