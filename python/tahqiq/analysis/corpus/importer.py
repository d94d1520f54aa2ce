"""Corpora on disk: the shipped one (package data) and imported ones (`<data_dir>/corpora/NAME.jsonl`).

`tahqiq corpus import PATH --format curras|nabra|lisan|jsonl` reads a licensed copy that the user supplies,
validates every row (errors name the line and the field), and writes it in tahqiq's JSON Lines schema
atomically (a temporary file renamed into place): all of it or nothing. The Birzeit corpora are never copied
into this repository; only the user's data directory holds what they import.

Tabular formats (curras, nabra, lisan): UTF-8 TSV or CSV with a header row and one token per row, in the field
names of the Curras family (case and spaces in headers do not matter):

    sentence_id  sentence  token  CODA  Prefix  stem  Suffix  POS  Pers  Gen  Num  Gloss  MSALemma  DALemma
    [Source]  [Dialect]  [Translation]

Rows of one sentence share `sentence_id` and come in order. `Prefix`/`Suffix` hold clitics joined by `+`, each
`ARABIC_FORM/ARABIC_TAG` optionally followed by `|TRANSLIT/SAMA_TAG` (for example `ب/أداة مضارعة|b/PROG_PART`);
empty or `-` for none. Missing `Dialect` defaults by format: curras Palestinian, nabra Syrian; lisan requires it.
"""

from __future__ import annotations

import csv
import io
import os
import re
import tempfile
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import orjson

from tahqiq.analysis.corpus.schema import (
    DIALECTS,
    CorpusError,
    Sentence,
    check_unique,
    parse_sentence,
    parse_token,
    read_jsonl,
    sentence_dict,
)

FORMATS = ("curras", "nabra", "lisan", "jsonl")
DEFAULT_DIALECT = {"curras": "Palestinian", "nabra": "Syrian"}
NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
_COLUMNS = {
    "sentence_id": ("sentence_id", "sentenceid", "sent_id", "sentence id"),
    "sentence": ("sentence", "context", "sentence_text"),
    "token": ("token", "word", "raw"),
    "coda": ("coda",),
    "prefix": ("prefix", "prefixes"),
    "stem": ("stem",),
    "suffix": ("suffix", "suffixes"),
    "pos": ("pos",),
    "person": ("pers", "person"),
    "gender": ("gen", "gender"),
    "number": ("num", "number"),
    "gloss": ("gloss",),
    "msa_lemma": ("msalemma", "msa_lemma"),
    "dialect_lemma": ("dalemma", "dialect_lemma", "da_lemma"),
    "source": ("source",),
    "dialect": ("dialect",),
    "translation": ("translation", "english"),
}
_OPTIONAL = {"source", "dialect", "translation"}
_POS_ALIASES = {"noun_quant": "noun", "adv_interrog": "part_interrog", "prep_pron": "prep", "punct": "punc"}


def shipped_corpus() -> list[Sentence]:
    """The corpus tahqiq ships (CC BY-SA 4.0), from the package's data files."""
    folder = resources.files("tahqiq.analysis.corpus") / "data"
    sentences: list[Sentence] = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".jsonl"):
            sentences.extend(read_jsonl(entry.read_bytes().splitlines(), entry.name))
    return check_unique(sentences)


def corpora_dir(data_dir: Path) -> Path:
    return data_dir / "corpora"


def imported_corpora(data_dir: Path) -> dict[str, list[Sentence]]:
    """Every corpus imported into `data_dir`, by name."""
    folder = corpora_dir(data_dir)
    out: dict[str, list[Sentence]] = {}
    if folder.is_dir():
        for path in sorted(folder.glob("*.jsonl")):
            with path.open("rb") as lines:
                out[path.stem] = check_unique(read_jsonl(lines, str(path)))
    return out


def _affixes(cell: str, where: str) -> list[dict[str, str]]:
    cell = (cell or "").strip()
    if cell in ("", "-", "_"):
        return []
    out = []
    for part in cell.split("+"):
        arabic, _, sama = part.partition("|")
        form, sep, ar_tag = arabic.strip().partition("/")
        if not sep or not form or not ar_tag:
            raise CorpusError(f"{where}: {part!r} is not FORM/ARABIC_TAG[|TRANSLIT/TAG]")
        tag = sama.strip() or f"{form}/{re.sub(r'[^A-Z0-9_]', '_', ar_tag.upper()) or 'CLITIC'}"
        if not re.match(r"^[A-Z]", tag.partition("/")[2] or "X"):
            tag = f"{tag.partition('/')[0]}/CLITIC"
        out.append({"form": form, "ar": ar_tag.strip(), "tag": tag})
    return out


def _tabular(text: str, fmt: str, name: str) -> Iterator[dict[str, Any]]:
    """Sentence objects (not yet validated) from a Curras-family table; errors name the line and field."""
    sample = text[:4096]
    delimiter = "\t" if sample.count("\t") >= sample.count(",") else ","
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    try:
        header = next(reader)
    except StopIteration:
        raise CorpusError(f"{name}: the file is empty") from None
    lowered = [h.strip().lower().replace(" ", "_") for h in header]
    index: dict[str, int] = {}
    for field, aliases in _COLUMNS.items():
        for alias in aliases:
            if alias.replace(" ", "_") in lowered:
                index[field] = lowered.index(alias.replace(" ", "_"))
                break
        else:
            if field not in _OPTIONAL:
                raise CorpusError(f"{name}:1: the header has no {field} column (one of {', '.join(aliases)})")
    if "dialect" not in index and fmt not in DEFAULT_DIALECT:
        raise CorpusError(f"{name}:1: format {fmt} needs a Dialect column")
    current: dict[str, Any] | None = None
    for line_no, row in enumerate(reader, start=2):
        if not any(cell.strip() for cell in row):
            continue
        where = f"{name}:{line_no}"
        if len(row) < len(header):
            raise CorpusError(f"{where}: {len(row)} columns, the header has {len(header)}")

        def cell(field: str, row: list[str] = row) -> str:
            return row[index[field]].strip() if field in index else ""

        sid_text = cell("sentence_id")
        if not sid_text.isdigit():
            raise CorpusError(f"{where}.sentence_id: {sid_text!r} is not a positive integer")
        sid = int(sid_text)
        pos = cell("pos").lower()
        token = {
            "token": cell("token"),
            "coda": cell("coda") or cell("token"),
            "prefixes": _affixes(cell("prefix"), f"{where}.Prefix"),
            "stem": cell("stem") or cell("token"),
            "suffixes": _affixes(cell("suffix"), f"{where}.Suffix"),
            "pos": _POS_ALIASES.get(pos, pos),
            "person": cell("person").strip("-"),
            "gender": cell("gender").lower().strip("-"),
            "number": cell("number").lower().strip("-"),
            "msa_lemma": cell("msa_lemma"),
            "dialect_lemma": cell("dialect_lemma") or cell("coda") or cell("token"),
            "gloss": cell("gloss") or "-",
        }
        parse_token(token, where)  # token errors name the token's own line
        if current is not None and current["sentence_id"] != sid:
            yield current
            current = None
        if current is None:
            dialect = cell("dialect") or DEFAULT_DIALECT.get(fmt, "")
            dialect = next((d for d in DIALECTS if d.lower() == dialect.lower()), dialect)
            current = {
                "sentence_id": sid,
                "text": cell("sentence"),
                "dialect": dialect,
                "source": cell("source") or f"{fmt}:{name}",
                "translation": cell("translation") or "-",
                "tokens": [],
                "_line": line_no,
            }
        current["tokens"].append(token)
    if current is not None:
        yield current


def read_corpus_file(path: Path, fmt: str, progress: Callable[[int], None] | None = None) -> list[Sentence]:
    """Every sentence of a user-supplied corpus file, validated; CorpusError names the line and the field."""
    if fmt not in FORMATS:
        raise CorpusError(f"format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    data = path.read_bytes()
    sentences: list[Sentence] = []
    if fmt == "jsonl":
        for s in read_jsonl(data.splitlines(), path.name):
            sentences.append(s)
            if progress:
                progress(len(sentences))
        return check_unique(sentences)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CorpusError(f"{path.name}: not UTF-8 (byte {exc.start})") from None
    for raw in _tabular(text, fmt, path.name):
        line = raw.pop("_line")
        sentences.append(parse_sentence(raw, f"{path.name}:{line} (sentence {raw['sentence_id']})"))
        if progress:
            progress(len(sentences))
    return check_unique(sentences)


def write_corpus(data_dir: Path, name: str, sentences: list[Sentence], *, replace: bool = False) -> Path:
    """Writes an imported corpus atomically: a temporary file in the same folder, renamed into place. A corpus of
    that name is replaced only when `replace` is true."""
    if not NAME.match(name) or name == "tahqiq":
        raise CorpusError(f"corpus name {name!r}: use 1-40 of a-z 0-9 _ - (and not 'tahqiq', the shipped corpus)")
    folder = corpora_dir(data_dir)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{name}.jsonl"
    if target.exists() and not replace:
        raise CorpusError(f"a corpus named {name!r} exists already: give --replace to replace it, or --name another")
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            for s in sentences:
                out.write(orjson.dumps(sentence_dict(s)) + b"\n")
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target
