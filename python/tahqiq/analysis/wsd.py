"""Word-sense disambiguation of MSA text (Area C, `/wsd`): a sense inventory from installed lexicon data and a
Lesk-style chooser over lemmas.

**Inventory.** The senses come from arramooz-pysqlite (GPL, installed from PyPI with qalsadi): its noun table
holds Arabic definitions for 19,305 nouns, most of them written as numbered senses
(``1.""example"" : gloss. 2.""example"" : gloss``). Each numbered part is one sense (a definition without numbers
is one sense); the example phrases and the gloss together are the sense's signature. The data is read where the
package installed it and compiled once into ``wsd-arramooz-<version>-<digest>.pickle``, which the wheel ships
(else it is built into ``<cache_dir>``, atomically and by one process at a time: :mod:`tahqiq.analysis.compiled`;
a file of another version or format is rebuilt). Nothing is downloaded and nothing is copied into the project.

**Sense ids.** ``sense_id`` = the first 12 hex digits of BLAKE2b over ``"arramooz\\x1f<vocalized headword>\\x1f<sense
number>"``: it depends only on the source, the headword as the lexicon writes it and the sense's number, so it is
the same across machines, restarts and rebuilds (a headword that the lexicon lists in two rows is written
``<headword>#2`` for the second, in the table's id order). Named-entity tokens get ``entity:<TYPE>`` (``entity:GPE``).

**The project's senses.** arramooz has no verb senses and misses some everyday noun senses: the project writes them
(``data/senses.txt``, CC BY-SA 4.0, read by :mod:`tahqiq.analysis.project_senses`), and they join the inventory
under the source ``tahqiq`` (ids over ``"tahqiq\x1f<headword>:<pos>\x1f<number>"``), after the lexicon's senses of
the same headword.

**Choosing a sense.** Candidates are the senses of the word's POS in context: a verb's are the project's verb senses
of its lemma; a noun's the noun senses of every headword written like the token's lemma (or, failing that, like the
token without its clitics); function words get no sense.
Each candidate is scored by the overlap between the sentence's context (the lemmas and clitic-stripped forms of the
other words, from :class:`~tahqiq.analysis.morphology.Morphology`) and the sense's signature (its words, lemmatised
the same way), each shared word weighted by its IDF over the whole inventory and by a mild decay with its distance
from the ambiguous word. Natural text seldom repeats a gloss's words, so a context word that shares none of them
counts through its own dictionary glosses, at GLOSS_WEIGHT of a direct match (``ركود`` is glossed ``كساد``, a word
of the slump sense of ``سوق``). The candidates are ordered most frequent headword first (arramooz's word-frequency
table), then by the lexicon's sense order (it orders senses by use, and has no sense-tagged counts); a rank prior
RANK_PRIOR / (1 + rank) is added to each score, so a weak overlap does not beat an earlier sense and without any
overlap the first sense wins (``baseline=True`` gives that most-frequent-sense choice alone). A word the morphology
reads as a verb gets noun senses when it cannot be one: it ends in ta marbuta, or follows في/إلى/على/عن/مع.

**Sense-tagged examples.** ``data/wsd_examples.txt`` (written by the project, CC BY-SA 4.0) holds five sentences
for each of 296 senses of 107 common ambiguous nouns, and ``data/senses_examples.txt`` five for each of the
project's own senses. Each exemplified sense gets a profile: the smoothed
log-likelihood ratio, against the word's other exemplified senses, of each stem, lemma and root of its examples'
context (kept when positive). A context word adds its best profile weight (by stem or lemma; else ROOT_WEIGHT times
its root's; else GLOSS_WEIGHT times its own glosses' words'), decaying with distance; EXAMPLE_WEIGHT times the sum
joins the overlap and the prior. Words without examples are chosen as before. The examples' contexts are
lemmatised once into ``wsd-examples-<digest>.pickle``, shipped or cached like the inventory (docs/design/wsd.md).
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import os
import re
import sqlite3
import threading
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from importlib import metadata, resources
from pathlib import Path
from typing import Any, Final, Protocol

from tahqiq.analysis.compiled import SHIPPED_DIR, CompiledData, read_or_build, read_pickle, write_pickle
from tahqiq.analysis.project_senses import SENSES_EXAMPLES_FILE, SENSES_FILE, digest, read_marked, read_senses
from tahqiq.arabic.clitics import light_stem
from tahqiq.arabic.keys import bare, loose, loose_unpunctuated_ta_folded
from tahqiq.core import scan

__all__ = [
    "ENTITY_PREFIX",
    "Disambiguator",
    "Example",
    "Sense",
    "SenseInventory",
    "entity_sense_id",
    "parse_examples",
    "project_examples",
    "read_examples",
    "sense_id_for",
    "shipped_examples",
]

SOURCE: Final = "arramooz"
PROJECT_SOURCE: Final = "tahqiq"  # the senses the project writes (data/senses.txt)
FORMAT: Final = 4
ENTITY_PREFIX: Final = "entity:"
NO_SENSE_POS: Final = frozenset(("prep", "conj", "pron", "part", "num", "adv"))
# the project's senses come after the lexicon's rows among headwords of equal frequency
PROJECT_ROW: Final = 1_000_000
DISTANCE_DECAY: Final = 0.05
# Context words count within this many words on either side (a word 50 away weighs 1/3.5 of a neighbour): the work
# per word is bounded, so a text's work grows linearly with its length, and a sentence (under 50 words) is whole.
CONTEXT_WINDOW: Final = 50
# A context word that shares nothing with a sense may still share words with its own dictionary glosses (``ركود``
# is glossed ``كساد``, which is in a gloss of ``سوق``): such a second-hand match counts this much of a direct one.
GLOSS_WEIGHT: Final = 0.2
# Rank prior: the sense at rank r of the candidate list (most frequent headword first, then the lexicon's order)
# gets RANK_PRIOR / (1 + r) on top of its overlap, so weak overlaps break toward the commoner senses.
RANK_PRIOR: Final = 1.0
# Sense-tagged examples (data/wsd_examples.txt): a sense's example contexts are its profile; a context word adds
# EXAMPLE_WEIGHT times its best smoothed log-likelihood ratio for the sense against the word's other exemplified
# senses (EXAMPLE_SMOOTHING added to every count). Both chosen by cross-validation (docs/design/wsd.md).
EXAMPLE_WEIGHT: Final = 4.0
EXAMPLE_SMOOTHING: Final = 0.5
# A context word that matches no profile key by its stem or lemma may match by its root, at this fraction; failing
# that, by the words of its own glosses at GLOSS_WEIGHT (as in the overlap).
ROOT_WEIGHT: Final = 0.5
EXAMPLES_FILE: Final = Path(__file__).with_name("data") / "wsd_examples.txt"
_TA_MARBUTA: Final = "\u0629"
# Prepositions never followed by a verb (unlike حتى, منذ, or من as "who").
_NOUN_PREPOSITIONS: Final = frozenset(loose(w) for w in ("في", "إلى", "على", "عن", "مع"))

ENTITY_GLOSSES: Final = {
    "PERS": "اسم شخص",
    "NORP": "جماعة أو جنسية أو نسبة",
    "OCC": "منصب أو مهنة",
    "ORG": "مؤسسة أو منظمة",
    "GPE": "دولة أو مدينة أو كيان سياسي",
    "LOC": "موقع جغرافي",
    "FAC": "منشأة",
    "EVENT": "حدث",
    "DATE": "تاريخ",
    "TIME": "وقت",
    "CARDINAL": "عدد",
    "ORDINAL": "عدد ترتيبي",
    "PERCENT": "نسبة مئوية",
    "LANGUAGE": "لغة",
    "QUANTITY": "كمية",
    "WEBSITE": "موقع إلكتروني",
    "UNIT": "وحدة قياس",
    "LAW": "قانون",
    "MONEY": "مبلغ مالي",
    "PRODUCT": "منتج",
    "CURR": "عملة",
}

_STOP: Final = frozenset(
    loose(w)
    for w in (
        "في من إلى الى على عن مع منذ حتى أو أم ثم بل لكن كما و ف ب ل ك أن إن أنه أنها إنه كان كانت يكون تكون "
        "هو هي هم هن هما أنا نحن أنت الذي التي الذين هذا هذه هؤلاء ذلك تلك ما ماذا من لا لم لن قد لقد كل بعض "
        "غير أي أيضا عند بين بعد قبل خلال حيث إذا اذا التى يا أى مص فا مفع ج ش الخ أو وهو وهي له لها به بها "
        "فيه فيها منه منها عليه عليها إليه اليه ليس مثل نحو كذا أي ايضا الى"
    ).split()
)
_NUMBER = re.compile(r"(?<![\d.])(\d{1,2})\s*\.(?!\d)")
_VOWELS = re.compile("[\u064b-\u0652\u0670]")


def sense_id_for(source: str, headword: str, number: int) -> str:
    """The stable sense id: 12 hex digits of BLAKE2b over source, vocalized headword and sense number."""
    key = "\x1f".join((source, headword, str(number))).encode("utf-8")
    return hashlib.blake2b(key, digest_size=6).hexdigest()


def entity_sense_id(entity_type: str) -> str:
    """``"GPE"`` → ``"entity:GPE"``."""
    return ENTITY_PREFIX + entity_type


def _content_words(text: str) -> list[str]:
    return [
        t.text
        for t in scan(text)
        if t.kind == "word"
        and loose_unpunctuated_ta_folded(t.text) not in _STOP
        and len(loose_unpunctuated_ta_folded(t.text)) > 1
    ]


# ------------------------------------------------------------------------------------------------ inventory
@dataclass(frozen=True, slots=True)
class Sense:
    """One numbered sense of a headword."""

    sense_id: str
    headword: str  # vocalized, as the lexicon writes it
    key: str  # loose unvocalized headword: what tokens are looked up by
    number: int
    gloss: str
    frequency: int  # the headword's count in arramooz's word-frequency table
    row: int  # the headword's row in the lexicon (its order among headwords of equal frequency)
    stems: frozenset[str]  # signature words, clitic-stripped
    pos: str = "noun"  # noun (every arramooz sense) or verb
    source: str = SOURCE  # arramooz, or tahqiq for the senses the project writes

    def as_dict(self) -> dict[str, Any]:
        return {
            "sense_id": self.sense_id,
            "headword": self.headword,
            "sense_number": self.number,
            "pos": self.pos,
            "gloss": self.gloss,
            "headword_frequency": self.frequency,
            "source": self.source,
        }


def parse_definition(definition: str) -> list[tuple[int, str]]:
    """Numbered senses of an arramooz definition: ``[(1, text), (2, text), …]``; text without numbers is one
    sense. Numbers are taken only in sequence (1, 2, 3 …), so verse numbers and counts inside a sense stay."""
    text = definition.strip().strip('"').replace('""', '"').strip()
    if not text:
        return []
    cuts: list[tuple[int, int, int]] = []  # (number, marker start, text start)
    expected = 1
    for m in _NUMBER.finditer(text):
        if int(m.group(1)) == expected:
            cuts.append((expected, m.start(), m.end()))
            expected += 1
    if not cuts:
        return [(1, text)]
    out: list[tuple[int, str]] = []
    for i, (number, _start, begin) in enumerate(cuts):
        end = cuts[i + 1][1] if i + 1 < len(cuts) else len(text)
        body = text[begin:end].strip(" .")
        if body:
            out.append((number, body))
    return out


@dataclass(frozen=True, slots=True)
class Example:
    """One sense-tagged example sentence: the target word is ``text[start:end]``."""

    lemma: str
    sense_id: str
    text: str
    start: int
    end: int


def parse_examples(source: str) -> list[Example]:
    """Lines ``lemma | sense id | sentence with the [target] word``; ``//`` lines are comments."""
    out: list[Example] = []
    for n, line in enumerate(source.splitlines(), 1):
        if not line.strip() or line.startswith("//"):
            continue
        parts = [part.strip() for part in line.split(" | ")]
        if len(parts) != 3 or parts[2].count("[") != 1 or parts[2].count("]") != 1:
            raise ValueError(f"line {n}: expected 'lemma | sense id | sentence with one [target]'")
        lemma, sense_id, marked = parts
        start = marked.index("[")
        end = marked.index("]") - 1
        if end <= start:
            raise ValueError(f"line {n}: empty [target]")
        out.append(Example(lemma, sense_id, marked.replace("[", "").replace("]", ""), start, end))
    return out


def read_examples(path: str | os.PathLike[str] = EXAMPLES_FILE) -> list[Example]:
    """The project's sense-tagged examples of the lexicon's senses (``data/wsd_examples.txt`` by default)."""
    return parse_examples(Path(path).read_text(encoding="utf-8"))


def project_examples() -> list[Example]:
    """The sense-tagged examples of the project's own senses (``data/senses_examples.txt``): ``headword#number``
    names the sense of that headword and number in ``data/senses.txt``."""
    pos_of = {(p.headword, p.number): p.pos for p in read_senses()}
    out = []
    for m in read_marked():
        pos = pos_of.get((m.headword, m.number))
        if pos is None:
            raise ValueError(f"senses_examples.txt: {m.headword}#{m.number} is no sense of senses.txt")
        sid = sense_id_for(PROJECT_SOURCE, f"{m.headword}:{pos}", m.number)
        out.append(Example(bare(m.headword), sid, m.text, m.start, m.end))
    return out


def shipped_examples() -> list[Example]:
    """Every sense-tagged example the project ships: the lexicon's senses' and its own senses'."""
    return read_examples() + project_examples()


def _arramooz_dir() -> Path:
    return Path(str(resources.files("arramooz") / "data"))


def _project_senses(noun_freq: Counter[str], verb_freq: Counter[str]) -> list[Sense]:
    """The senses the project writes (data/senses.txt), with the lexicon's frequency of their headword: a noun's
    as the lexicon spells it, a verb's summed over its spellings."""
    out: list[Sense] = []
    for p in read_senses():
        key = loose_unpunctuated_ta_folded(bare(p.headword))
        count = noun_freq.get(p.headword.rstrip("\u064c\u064b\u064d"), 0) if p.pos == "noun" else verb_freq.get(key, 0)
        gloss = p.gloss.split(" — ", 1)[0]  # the Arabic definition is the signature; an English gloss may follow
        stems = frozenset(light_stem(w) for w in _content_words(gloss)) - {key, light_stem(key)}
        sid = sense_id_for(PROJECT_SOURCE, f"{p.headword}:{p.pos}", p.number)
        out.append(
            Sense(sid, p.headword, key, p.number, p.gloss, count, PROJECT_ROW + p.line, stems, p.pos, PROJECT_SOURCE)
        )
    return out


class SenseInventory:
    """Sense inventory compiled from arramooz's noun definitions: the wheel's copy, else one compiled into
    ``cache_dir``. Thread-safe; loads on first use."""

    def __init__(
        self,
        cache_dir: str | os.PathLike[str],
        *,
        data_dir: str | os.PathLike[str] | None = None,
        shipped_dir: Path | None = SHIPPED_DIR,
    ) -> None:
        self.cache_dir = Path(cache_dir)
        self.shipped_dir = shipped_dir  # the wheel's compiled data, read before cache_dir (tahqiq.analysis.compiled)
        self.data_dir = Path(data_dir) if data_dir is not None else None
        self._lock = threading.Lock()
        self._senses: list[Sense] | None = None
        self._by_id: dict[str, Sense] = {}
        self._by_key: dict[str, list[Sense]] = {}
        self._df: dict[str, int] = {}
        self.built = False

    def version(self) -> str:
        return metadata.version("arramooz-pysqlite")

    @property
    def name(self) -> str:
        return f"wsd-{SOURCE}-{self.version()}-{digest(SENSES_FILE)}.pickle"

    @property
    def path(self) -> Path:
        """Where this inventory writes the index it builds (it reads the shipped one first)."""
        return self.cache_dir / self.name

    def load(self) -> None:
        if self._senses is not None:
            return
        with self._lock:
            if self._senses is not None:
                return
            senses, self.built = read_or_build(
                self.name, self.cache_dir, self.shipped_dir, self._read, self._build_and_write
            )
            self._install(senses)

    def _build_and_write(self, path: Path) -> list[Sense]:
        senses = self._build()
        self._write(senses)
        return senses

    def _read(self, path: Path) -> list[Sense] | None:
        data = read_pickle(path)
        if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != self.version():
            return None
        return [Sense(*s) for s in data["senses"]]

    def _write(self, senses: list[Sense]) -> None:
        # each sense as a tuple of its fields in order: loads about twice as fast as dicts or the objects
        payload = {
            "format": FORMAT,
            "version": self.version(),
            "senses": [tuple(getattr(s, f.name) for f in fields(Sense)) for s in senses],
        }
        write_pickle(self.path, payload, stale=f"wsd-{SOURCE}-*.pickle")

    def _build(self) -> list[Sense]:
        data = self.data_dir or _arramooz_dir()
        freq: Counter[str] = Counter()
        verb_freq: Counter[str] = Counter()  # by loose key: the table's verbs are vocalized in several ways
        with contextlib.closing(sqlite3.connect(f"file:{data / 'wordfreq.sqlite'}?mode=ro", uri=True)) as db:
            for vocalized, word_type, count in db.execute("SELECT vocalized, word_type, freq FROM wordfreq"):
                if word_type == "noun":
                    freq[vocalized] += int(count)
                elif word_type == "verb":
                    verb_freq[loose_unpunctuated_ta_folded(str(vocalized))] += int(count)
        senses: list[Sense] = []
        seen: set[str] = set()
        rows_of: Counter[str] = Counter()
        with contextlib.closing(sqlite3.connect(f"file:{data / 'arabicdictionary.sqlite'}?mode=ro", uri=True)) as db:
            rows = db.execute(
                "SELECT vocalized, unvocalized, definition FROM nouns "
                "WHERE definition IS NOT NULL AND definition != '' ORDER BY id"
            )
            for row, (vocalized, unvocalized, definition) in enumerate(rows):
                written = str(vocalized).strip()
                rows_of[written] += 1  # a headword the table holds twice: the second row is "<headword>#2"
                headword = written if rows_of[written] == 1 else f"{written}#{rows_of[written]}"
                key = loose_unpunctuated_ta_folded(str(unvocalized))
                bare_voc = written.rstrip("\u064c\u064b\u064d")  # tanwin off: the frequency table's spelling
                count = freq.get(bare_voc, 0)
                for number, gloss in parse_definition(str(definition)):
                    sid = sense_id_for(SOURCE, headword, number)
                    if sid in seen:  # a sense number repeated inside one definition: keep the first
                        continue
                    seen.add(sid)
                    stems = frozenset(light_stem(w) for w in _content_words(gloss)) - {key, light_stem(key)}
                    senses.append(Sense(sid, headword, key, number, gloss, count, row, stems))
        senses.extend(_project_senses(freq, verb_freq))
        return senses

    def _install(self, senses: list[Sense]) -> None:
        by_key: dict[str, list[Sense]] = {}
        df: Counter[str] = Counter()
        for s in senses:
            by_key.setdefault(s.key, []).append(s)
            df.update(s.stems)
        for group in by_key.values():  # most frequent headword first, then the lexicon's order of senses
            group.sort(key=lambda s: (-s.frequency, s.row, s.number))
        self._by_id = {s.sense_id: s for s in senses}
        self._by_key = by_key
        self._df = dict(df)
        self._senses = senses

    # ----------------------------------------------------------------------------------------- public
    def senses_for(self, word: str, pos: str | None = None) -> list[Sense]:
        """Senses of the headwords written like ``word`` (diacritics ignored), most frequent sense first; with
        ``pos`` (noun or verb), that POS's only."""
        self.load()
        found = self._by_key.get(loose_unpunctuated_ta_folded(word), ())
        return [s for s in found if s.pos == pos] if pos is not None else list(found)

    def get(self, sense_id: str) -> Sense | None:
        self.load()
        return self._by_id.get(sense_id)

    def idf(self, stem: str) -> float:
        self.load()
        n = len(self._senses or ())
        return math.log((n + 1) / (self._df.get(stem, 0) + 1))

    def sizes(self) -> dict[str, Any]:
        self.load()
        return {
            "wsd_source": f"{SOURCE} {self.version()} + {PROJECT_SOURCE} {digest(SENSES_FILE)}",
            "wsd_senses": len(self._by_id),
            "wsd_headwords": len(self._by_key),
            "wsd_ambiguous_headwords": sum(1 for g in self._by_key.values() if len(g) > 1),
        }


# --------------------------------------------------------------------------------------------- disambiguator
class Lemmatizer(Protocol):
    def analyze(self, text: str, *, task: str = ..., flag: str = ...) -> list[dict[str, Any]]: ...

    def known_lemma(self, token: str) -> str | None: ...


@dataclass
class _Word:
    token: str
    start: int
    end: int
    lemma: str
    pos: str
    keys: set[str] = field(default_factory=set)
    root: str = ""  # "√" + the morphology's root letters: the examples' looser key (تسوق, متسوقين meet سوق)
    gloss_keys: frozenset[str] = frozenset()  # words of the glosses of this word's own senses, minus ``keys``


class Disambiguator:
    """Chooses a sense per word token of a text (see the module docstring)."""

    def __init__(
        self,
        inventory: SenseInventory,
        morphology: Lemmatizer,
        *,
        examples: Sequence[Example] | None = None,
        example_weight: float = EXAMPLE_WEIGHT,
        smoothing: float = EXAMPLE_SMOOTHING,
        root_weight: float = ROOT_WEIGHT,
        second_weight: float = GLOSS_WEIGHT,
    ) -> None:
        """``examples``: sense-tagged sentences (default: the project's data file; ``()`` for none)."""
        self.inventory = inventory
        self.morphology = morphology
        self.example_weight = example_weight
        self.smoothing = smoothing
        self.root_weight = root_weight
        self.second_weight = second_weight
        self._examples = list(shipped_examples() if examples is None else examples)
        self._shipped_examples = examples is None  # only the shipped file's contexts are cached on disk
        self._contexts: dict[str, list[tuple[str, frozenset[str]]]] | None = None
        self._contexts_lock = threading.Lock()
        self._profiles: dict[str, dict[str, dict[str, float]]] = {}  # headword key -> sense id -> key -> weight
        self._signatures: dict[str, frozenset[str]] = {}
        self._gloss_keys: dict[tuple[str, ...], frozenset[str]] = {}  # per candidate list: bounded by the inventory
        self._lock = threading.Lock()

    def _words(self, text: str, *, gloss_keys: bool = True) -> list[_Word]:
        tokens = [t for t in scan(text) if t.kind == "word"]
        analyses = self.morphology.analyze(text, task="full") if tokens else []
        words: list[_Word] = []
        for tok, a in zip(tokens, analyses, strict=True):
            lemma = bare(str(a.get("lemma") or tok.text))
            w = _Word(tok.text, tok.start, tok.end, lemma, str(a.get("pos") or "unknown"))
            root = str(a.get("root") or "").replace(" ", "")
            w.root = "\u221a" + root if root else ""
            words.append(w)
        for i, w in enumerate(words):
            if w.pos in ("verb", "adv") and _nominal(w, words[i - 1] if i else None):
                w.pos = "noun"
            if (
                loose_unpunctuated_ta_folded(w.token) not in _STOP
                and loose_unpunctuated_ta_folded(w.lemma) not in _STOP
            ):
                w.keys = {light_stem(w.lemma), light_stem(w.token), loose_unpunctuated_ta_folded(w.lemma)} - {""}
                if gloss_keys:
                    w.gloss_keys = self._own_gloss_keys(w) - w.keys
        return words

    def lookup_forms(self, word: _Word) -> Iterator[str]:
        """The forms a word's senses are looked up under, in order: its lemma in context, the token, its light stem,
        then the lexicon's other nominal lemmas of the token, best first, read only when the first ones find nothing
        (the headword may be another lemma than the one chosen in context: أوراق is the plural of ورقة to the
        tagger, of the collective ورق to the inventory)."""
        yield from (word.lemma, word.token, light_stem(word.token))
        analyses = getattr(self.morphology, "analyses", None)
        if analyses is not None:
            found = (bare(a.lemma) for a in analyses(word.token) if a.pos in ("noun", "adj"))
            yield from (f for f in dict.fromkeys(found) if f != word.lemma)

    def _own_gloss_keys(self, word: _Word) -> frozenset[str]:
        """The gloss words (stems) of all senses the word itself could have: its second-hand context."""
        senses = self.candidates(word)
        if not senses:
            return frozenset()
        # memoised by the candidates themselves: a headword's candidates depend on the word's reading (its verb
        # senses or its noun senses), and a memo by headword made each answer depend on the texts read before it
        ids = tuple(sense.sense_id for sense in senses)
        keys = self._gloss_keys.get(ids)
        if keys is None:
            keys = frozenset().union(*(s.stems for s in senses))
            with self._lock:
                self._gloss_keys[ids] = keys
        return keys

    def signature(self, sense: Sense) -> frozenset[str]:
        """The sense's signature keys: clitic-stripped forms of its gloss words, and the lemmas of those the
        morphology table holds (memoised). Only the table's: the analyser takes 10-30 ms a word, and a gloss word
        outside the table is already in the signature by its stem (docs/design/wsd.md, "Signatures")."""
        sig = self._signatures.get(sense.sense_id)
        if sig is not None:
            return sig
        keys = set(sense.stems)
        for word in _content_words(sense.gloss):
            lemma = self.morphology.known_lemma(word)
            if lemma and loose_unpunctuated_ta_folded(lemma) not in _STOP:
                keys.add(light_stem(lemma))
                keys.add(loose_unpunctuated_ta_folded(lemma))
        keys -= {sense.key, light_stem(sense.key), ""}
        sig = frozenset(keys)
        with self._lock:
            self._signatures[sense.sense_id] = sig
        return sig

    def profile(self, key: str) -> dict[str, dict[str, float]]:
        """Per exemplified sense of the headword ``key``: the weight of each context key of its examples, the
        smoothed log-likelihood ratio of a sentence of this sense holding it against one of the word's other
        exemplified senses, kept when positive (memoised; empty for a word without examples)."""
        found = self._profiles.get(key)
        if found is not None:
            return found
        contexts: dict[str, list[frozenset[str]]] = {}
        for sid, keys in self.example_contexts().get(key, ()):
            contexts.setdefault(sid, []).append(keys)
        out: dict[str, dict[str, float]] = {}
        a = self.smoothing
        if len(contexts) > 1:
            counts = {sid: Counter(k for keys in sets for k in keys) for sid, sets in contexts.items()}
            total = Counter[str]()
            for c in counts.values():
                total.update(c)
            sizes = {sid: len(sets) for sid, sets in contexts.items()}
            n_all = sum(sizes.values())
            for sid, c in counts.items():
                n_s, n_o = sizes[sid], n_all - sizes[sid]
                weights = {}
                for k, c_s in c.items():
                    c_o = total[k] - c_s
                    llr = math.log((c_s + a) / (n_s + 2 * a)) - math.log((c_o + a) / (n_o + 2 * a))
                    if llr > 0:
                        weights[k] = llr
                out[sid] = weights
        with self._lock:
            self._profiles[key] = out
        return out

    def example_contexts(self) -> dict[str, list[tuple[str, frozenset[str]]]]:
        """Per headword key, each example's (sense id, context keys): the other words' stems and lemmas, and their
        roots unless the target's. Lemmatising 1,500 sentences takes seconds, so for the shipped file the result is
        kept in ``wsd-examples-<digest>.pickle`` (digest of the file and the morphology's version), shipped in the
        wheel or built into the cache directory."""
        if self._contexts is not None:
            return self._contexts
        with self._contexts_lock:
            if self._contexts is not None:
                return self._contexts
            contexts: dict[str, list[tuple[str, frozenset[str]]]]
            if self._shipped_examples:
                compiled = CompiledData(self.inventory.cache_dir, self.inventory.shipped_dir)
                name = self._contexts_name()
                contexts = compiled.pickled(name, self._lemmatised_examples, stale="wsd-examples-*.pickle")
            else:
                contexts = self._lemmatised_examples()
            self._contexts = contexts
        return contexts

    def _lemmatised_examples(self) -> dict[str, list[tuple[str, frozenset[str]]]]:
        contexts: dict[str, list[tuple[str, frozenset[str]]]] = {}
        for ex in self._examples:
            sense = self.inventory.get(ex.sense_id)
            if sense is not None:
                contexts.setdefault(sense.key, []).append((ex.sense_id, self._context_keys(ex, sense.key)))
        return contexts

    def _context_keys(self, ex: Example, key: str) -> frozenset[str]:
        keys: set[str] = set()
        words = self._words(ex.text, gloss_keys=False)
        target = next((w.root for w in words if w.start <= ex.start < w.end), "")
        for w in words:
            if not (w.start <= ex.start < w.end):
                keys |= w.keys
                if w.keys and w.root and w.root != target:
                    keys.add(w.root)
        return frozenset(keys - {key, light_stem(key)})

    def _contexts_name(self) -> str:
        version = getattr(self.morphology, "analysis_version", None)  # the lexicon's and the tagger's
        tag = f"{type(self.morphology).__name__} {version() if callable(version) else ''} {FORMAT}"
        files = digest(EXAMPLES_FILE, SENSES_FILE, SENSES_EXAMPLES_FILE)
        key = hashlib.blake2b((files + tag).encode("utf-8"), digest_size=8).hexdigest()
        return f"wsd-examples-{key}.pickle"

    def example_score(self, sense: Sense, words: Sequence[_Word], index: int) -> float:
        """Per context word, its best profile weight for the sense (by stem or lemma; else ``root_weight`` times its
        root's; else ``second_weight`` times its own glosses' words'), decaying with distance like the overlap."""
        weights = self.profile(sense.key).get(sense.sense_id)
        if not weights:
            return 0.0
        total = 0.0
        for j in _window(len(words), index):
            w = words[j]
            if j == index or not w.keys:
                continue
            best = max((weights.get(k, 0.0) for k in w.keys), default=0.0)
            if not best and w.root:
                best = self.root_weight * weights.get(w.root, 0.0)
            if not best and self.second_weight and w.gloss_keys:
                best = self.second_weight * max((weights.get(k, 0.0) for k in w.gloss_keys), default=0.0)
            if best:
                total += best / (1.0 + DISTANCE_DECAY * abs(j - index))
        return total

    def candidates(self, word: _Word) -> list[Sense]:
        """The senses of the word's POS in context: a verb's the project's verb senses of its lemma; a noun's (or an
        adjective's) the noun senses found first under its lookup forms (`lookup_forms`)."""
        if word.pos in NO_SENSE_POS:
            return []
        if word.pos == "verb":
            return self.inventory.senses_for(word.lemma, "verb")
        for form in self.lookup_forms(word):
            found = self.inventory.senses_for(form, "noun")
            if found:
                return found
        return []

    def score(self, sense: Sense, words: Sequence[_Word], index: int) -> float:
        """Overlap of the sense's signature with the context: per context word, its IDF-weighted direct match, or
        failing that GLOSS_WEIGHT times the match of its own glosses' words, both decaying with distance."""
        sig = self.signature(sense)
        idf = self.inventory.idf
        total = 0.0
        for j in _window(len(words), index):
            w = words[j]
            if j == index or not w.keys:
                continue
            decay = 1.0 + DISTANCE_DECAY * abs(j - index)
            shared = w.keys & sig
            if shared:
                total += max(idf(light_stem(k)) for k in shared) / decay
                continue
            second = w.gloss_keys & sig
            if second:
                total += GLOSS_WEIGHT * max(idf(k) for k in second) / decay
        return total

    def choose(self, candidates: Sequence[Sense], words: Sequence[_Word], index: int) -> Sense:
        """The candidate with the best overlap plus rank prior; without any overlap, the first (most frequent)."""
        best = candidates[0]
        best_score = -1.0
        for rank, sense in enumerate(candidates):
            s = self.score(sense, words, index) + RANK_PRIOR / (1 + rank)
            if self.example_weight and words:
                s += self.example_weight * self.example_score(sense, words, index)
            if s > best_score:
                best, best_score = sense, s
        return best

    def disambiguate(
        self,
        text: str,
        *,
        include_gloss: bool = False,
        sense_url: Callable[[str], str] | None = None,
        entities: Iterable[Any] | None = None,
        baseline: bool = False,
    ) -> list[dict[str, Any]]:
        """Per word token: ``{token, lemma, sense_id, sense_url[, gloss]}`` (``sense_id``/``sense_url``/``gloss``
        are ``None`` for a word the inventory has no sense for). ``entities``: spans with ``type``, ``start``,
        ``end`` (dicts or objects); a token inside one gets ``entity:<TYPE>`` (the outermost span wins).
        ``baseline=True`` gives the most-frequent-sense choice without context."""
        words = self._words(text)
        entity_of = _outermost_entities(words, entities or ())
        out: list[dict[str, Any]] = []
        for i, w in enumerate(words):
            entity = entity_of[i]
            gloss: str | None = None
            sid: str | None
            if entity is not None:
                sid = entity_sense_id(entity)
                gloss = ENTITY_GLOSSES.get(entity, entity)
            else:
                cands = self.candidates(w)
                if cands:
                    chosen = cands[0] if baseline else self.choose(cands, words, i)
                    sid, gloss = chosen.sense_id, chosen.gloss
                else:
                    sid = None
            item: dict[str, Any] = {
                "token": w.token,
                "lemma": w.lemma,
                "sense_id": sid,
                "sense_url": (sense_url(sid) if sense_url else None) if sid else None,
            }
            if include_gloss:
                item["gloss"] = gloss
            out.append(item)
        return out

    def disambiguate_span(self, text: str, start: int, end: int, *, baseline: bool = False) -> str | None:
        """The sense id chosen for the word token at ``[start, end)`` (used by the evaluation)."""
        words = self._words(text)
        for i, w in enumerate(words):
            if w.start <= start < w.end or (start <= w.start and w.end <= end):
                cands = self.candidates(w)
                if not cands:
                    return None
                return cands[0].sense_id if baseline else self.choose(cands, words, i).sense_id
        return None

    def sense(self, sense_id: str) -> dict[str, Any] | None:
        """The entry behind ``GET /lexicon/senses/{sense_id}``, or ``None``."""
        if sense_id.startswith(ENTITY_PREFIX):
            etype = sense_id[len(ENTITY_PREFIX) :]
            if etype not in ENTITY_GLOSSES:
                return None
            return {"sense_id": sense_id, "entity_type": etype, "gloss": ENTITY_GLOSSES[etype], "source": "entity"}
        s = self.inventory.get(sense_id)
        if s is None:
            return None
        entry = s.as_dict()
        entry["other_senses"] = [o.sense_id for o in self.inventory.senses_for(s.key) if o.sense_id != sense_id]
        return entry


def _nominal(word: _Word, previous: _Word | None) -> bool:
    """Whether a word the morphology read as a verb (or adverb) can only be a noun: it ends in ta marbuta (no verb
    does) or follows a preposition (``في وجه``). A leading ``ال`` proves nothing (``التقى`` is a verb)."""
    bare = _VOWELS.sub("", word.token)
    if bare.endswith(_TA_MARBUTA) and len(bare) > 2:
        return True
    return word.pos == "verb" and previous is not None and loose(previous.token) in _NOUN_PREPOSITIONS


def _window(size: int, index: int) -> range:
    """The indices of the context words of the word at ``index``: within CONTEXT_WINDOW words of it."""
    return range(max(0, index - CONTEXT_WINDOW), min(size, index + CONTEXT_WINDOW + 1))


def _outermost_entities(words: Sequence[_Word], entities: Iterable[Any]) -> list[str | None]:
    """Per word, the type of the outermost entity span holding it (the earliest, then the longest), or None."""
    spans = sorted((_span(e) for e in entities), key=lambda s: (s[0], -s[1]))
    starts = [w.start for w in words]
    out: list[str | None] = [None] * len(words)
    for start, end, etype in spans:  # the outermost first: a word keeps the first span found holding it
        for i in range(bisect_left(starts, start), len(words)):
            if words[i].start >= end:
                break
            if out[i] is None and words[i].end <= end:
                out[i] = etype
    return out


def _span(entity: Any) -> tuple[int, int, str]:
    if isinstance(entity, dict):
        return int(entity["start"]), int(entity["end"]), str(entity["type"])
    return int(entity.start), int(entity.end), str(entity.type)
