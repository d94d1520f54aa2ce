"""The lexicon packages behind `/morph` (farahidi, qalsadi) and the mapping of their tags to the coarse POS labels
(docs/design/morphology.md, "Output conventions")."""

from __future__ import annotations

import gzip
import importlib
from collections.abc import Callable
from importlib import metadata, resources
from typing import Any, Final, Protocol

from tahqiq.analysis.compiled import CompiledData
from tahqiq.arabic.keys import loose


def spaced_root(root: str | None) -> str:
    """``"كتب"`` → ``"ك ت ب"``; no root, ``"-"`` or a "root" of more than 4 letters → ``""``."""
    if not root:
        return ""
    letters = root.replace(" ", "").strip("-")
    if not letters or len(letters) > 4:
        return ""
    return " ".join(letters)


_NUMBER_LEMMAS: Final = frozenset(
    loose(w)
    for w in (
        "واحد اثنان اثنين ثلاث ثلاثة أربع أربعة خمس خمسة ست ستة سبع سبعة ثمان ثماني ثمانية تسع تسعة عشر عشرة "
        "عشرون ثلاثون أربعون خمسون ستون سبعون ثمانون تسعون مئة مائة ألف مليون مليار بليون"
    ).split()
)
_PREPOSITIONS: Final = frozenset(loose(w) for w in "في من إلى على عن مع منذ مذ حتى ب ل ك رب خلا عدا".split())
_CONJUNCTIONS: Final = frozenset(loose(w) for w in "و ف ثم أو أم بل لكن كما".split())
_ADVERBS: Final = frozenset(
    loose(w)
    for w in "بين بعد قبل خلال أمام وراء نحو عند حول دون تحت فوق لدى ضد إزاء حيث أمس الآن قط أبدا عندما".split()
)
_PRONOUNS: Final = frozenset(
    loose(w)
    for w in (
        "هو هي هم هن هما أنا نحن أنت أنتم أنتما أنتن الذي التي الذين اللذان اللتان اللواتي اللاتي هذا هذه "
        "هؤلاء ذلك تلك أولئك هنا هناك ما من متى أين كيف كم أي"
    ).split()
)


def _numberise(pos: str, lemma: str) -> str:
    return "num" if pos in ("noun", "adj") and loose(lemma) in _NUMBER_LEMMAS else pos


_FARAHIDI_ADJ: Final = frozenset(("نسبة", "صفة مشبهة", "اسم تفضيل", "مبالغة اسم الفاعل"))
_FARAHIDI_PRON: Final = ("ضمير", "موصول", "إشارة", "استفهام", "شرط")


def farahidi_pos(pos: str | None, type_: str | None, lemma: str) -> str:
    """Coarse POS from farahidi's ``pos`` (اسم / فعل / حرف) and ``type``; see the module docstring."""
    t = type_ or ""
    if pos == "فعل":
        return "verb"
    if pos == "حرف":
        if "جر" in t.split(":"):
            return "prep"
        if "عطف" in t.split(":"):
            return "conj"
        return "part"
    if t == "اسم علم":
        return "noun_prop"
    if any(p in t for p in _FARAHIDI_PRON):
        return "pron"
    if t == "ظرف":
        return "adv"
    if t in _FARAHIDI_ADJ:
        return "adj"
    return _numberise("noun", lemma)


_QALSADI_ADJ: Final = ("منسوب", "صفة", "اسم تفضيل", "صيغة مبالغة", "adj")


def qalsadi_pos(type_: str, lemma: str) -> str:
    """Coarse POS from qalsadi's ``type`` (``Verb``, ``Noun:…``, ``STOPWORD:…``, ``unknown``)."""
    key = loose(lemma)
    if type_.startswith("Verb"):
        return "verb"
    if type_.startswith("STOPWORD"):
        if key in _PREPOSITIONS:
            return "prep"
        if key in _CONJUNCTIONS:
            return "conj"
        if key in _ADVERBS:
            return "adv"
        if key in _PRONOUNS or "ضمير" in type_:
            return "pron"
        if key in _NUMBER_LEMMAS:
            return "num"
        return "part" if "حرف" in type_ else "noun"
    if type_ == "unknown":
        return "noun_prop"
    if any(a in type_ for a in _QALSADI_ADJ):
        return _numberise("adj", lemma)
    return _numberise("noun", lemma)


# ---------------------------------------------------------------------------------------------------- backends


class Backend(Protocol):
    """What :class:`Morphology` needs from a lexicon package."""

    name: str
    version: str

    def corpus(self) -> tuple[list[str], dict[str, dict[str, float]], dict[str, int], dict[str, int]]:
        """(forms, most frequent first; per form ranking hints {lemma: weight}; lemma and (spaced) root corpus
        frequencies)."""
        ...

    def analyze(self, form: str) -> list[tuple[str, str, str]]:
        """Every (lemma, root spaced, coarse pos) of ``form`` in the package's own order (duplicates allowed)."""
        ...

    def load_tables(self, compiled: CompiledData) -> None:
        """Loads the analyser's own tables: from ``compiled`` for a package whose tables it keeps."""
        ...


class FarahidiBackend:
    """farahidi (AlKhalil Morpho Sys 2): analyses from ``Analyzer.analyze``; corpus from its language model."""

    name = "farahidi"

    def __init__(self) -> None:
        farahidi: Any = importlib.import_module("farahidi")  # the package ships no type information
        self.version = metadata.version("farahidi")
        self._analyzer: Any = farahidi.Analyzer()

    def analyze(self, form: str) -> list[tuple[str, str, str]]:
        out = []
        for a in self._analyzer.analyze(form):
            out.append((a.lemma, spaced_root(a.root), farahidi_pos(a.pos, a.type, a.lemma)))
        return out

    def load_tables(self, compiled: CompiledData) -> None:
        """farahidi reads each table from gzipped JSON lines the first time its analyser needs it: half a second for
        the tables the first words need, nearly all of it spent making the tables' small objects. The compiled data
        keeps every table pickled (about half the time), and farahidi's two table readers answer from it from then
        on. Analysing still reads the other files of the package (its language model) as before."""
        lexicon: Any = importlib.import_module("farahidi.lexicon")
        if getattr(lexicon.load_map, "tahqiq_compiled", False):
            return  # installed by an earlier load in this process: the tables are read once
        name = f"farahidi-tables-{self.version}.pickle"
        tables: dict[str, Any] = compiled.pickled(name, lambda: _read_tables(lexicon), stale="farahidi-tables-*.pickle")
        lexicon.load_map = _compiled_first(tables, lexicon.load_map)
        lexicon.load_list = _compiled_first(tables, lexicon.load_list)

    def corpus(self) -> tuple[list[str], dict[str, dict[str, float]], dict[str, int], dict[str, int]]:
        lm: Any = importlib.import_module("farahidi.lm")
        translit: Any = importlib.import_module("farahidi.translit")
        word_freq: dict[str, float] = {}
        path = resources.files("farahidi") / "data" / (lm.LM_FILE + ".gz")
        bw = translit.bw_to_arabic
        with gzip.open(path.open("rb"), "rt", encoding=lm.LM_ENCODING, newline="") as fh:
            for raw in fh:
                if raw.startswith("B"):
                    size_t = int(raw[2:4])
                    size_f = int(raw[4:5])
                    word_freq[bw(raw[6 : 6 + size_t])] = float(raw[7 + size_t : 7 + size_t + size_f])
        hints: dict[str, dict[str, float]] = {}
        lemma_freq: dict[str, float] = {}
        for key, p in lm.load_lm()[1].items():
            word, lemma = key.rsplit(":", 1)
            hints.setdefault(word, {})[lemma] = p
            lemma_freq[lemma] = lemma_freq.get(lemma, 0.0) + p * word_freq.get(word, 0.0)
        lm.load_lm.cache_clear()  # the model is only needed here: give its memory back
        forms = sorted(hints, key=lambda w: (-word_freq.get(w, 0.0), w))
        root_freq: dict[str, int] = {}
        for root, count in lm.LanguageModel().map_root.items():
            spaced = spaced_root(root)
            if spaced:
                root_freq[spaced] = max(root_freq.get(spaced, 0), int(count))
        return forms, hints, {k: round(v) for k, v in lemma_freq.items()}, root_freq


def _read_tables(lexicon: Any) -> dict[str, Any]:
    """Every table of farahidi's data folder (``NAME.map.jsonl.gz``, ``NAME.list.jsonl.gz``) as its reader returns it,
    by the name the reader takes."""
    tables: dict[str, Any] = {}
    for entry in sorted(resources.files("farahidi").joinpath("data").iterdir(), key=lambda e: e.name):
        name = entry.name.removesuffix(".jsonl.gz")
        if name.endswith(".map"):
            tables[name] = lexicon.load_map(name)
        elif name.endswith(".list"):
            tables[name] = lexicon.load_list(name)
    return tables


def _compiled_first(tables: dict[str, Any], read: Callable[[str], Any]) -> Callable[[str], Any]:
    """A table reader that answers from ``tables`` and reads the others with ``read`` (farahidi's own, cached)."""

    def load(name: str) -> Any:
        found = tables.get(name)
        return read(name) if found is None else found

    load.tahqiq_compiled = True  # type: ignore[attr-defined]
    return load


class QalsadiBackend:
    """qalsadi + arramooz: analyses from ``Analex.check_word``; no corpus of forms (every form uses the analyser)."""

    name = "qalsadi"

    def __init__(self) -> None:
        analex = importlib.import_module("qalsadi.analex")
        self.version = metadata.version("qalsadi") + "+arramooz" + metadata.version("arramooz-pysqlite")
        self._analex: Any = analex.Analex()
        self._freq: dict[str, int] = {}

    def analyze(self, form: str) -> list[tuple[str, str, str]]:
        scored = []
        for r in self._analex.check_word(form):
            lemma = str(r.get("lemma") or form)
            pos = qalsadi_pos(str(r.get("type") or ""), lemma)
            freq = int(r.get("freq") or 0)
            self._freq[lemma] = max(self._freq.get(lemma, 0), freq)
            scored.append((freq, lemma, spaced_root(r.get("root")), pos))
        scored.sort(key=lambda s: -s[0])  # qalsadi does not rank: its frequency does
        return [(lemma, root, pos) for _, lemma, root, pos in scored]

    def load_tables(self, compiled: CompiledData) -> None:
        pass  # qalsadi and arramooz read their SQLite dictionaries as they go

    def corpus(self) -> tuple[list[str], dict[str, dict[str, float]], dict[str, int], dict[str, int]]:
        return [], {}, {}, {}

    def lemma_frequency(self, lemma: str) -> int:
        return self._freq.get(lemma, 0)


def make_backend(package: str) -> Backend:
    if package == "farahidi":
        return FarahidiBackend()
    if package == "qalsadi":
        return QalsadiBackend()
    raise ValueError(f"unknown morphology package {package!r}: use farahidi or qalsadi")
