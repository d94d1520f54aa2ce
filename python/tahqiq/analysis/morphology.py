"""Morphological analysis of MSA text (Area C, `/morph`): lemma, stable lemma id, root, coarse POS, frequency.

The analyses come from a real lexicon installed from PyPI (docs/design/morphology.md has the measured choice):

- ``farahidi`` (default, GPL-3.0-or-later): the AlKhalil Morpho Sys 2 port. Its in-context language model gives,
  for every one of the ~114k word forms of its training corpus, the corpus distribution of lemmas, which is what
  ranks the analyses here; lemma frequencies are the corpus counts derived from the same model.
- ``qalsadi`` (GPL, with arramooz): kept as a measurable alternative (``package="qalsadi"``); its frequency is
  arramooz's word frequency.

**Compiled table.** On first use the ``package_version``-stamped file ``morphology-<package>-<version>.pickle``
is loaded from the wheel's compiled data or from ``data_dir``, or built once from the package (the ``table_size``
most frequent corpus forms, analysed and ranked) and written atomically into ``data_dir``, by one process at a time
(:mod:`tahqiq.analysis.compiled`); a file recording another package version, format or size is rebuilt, and files
of other versions are removed. Forms outside the table go through the package's analyser, ranked by the same function
(using ranking hints stored in the table, so the table and the fallback agree), and are memoised in a bounded LRU.

**In context.** `analyze` chooses each word's analysis in its sentence: the POS tagger of
:mod:`tahqiq.analysis.pos_tagger` reads the sentence, and `_chosen` keeps the analysis of that POS
(docs/design/morphology.md, "In context"); the function words of :mod:`tahqiq.analysis.function_words` come before
the lexicon's analyses. `analyses` stays the lexicon's context-free ranking.

**Keys.** Every token is normalised with :func:`tahqiq.core.normalize` (the one normaliser): first with
diacritics and tatweel removed but hamza/alef and ya kept (the exact key, :func:`tahqiq.arabic.keys.bare`), then,
when that form is unknown, with the full default normalisation (the loose key, :func:`tahqiq.arabic.keys.loose`, so
``اعلن`` finds ``أعلن``). Tokens come from :func:`tahqiq.core.scan`
(words only: numbers, punctuation and symbols are not analysed).

**Output conventions.**

- ``lemma``: the package's vocalised lemma (perfect 3rd masc. sing. for verbs, singular for nouns).
- ``root``: the letters separated by spaces (``"ك ت ب"``), hamza written ``ء`` as in the lexicon; ``""`` when the
  word has no root (particles, pronouns, most proper nouns and loanwords; also any "root" longer than 4 letters).
- ``pos``: a coarse English name, mapped from the package's tags by :func:`farahidi_pos` / :func:`qalsadi_pos`:
  ``verb``; ``noun`` (nouns, verbal nouns, participles, nouns of place/instrument); ``adj`` (nisba adjectives,
  صفة مشبهة, elatives, intensive forms); ``noun_prop`` (اسم علم); ``pron`` (personal, relative, demonstrative,
  interrogative and conditional pronouns); ``adv`` (ظرف); ``num`` (cardinal number words, by lemma); ``prep``
  (حرف جر); ``conj`` (حرف عطف); ``part`` (other particles).
- ``frequency``: the lemma's corpus count in the package's data (0 when unknown).
- ``lemma_id``: the first 12 hex digits of BLAKE2b over ``"<package>\\x1f<lemma>\\x1f<pos>\\x1f<root>"`` (UTF-8). It
  depends only on the package's lemma and this documented mapping, so it is the same across restarts, machines and
  table rebuilds.
- A word without any analysis: ``lemma`` = the token (diacritics removed), ``root`` ``""``, ``pos`` ``"unknown"``,
  ``frequency`` 0 (its ``lemma_id`` is computed the same way).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import pickle
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any, Final

from tahqiq.analysis.compiled import SHIPPED_DIR, CompiledData, read_or_build, write_pickle
from tahqiq.analysis.function_words import FUNCTION_WORDS_FILE, function_words
from tahqiq.analysis.morph_backends import (
    Backend,
    QalsadiBackend,
    farahidi_pos,
    make_backend,
    qalsadi_pos,
)
from tahqiq.analysis.ner.reading import WordInContext
from tahqiq.analysis.params import FLAGS, TASKS
from tahqiq.analysis.pos_tagger import DATA_FILE, POS_TAGS, PosTagger, Word, best, probabilities
from tahqiq.analysis.shared_analyses import SharedAnalyses
from tahqiq.arabic.clitics import ARTICLE_PREFIXES
from tahqiq.arabic.keys import bare, key, loose
from tahqiq.core import Token, scan

__all__ = [
    "FLAGS",
    "TASKS",
    "Analysis",
    "EmptyTextError",
    "Morphology",
    "MorphologyError",
    "TextTooLongError",
    "UnknownFlagError",
    "UnknownTaskError",
    "UnsupportedLanguageError",
    "check_language",
    "farahidi_pos",
    "lemma_id_for",
    "qalsadi_pos",
]

LANGUAGES: Final = ("MSA",)
# the table's format and ranking (2: ties broken by the reading, not the package's hash-dependent order)
FORMAT: Final = 2
# Forms outside any table whose analyses take every path of farahidi's analyser between them (verbs, nouns, a
# proper noun; clitics; several lengths): run once at a worker's start, so the first real word does not pay for
# the analyser's first use (its tables come from the compiled data: `Backend.load_tables`).
WARM_UP_FORMS: Final = (
    *("واستمتعوا", "وبمستشفياتهم", "فبطائراتكم", "سيكتبونها"),
    *("والمعلمات", "بالاستقلال", "كتب", "ومحمد"),
)
DEFAULT_TABLE_SIZE: Final = 20_000
DEFAULT_MEMO_SIZE: Final = 65_536
DEFAULT_MAX_CHARS: Final = 10_000
LEMMA_FORMS_LIMIT: Final = 20
UNKNOWN_POS: Final = "unknown"


# --------------------------------------------------------------------------------------------------------- errors
class MorphologyError(ValueError):
    """Bad input to :class:`Morphology`; ``field`` names the parameter to fix (the app answers 422)."""

    field: str = "text"

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        if field is not None:
            self.field = field


class UnknownTaskError(MorphologyError):
    field = "task"


class UnknownFlagError(MorphologyError):
    field = "flag"


class EmptyTextError(MorphologyError):
    field = "text"


class TextTooLongError(MorphologyError):
    field = "text"


class UnsupportedLanguageError(MorphologyError):
    field = "language"


def check_language(language: str | None) -> None:
    """Only MSA is supported (case-insensitive; ``None`` means MSA); anything else raises."""
    if language is None or language.strip().upper() in LANGUAGES:
        return
    raise UnsupportedLanguageError(f"language {language!r} is not supported: only MSA (Modern Standard Arabic) is")


# ------------------------------------------------------------------------------------------------ data model
@dataclass(frozen=True, slots=True)
class Analysis:
    """One ranked analysis of a form (one lexicon lemma)."""

    lemma: str
    lemma_id: str
    root: str
    pos: str
    frequency: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "lemma": self.lemma,
            "lemma_id": self.lemma_id,
            "root": self.root,
            "pos": self.pos,
            "frequency": self.frequency,
        }


def lemma_id_for(package: str, lemma: str, pos: str, root: str) -> str:
    """The stable lemma id: 12 hex digits of BLAKE2b over package, lemma, pos and root."""
    key = "\x1f".join((package, lemma, pos, root)).encode("utf-8")
    return hashlib.blake2b(key, digest_size=6).hexdigest()


SENTENCE_ENDS: Final = frozenset(".!?:;؛؟\n")


def _opens_sentence(text: str, start: int) -> bool:
    """Whether the word at ``start`` begins the text or follows a sentence's end (. ! ? : ؛ or a new line); not a
    comma, after which an apposition often begins (، لاعب المنتخب السابق), nor a quote, after which a title may
    begin with a verb («خبز على طاولة الخال ميلاد»)."""
    before = text[:start].rstrip(" \t")
    return not before or before[-1] in SENTENCE_ENDS


NOMINAL: Final = ("noun", "adj", "noun_prop", "num")
FUNCTION: Final = ("prep", "conj", "part", "pron", "adv")


def unknown_stem(key: str) -> str:
    """A word the lexicon does not know (a loanword, mostly) without its proclitics and article: والأكسجين ->
    أكسجين (at least two letters stay)."""
    for prefix in (*ARTICLE_PREFIXES, "و", "ف"):
        if key.startswith(prefix) and len(key) - len(prefix) >= 2:
            return key[len(prefix) :]
    return key


View = tuple[tuple[int, ...], tuple[str, ...], str, str, str, str]  # Morphology._view
Raw = tuple[str, str, str, float]  # (lemma, root spaced, coarse pos, ranking weight)

POS_PREFERENCE: Final = ("prep", "conj", "part", "pron", "adv", "verb", "noun", "adj", "num", "noun_prop")


def rank(
    analyses: Iterable[tuple[str, str, str]],
    hints: dict[str, float],
    lemma_freq: Callable[[str], int],
    root_freq: Callable[[str], int],
) -> list[tuple[str, str, str]]:
    """Distinct (lemma, root, pos), best first: corpus P(lemma | form), then lemma frequency; readings of one lemma
    by POS (closed classes first, proper nouns last), then root corpus frequency, then the reading itself. Not the
    package's order: farahidi's varies with the process's string hash seed, so the same form would be ranked
    differently in two processes (and two builds of the table would differ)."""

    def key(a: tuple[str, str, str]) -> tuple[float, int, int, int, tuple[str, str, str]]:
        pref = POS_PREFERENCE.index(a[2]) if a[2] in POS_PREFERENCE else len(POS_PREFERENCE)
        return (-hints.get(a[0], 0.0), -lemma_freq(a[0]), pref, -root_freq(a[1]), a)

    return sorted(set(analyses), key=key)


# ------------------------------------------------------------------------------------------------------- table
@dataclass(slots=True)
class _Table:
    package: str
    version: str
    size: int
    lemmas: list[tuple[str, str, str, int]]  # (lemma, root, pos, frequency); index = lemma number
    exact: dict[str, tuple[int, ...]]  # bare form -> ranked lemma numbers
    loose: dict[str, tuple[int, ...]]  # loose form -> ranked lemma numbers
    hints: dict[str, dict[str, float]]  # ranking hints of corpus forms left out of the table
    lemma_freq: dict[str, int]
    root_freq: dict[str, int]


class Morphology:
    """Form → analyses from a compiled table, with the package's analyser (memoised) for unseen forms.

    ``data_dir`` is where the compiled table lives; nothing reads the environment. Thread-safe.
    """

    def __init__(
        self,
        data_dir: str | os.PathLike[str],
        *,
        package: str = "farahidi",
        table_size: int = DEFAULT_TABLE_SIZE,
        memo_size: int = DEFAULT_MEMO_SIZE,
        max_chars: int = DEFAULT_MAX_CHARS,
        tagger: PosTagger | None = None,
        shipped_dir: Path | None = SHIPPED_DIR,
        shared: bool = True,
        build_processes: int = 1,
    ) -> None:
        self.data_dir = Path(data_dir)
        # processes that analyse the table's forms when it is built: the wheel's build uses every core; a running
        # service (whose analysis workers may not start processes of their own) builds in its own process
        self.build_processes = build_processes
        self.shared = shared  # the analyser's answers also kept in data_dir for every process (`_shared_analyses`)
        self.shipped_dir = shipped_dir  # the wheel's compiled data, read before data_dir (tahqiq.analysis.compiled)
        self.tagger = tagger  # loaded with the table when not given
        self.package = package
        self.table_size = table_size
        self.memo_size = memo_size
        self.max_chars = max_chars
        self._lock = threading.RLock()
        self._backend: Backend | None = None
        self._table: _Table | None = None
        self._ids: dict[str, int] = {}
        self._entries: list[dict[str, Any]] = []  # lemma number -> {lemma, lemma_id, root, pos, frequency}
        self._forms_of: dict[int, list[str]] | None = None
        self._memo: OrderedDict[str, tuple[int, ...]] = OrderedDict()
        self._function: dict[str, tuple[int, ...]] = {}  # function-word form -> its readings (data file)
        self._views: dict[str, View] = {}
        self._choices: dict[tuple[str, str], int] = {}  # (bare form, POS) -> the analysis `_chosen` gives it
        self.table_built = False  # True when this instance built (rather than loaded) the table
        self._version: str | None = None
        self._shared: SharedAnalyses | None = None
        self.analyser_calls = 0

    # -------------------------------------------------------------------------------------------- loading
    @property
    def backend(self) -> Backend:
        if self._backend is None:
            with self._lock:
                if self._backend is None:
                    self._backend = make_backend(self.package)
        return self._backend

    def package_version(self) -> str:
        if self._version is None:  # read once: the journal asks for it at every new lemma
            if self.package == "qalsadi":
                self._version = metadata.version("qalsadi") + "+arramooz" + metadata.version("arramooz-pysqlite")
            else:
                self._version = metadata.version(self.package)
        return self._version

    def analysis_version(self) -> str:
        """What `analyze` answers depends on: the package's version and the digest of the table's format, the
        tagger's weights and the function words (caches of lemmatised text, such as WSD's, are keyed by it)."""
        digest = hashlib.blake2b(digest_size=6)
        digest.update(f"table format {FORMAT}".encode())
        for path in (DATA_FILE, FUNCTION_WORDS_FILE):
            digest.update(path.read_bytes())
        return f"{self.package_version()}+{digest.hexdigest()}"

    @property
    def table_name(self) -> str:
        return f"morphology-{self.package}-{self.package_version()}.pickle"

    @property
    def table_path(self) -> Path:
        """Where this instance writes the table it builds (it reads the shipped one first)."""
        return self.data_dir / self.table_name

    def load(self) -> None:
        """Load the compiled table, building it first when missing or stale. Called on first use."""
        if self._table is not None:
            return
        with self._lock:
            if self._table is not None:
                return
            table, self.table_built = read_or_build(
                self.table_name, self.data_dir, self.shipped_dir, self._read, self._build_and_write
            )
            if self.tagger is None:
                self.tagger = PosTagger.load()
            self._install(table)
            self._replay_journal()

    def _read(self, path: Path) -> _Table | None:
        try:
            with path.open("rb") as fh:
                header = pickle.load(fh)
                if header != (FORMAT, self.package, self.package_version(), self.table_size):
                    return None
                table = pickle.load(fh)
        except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ValueError):
            return None
        return table if isinstance(table, _Table) else None

    def _build_and_write(self, path: Path) -> _Table:
        table = self._build()
        self._write(table)
        return table

    def _write(self, table: _Table) -> None:
        # the header first, so that `_read` rejects another version without unpickling its table
        write_pickle(self.table_path, (FORMAT, table.package, table.version, table.size), table)
        current = f"morphology-{self.package}-{self.package_version()}."
        for old in self.data_dir.glob(f"morphology-{self.package}-*"):
            if not old.name.startswith(current):  # this version's table, journal and shared analyses stay
                with contextlib.suppress(OSError):
                    old.unlink()

    def _build(self) -> _Table:
        backend = self.backend
        forms, hints, lemma_freq, root_freq = backend.corpus()
        compiled, rest = forms[: self.table_size], forms[self.table_size :]
        table = _Table(
            package=self.package,
            version=self.package_version(),
            size=self.table_size,
            lemmas=[],
            exact={},
            loose={},
            hints={w: hints[w] for w in rest},
            lemma_freq=lemma_freq,
            root_freq=root_freq,
        )
        numbers: dict[tuple[str, str, str], int] = {}
        loose_acc: dict[str, dict[int, float]] = {}
        keys = [bare(form) for form in compiled]
        analysed = analyse_all(backend, keys, self.build_processes)
        for form, bare_form, analyses in zip(compiled, keys, analysed, strict=True):
            ranked = rank(
                analyses,
                hints.get(form, {}),
                lambda lem: lemma_freq.get(lem, 0),
                lambda root: root_freq.get(root, 0),
            )
            ids = tuple(self._number(table, numbers, a) for a in ranked)
            if not ids or bare_form in table.exact:
                continue
            table.exact[bare_form] = ids
            acc = loose_acc.setdefault(loose(bare_form), {})
            for pos_in_rank, n in enumerate(ids):  # merge spelling variants: best rank wins, then frequency
                acc[n] = max(acc.get(n, 0.0), 1.0 / (1 + pos_in_rank))
        for lkey, acc in loose_acc.items():
            table.loose[lkey] = tuple(sorted(acc, key=lambda n: (-acc[n], -table.lemmas[n][3], n)))
        return table

    @staticmethod
    def _number(table: _Table, numbers: dict[tuple[str, str, str], int], a: tuple[str, str, str]) -> int:
        n = numbers.get(a)
        if n is None:
            n = numbers[a] = len(table.lemmas)
            table.lemmas.append((a[0], a[1], a[2], table.lemma_freq.get(a[0], 0)))
        return n

    def _install(self, table: _Table) -> None:
        package = table.package
        self._entries = [
            {
                "lemma": lemma,
                "lemma_id": lemma_id_for(package, lemma, pos, root),
                "root": root,
                "pos": pos,
                "frequency": freq,
            }
            for lemma, root, pos, freq in table.lemmas
        ]
        self._ids = {entry["lemma_id"]: n for n, entry in enumerate(self._entries)}
        self._forms_of = None  # indexed on first use (`_forms_index`): only the lemma links need it
        self._table = table
        self._function = {
            form: tuple(self._lemma_number(*reading) for reading in readings)
            for form, readings in function_words().items()
        }

    # ------------------------------------------------------------------------------------------- lookups
    def _lemma_freq(self, lemma: str) -> int:
        assert self._table is not None
        freq = self._table.lemma_freq.get(lemma)
        if freq is not None:
            return freq
        backend = self._backend
        if isinstance(backend, QalsadiBackend):
            return backend.lemma_frequency(lemma)
        return 0

    def _lookup(self, token: str) -> tuple[int, ...]:
        """Ranked lemma numbers of a token (table, then memo, then the analyser)."""
        table = self._table
        assert table is not None
        key = bare(token)
        ids = table.exact.get(key)
        if ids is not None:
            return ids
        with self._lock:
            memo = self._memo.get(key)
            if memo is not None:
                self._memo.move_to_end(key)
                return memo
        lkey = loose(key)
        lids = table.loose.get(lkey)
        if lids is not None and lkey == key:
            return lids
        # A spelling the corpus does not have (other hamza, alef or ya forms): the analyser reads it as written,
        # ranked with the corpus ranking of its loose spelling.
        hints = table.hints.get(key) or table.hints.get(lkey) or {}
        if not hints and lids:
            for i, n in enumerate(lids):
                hints.setdefault(table.lemmas[n][0], 1.0 / (1 + i))
        with self._lock:
            shared = self._shared_analyses()
            raw = shared.get(key) if shared is not None else None
            if raw is None:
                self.analyser_calls += 1
                raw = self.backend.analyze(key)
                if shared is not None:
                    shared.put(key, raw)
            ranked = rank(raw, hints, self._lemma_freq, lambda r: table.root_freq.get(r, 0))
            if ranked:
                ids = tuple(self._register(a) for a in ranked)
            elif lids:
                ids = lids
            else:
                ids = (self._register((key, "", UNKNOWN_POS)),)
            self._memo[key] = ids
            if len(self._memo) > self.memo_size:
                self._memo.popitem(last=False)
            return ids

    def _shared_analyses(self) -> SharedAnalyses | None:
        """The analyser's answers shared through ``data_dir`` (tahqiq.analysis.shared_analyses), opened on first use."""
        if self._shared is None and self.shared:
            name = f"morphology-{self.package}-{self.package_version()}.analyses.sqlite"
            self._shared = SharedAnalyses(self.data_dir / name)
        return self._shared

    def _register(self, a: tuple[str, str, str]) -> int:
        """Lemma number of an analysis found by the analyser, adding it to the lemma list when new."""
        table = self._table
        assert table is not None
        lid = lemma_id_for(table.package, a[0], a[2], a[1])
        n = self._ids.get(lid)
        if n is None:
            n = self._add_lemma(a[0], a[1], a[2], self._lemma_freq(a[0]))
            self._journal_lemma(table.lemmas[n])
        return n

    def _lemma_number(self, lemma: str, root: str, pos: str) -> int:
        """Lemma number of a reading the project's data defines (no journal: the data file brings it back)."""
        n = self._ids.get(lemma_id_for(self.package, lemma, pos, root))
        return n if n is not None else self._add_lemma(lemma, root, pos, self._lemma_freq(lemma))

    def _add_lemma(self, lemma: str, root: str, pos: str, freq: int) -> int:
        table = self._table
        assert table is not None
        n = len(table.lemmas)
        table.lemmas.append((lemma, root, pos, freq))
        lid = lemma_id_for(table.package, lemma, pos, root)
        self._entries.append(Analysis(lemma, lid, root, pos, freq).as_dict())
        self._ids[lid] = n
        return n

    @property
    def journal_path(self) -> Path:
        """Lemmas the analyser found beyond the table, one JSON array a line, so that their ids still answer at
        `lemma()` after a restart (appends of one short line are atomic, so processes may share the file)."""
        return self.data_dir / f"morphology-{self.package}-{self.package_version()}.lemmas.jsonl"

    def _journal_lemma(self, entry: tuple[str, str, str, int]) -> None:
        line = (json.dumps(list(entry), ensure_ascii=False) + "\n").encode()
        with contextlib.suppress(OSError):  # the journal is a convenience: losing a line loses no analysis
            self.data_dir.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.journal_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                os.write(fd, line)
            finally:
                os.close(fd)

    def _replay_journal(self) -> None:
        lines: list[str] = []
        for folder in (self.shipped_dir, self.data_dir):
            if folder is not None:
                with contextlib.suppress(OSError):
                    lines += (folder / self.journal_path.name).read_text(encoding="utf-8").splitlines()
        for line in lines:
            with contextlib.suppress(ValueError, TypeError):
                lemma, root, pos, freq = json.loads(line)
                if lemma_id_for(self.package, lemma, pos, root) not in self._ids:
                    self._add_lemma(str(lemma), str(root), str(pos), int(freq))

    def _analysis(self, n: int) -> Analysis:
        return Analysis(**self._entries[n])

    def _forms_index(self) -> dict[int, list[str]]:
        """Forms of each lemma of the table: those where it is the top reading first, then those where it is
        another reading; within each, corpus frequency order (the table's insertion order)."""
        if self._forms_of is None:
            with self._lock:
                if self._forms_of is None:
                    table = self._table
                    assert table is not None
                    top: dict[int, list[str]] = {}
                    other: dict[int, list[str]] = {}
                    for form, ids in table.exact.items():
                        for rank_, n in enumerate(ids):
                            lst = (top if rank_ == 0 else other).setdefault(n, [])
                            if len(lst) <= LEMMA_FORMS_LIMIT:
                                lst.append(form)
                    self._forms_of = {
                        n: (top.get(n, []) + other.get(n, []))[: LEMMA_FORMS_LIMIT + 1]
                        for n in top.keys() | other.keys()
                    }
        return self._forms_of

    def _forms(self, n: int, token: str) -> list[str]:
        key = bare(token)
        return [f for f in self._forms_index().get(n, ()) if f != key][:LEMMA_FORMS_LIMIT]

    # ------------------------------------------------------------------------------------------ public
    def analyses(self, token: str) -> list[Analysis]:
        """Every ranked analysis of one word."""
        self.load()
        return [self._analysis(n) for n in self._lookup(token)]

    def load_analyser(self) -> None:
        """Loads the analyser's own tables now (from the compiled data: `Backend.load_tables`) and runs it once over
        a few forms, so that the first forms outside the table do not pay for it: part of a worker's start, not of
        its first documents. The forms are analysed outside the memo and the journal, so this changes no answer."""
        self.backend.load_tables(CompiledData(self.data_dir, self.shipped_dir))
        for form in WARM_UP_FORMS:
            self.backend.analyze(form)

    def known_lemma(self, token: str) -> str | None:
        """The top-ranked lemma of a form the compiled table holds, without calling the analyser: ``None`` for any
        other form. (Not the memo of the analyser's answers: the result must not depend on the texts read before.)"""
        self.load()
        table = self._table
        assert table is not None
        key = bare(token)
        ids = table.exact.get(key) or table.loose.get(loose(key))
        return self._entries[ids[0]]["lemma"] if ids else None

    def analyze(
        self,
        text: str,
        *,
        task: str = "full",
        flag: str = "1",
        include_lemma: bool = False,
        lemma_url: Callable[[str], str] | None = None,
    ) -> list[dict[str, Any]]:
        """Per word token of ``text``: ``{token, lemma, lemma_id, root, pos, frequency}`` (task ``full``,
        flag ``1``); ``{token, analyses: [...]}`` for flag ``*``; the subsets ``{token, lemma, lemma_id}``,
        ``{token, pos}``, ``{token, root}`` for the other tasks. ``include_lemma`` (tasks full and lemmatization)
        adds ``lemma_url`` (``lemma_url(lemma_id)``, or ``None`` without a callable) and ``lemma_forms``."""
        if task not in TASKS:
            raise UnknownTaskError(f"unknown task {task!r}: use one of {', '.join(TASKS)}")
        if flag not in FLAGS:
            raise UnknownFlagError(
                f"unknown flag {flag!r}: use 1 (the top analysis, chosen in context) or * (all analyses, scored)"
            )
        if not isinstance(text, str) or not text.strip():
            raise EmptyTextError("text is empty: send the Arabic text to analyse")
        if len(text) > self.max_chars:
            raise TextTooLongError(f"text has {len(text)} characters: send at most {self.max_chars}")
        self.load()
        fields = {
            "full": ("lemma", "lemma_id", "root", "pos", "frequency"),
            "lemmatization": ("lemma", "lemma_id"),
            "pos": ("pos",),
            "root": ("root",),
        }[task]
        with_lemma = include_lemma and task in ("full", "lemmatization")
        out: list[dict[str, Any]] = []
        for token, ranked in self.in_context(text, every=flag == "*"):
            entries = []
            seen: set[tuple[Any, ...]] = set()
            for n, score in ranked if flag == "*" else ranked[:1]:
                full = self._entries[n]
                entry = {f: full[f] for f in fields}
                sig = tuple(entry.values())
                if sig in seen:  # pos/root subsets of several lemmas may coincide: the best score stays
                    continue
                seen.add(sig)
                if flag == "*":
                    entry["score"] = score
                if with_lemma:
                    entry["lemma_url"] = lemma_url(full["lemma_id"]) if lemma_url else None
                    entry["lemma_forms"] = self._forms(n, token)
                entries.append(entry)
            if flag == "*":
                out.append({"token": token, "analyses": entries})
            else:
                out.append({"token": token, **entries[0]})
        return out

    def in_context(self, text: str, *, every: bool = False) -> list[tuple[str, list[tuple[int, float]]]]:
        """Per word token of ``text``: the analysis chosen in context as ``[(lemma number, score)]``, or with
        ``every`` all its analyses, the chosen one first (`_rank`)."""
        tokens, views, words = self.tagger_input(text)
        assert self.tagger is not None  # loaded by tagger_input
        out = []
        for token, view, scores in zip(tokens, views, self.tagger.tag(words), strict=True):
            if every:
                out.append((token.text, self._rank(view, scores)))
            else:
                out.append((token.text, [(self._chosen(view, POS_TAGS[best(scores)], scores), 0.0)]))
        return out

    def words_in_context(self, text: str) -> dict[int, WordInContext]:
        """How each word of ``text`` reads in its sentence, by its start offset (``WordInContext``). The entity
        recognizer reads it (``Recognizer(context=...)``): a clause-opening verb or an everyday word is no name (طالب
        in «طالب نواب البرلمان» "the deputies demanded", عالية in «أصوات عالية»)."""
        tokens, views, words = self.tagger_input(text)
        assert self.tagger is not None
        proper = POS_TAGS.index("noun_prop")
        out: dict[int, WordInContext] = {}
        for t, view, w, scores in zip(tokens, views, words, self.tagger.tag(words), strict=True):
            pos = POS_TAGS[best(scores)]
            chosen = self._entries[self._chosen(view, pos, scores)]
            lemma = key(chosen["lemma"])
            counts = [(key(self._entries[n]["lemma"]) == lemma, self._entries[n]["frequency"]) for n in view[0]]
            out[t.start] = WordInContext(
                pos=pos,
                lemma=lemma,
                # how common the written word is: its most frequent analysis (the lexicon counts some readings 0,
                # as the adjective عالي of عالية, whose noun counts 48), and the chosen lemma's own count
                frequency=int(max(f for _same, f in counts)),
                lemma_frequency=int(max((f for same, f in counts if same), default=chosen["frequency"])),
                proper=probabilities(scores)[proper],
                opens_sentence=w.clause_start and _opens_sentence(text, t.start),
                rooted=bool(chosen["root"]),
            )
        return out

    def tagger_input(self, text: str) -> tuple[list[Token], list[View], list[Word]]:
        """The word tokens of ``text``, their views (`_view`) and what the POS tagger sees of them."""
        self.load()
        tokens: list[Token] = []
        views: list[View] = []
        words: list[Word] = []
        clause_start = True
        for tok in scan(text):
            if tok.kind != "word":
                clause_start = clause_start or tok.kind == "punct"
                continue
            view = self._view(tok.text)
            words.append(Word(view[2], view[1], view[3], clause_start, view[4]))
            tokens.append(tok)
            views.append(view)
            clause_start = False
        return tokens, views, words

    def _view(self, token: str) -> View:
        """(ranked lemma numbers with the function-word readings first, their distinct POS, the loose key, the
        loose key of the top lemma, the POS sorted and joined, the bare key): what the tagger and the choice read
        of a form."""
        key = bare(token)
        view = self._views.get(key)
        if view is not None:
            return view
        ids = self._lookup(token)
        function = self._function.get(key)
        if function:
            ids = function + tuple(n for n in ids if n not in function)
        entries = self._entries
        readings = tuple(dict.fromkeys(entries[n]["pos"] for n in ids))
        view = (ids, readings, loose(key), loose(entries[ids[0]]["lemma"]), "|".join(sorted(readings)), key)
        with self._lock:
            if len(self._views) >= self.memo_size + len(self._table.exact if self._table else ()):
                self._views.clear()
            self._views[key] = view
        return view

    def _chosen(self, view: View, pos: str, tag_scores: list[float]) -> int:
        """The analysis of the tagger's POS ``pos``:

        - the lemma and root the training corpus gives this very spelling with that POS, when it has one;
        - else the best-ranked analysis of that POS;
        - else, for a nominal POS, the best-ranked nominal analysis (noun, adjective, proper noun, number) read with
          that POS, and for a function POS (preposition, conjunction, particle, pronoun, adverb) the top analysis
          read with it, when that is a function word too (a new analysis: مع is a ظرف to the lexicon);
        - else the analysis whose POS the tagger scores highest;
        - a word the lexicon does not know, tagged nominal, is read as its stem (no clitics, no article)."""
        key = view[5]
        chosen = self._choices.get((key, pos))
        if chosen is None:
            chosen = self._choose(view, pos)
            if chosen is None:  # decided by the scores: not memoised
                by_score = dict(zip(POS_TAGS, tag_scores, strict=True))
                entries = self._entries
                return max(view[0], key=lambda n: by_score.get(entries[n]["pos"], float("-inf")))
            with self._lock:
                if len(self._choices) >= self.memo_size:
                    self._choices.clear()
                self._choices[(key, pos)] = chosen
        return chosen

    def _choose(self, view: View, pos: str) -> int | None:
        """`_chosen` before its last step (None: the tagger's scores decide)."""
        ids, readings, key = view[0], view[1], view[5]
        entries = self._entries
        assert self.tagger is not None
        known = self.tagger.lemmas.get((key, pos))
        if known is not None:
            lemma_key = loose(known[0])
            same = [n for n in ids if entries[n]["root"] == known[1] and loose(entries[n]["lemma"]) == lemma_key]
            for n in same:
                if entries[n]["pos"] == pos:
                    return n
            lemma = entries[same[0]]["lemma"] if same else known[0]
            with self._lock:
                return self._register((lemma, known[1], pos))
        if pos in readings:
            return next(n for n in ids if entries[n]["pos"] == pos)
        if readings[0] == UNKNOWN_POS:
            if pos in NOMINAL:
                with self._lock:
                    return self._register((unknown_stem(view[2]), "", pos))
            return ids[0]
        base = None
        if pos in NOMINAL:
            base = next((n for n in ids if entries[n]["pos"] in NOMINAL), None)
        elif pos in FUNCTION and entries[ids[0]]["pos"] in FUNCTION:
            base = ids[0]
        if base is not None:
            e = entries[base]
            with self._lock:
                return self._register((e["lemma"], e["root"], pos))
        return None

    def _rank(self, view: View, tag_scores: list[float]) -> list[tuple[int, float]]:
        """Every analysis of a word with its score, P(its POS | context) from the tagger, best first (lexicon rank
        among equals); the chosen analysis (`_chosen`) is first, even when it is new."""
        entries = self._entries
        probs = dict(zip(POS_TAGS, probabilities(tag_scores), strict=True))
        pos = POS_TAGS[best(tag_scores)]
        chosen = self._chosen(view, pos, tag_scores)
        scored = [(n, round(probs.get(entries[n]["pos"], 0.0), 4)) for n in view[0] if n != chosen]
        scored.sort(key=lambda s: -s[1])  # stable: lexicon rank among equal scores
        return [(chosen, round(probs[pos], 4)), *scored]

    def forget(self) -> None:
        """Empty the memo of analysed forms and the per-form views (the next unseen form goes to the analyser)."""
        with self._lock:
            self._memo.clear()
            self._views.clear()
            self._choices.clear()

    def lemma(self, lemma_id: str) -> dict[str, Any] | None:
        """The lemma's entry: ``{lemma, lemma_id, root, pos, frequency, forms, package}``, or ``None``."""
        self.load()
        n = self._ids.get(lemma_id)
        if n is None:
            return None
        entry = dict(self._entries[n])
        entry["forms"] = list(self._forms_index().get(n, ()))[:LEMMA_FORMS_LIMIT]
        entry["package"] = self.package
        return entry

    def sizes(self) -> dict[str, Any]:
        """Figures for ``/health``: package, version, forms and lemmas in the table, memo size."""
        table = self._table
        return {
            "morphology_package": f"{self.package} {self.package_version()}",
            "morphology_loaded": table is not None,
            "morphology_forms": len(table.exact) if table else 0,
            "morphology_lemmas": len(table.lemmas) if table else 0,
            "morphology_memo": len(self._memo),
        }


_worker_backend: Backend | None = None


def _start_analyser(package: str) -> None:
    global _worker_backend
    _worker_backend = make_backend(package)


def _analyse(key: str) -> list[tuple[str, str, str]]:
    assert _worker_backend is not None
    return _worker_backend.analyze(key)


def analyse_all(
    backend: Backend, keys: list[str], processes: int, *, least: int = 1000
) -> list[list[tuple[str, str, str]]]:
    """``backend.analyze`` of every key, in order; with ``processes`` > 1 (and at least ``least`` keys, worth the
    processes' start), in that many processes of their own, each with its own backend. The table, numbered in the
    keys' order, comes out the same (tests/analysis/test_morphology.py)."""
    if processes <= 1 or len(keys) < least:
        return [backend.analyze(k) for k in keys]
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    chunk = max(50, len(keys) // (processes * 20))
    with ProcessPoolExecutor(
        processes, mp_context=get_context("spawn"), initializer=_start_analyser, initargs=(backend.name,)
    ) as pool:
        return list(pool.map(_analyse, keys, chunksize=chunk))
