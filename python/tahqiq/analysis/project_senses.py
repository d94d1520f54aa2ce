"""The senses the project writes itself (``data/senses.txt``, CC BY-SA 4.0) and their sense-tagged examples
(``data/senses_examples.txt``): verb senses, which the installed lexicon lacks entirely, and everyday noun senses
it misses (عين "spring of water"). The formats are in ``analysis/data/README.md``; a bad line names its file and
line number. ``SenseInventory`` (``tahqiq.analysis.wsd``) adds these senses to arramooz's under the source
``tahqiq``."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Final

DATA_DIR: Final = Path(__file__).with_name("data")
SENSES_FILE: Final = DATA_DIR / "senses.txt"
SENSES_EXAMPLES_FILE: Final = DATA_DIR / "senses_examples.txt"
POS: Final = ("verb", "noun")


@dataclass(frozen=True, slots=True)
class ProjectSense:
    """One line of ``senses.txt``: a vocalized headword, its POS, the sense's number under it, the gloss."""

    headword: str
    pos: str
    number: int
    gloss: str
    line: int  # where it is written: the order of the project's senses among equal ones


@dataclass(frozen=True, slots=True)
class MarkedSentence:
    """One line of ``senses_examples.txt``: the sense ``headword#number`` and a sentence whose target word is
    ``text[start:end]``."""

    headword: str
    number: int
    text: str
    start: int
    end: int


def parse_senses(source: str, name: str = "senses.txt") -> list[ProjectSense]:
    """Lines ``headword<TAB>pos<TAB>number<TAB>gloss``; ``#`` lines and blank lines are skipped."""
    out: list[ProjectSense] = []
    seen: set[tuple[str, int]] = set()
    for n, line in enumerate(source.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 4 or not all(p.strip() for p in parts):
            raise ValueError(f"{name} line {n}: expected 'headword<TAB>pos<TAB>number<TAB>gloss'")
        headword, pos, number, gloss = (p.strip() for p in parts)
        if pos not in POS:
            raise ValueError(f"{name} line {n}: pos must be one of {', '.join(POS)}, not {pos!r}")
        if not number.isdigit() or int(number) < 1:
            raise ValueError(f"{name} line {n}: the sense number must be 1, 2, 3 …, not {number!r}")
        if (headword, int(number)) in seen:  # what an example's headword#number names
            raise ValueError(f"{name} line {n}: {headword} sense {number} is written twice")
        seen.add((headword, int(number)))
        out.append(ProjectSense(headword, pos, int(number), gloss, n))
    return out


def parse_marked(source: str, name: str = "senses_examples.txt") -> list[MarkedSentence]:
    """Lines ``headword#number | sentence with the [target] word``; ``//`` lines and blank lines are skipped."""
    out: list[MarkedSentence] = []
    for n, line in enumerate(source.splitlines(), 1):
        if not line.strip() or line.startswith("//"):
            continue
        sense, sep, marked = (p.strip() for p in line.partition(" | "))
        headword, hash_, number = sense.rpartition("#")
        if not sep or not hash_ or not number.isdigit() or marked.count("[") != 1 or marked.count("]") != 1:
            raise ValueError(f"{name} line {n}: expected 'headword#number | sentence with one [target]'")
        start = marked.index("[")
        end = marked.index("]") - 1
        if end <= start:
            raise ValueError(f"{name} line {n}: empty [target]")
        out.append(MarkedSentence(headword, int(number), marked.replace("[", "").replace("]", ""), start, end))
    return out


def read_senses(path: Path = SENSES_FILE) -> list[ProjectSense]:
    return parse_senses(path.read_text(encoding="utf-8"), path.name)


def read_marked(path: Path = SENSES_EXAMPLES_FILE) -> list[MarkedSentence]:
    return parse_marked(path.read_text(encoding="utf-8"), path.name)


def digest(*paths: Path) -> str:
    """8 bytes of BLAKE2b over the files: the caches built from them say which."""
    h = hashlib.blake2b(digest_size=8)
    for path in paths:
        h.update(path.read_bytes())
        h.update(b"\x1f")
    return h.hexdigest()
