"""Dialect sentence lookup and the dialect glossary, over the shipped corpus and imported ones.

Everything is compared in one normalised form: `tahqiq.core.normalize` with diacritics, tatweel, alef, ya,
ta marbuta and digits folded (`MATCH_FORM`). Fuzzy matching is `tahqiq.core.Lexicon` (exactly
`rapidfuzz.fuzz.ratio / 100` on those normalised strings).

Lookup (`DialectIndex.lookup`) tries, in order: the sentence id; the exact normalised text; a substring of a
normalised sentence (score: the share of the sentence the query covers); a fuzzy match of the whole sentence.
POST-style lookups stop after the exact text.

Glossary (`DialectIndex.glossary`) maps each word of a text to corpus forms, trying: the form as written
(`exact`, score 1), the normalised form (`normalized`, score 1), the form with dialect clitics stripped on
either side equal to a corpus form or to a corpus token's stem (`clitic`, score 0.95), and fuzzy matching
(`fuzzy`, the Lexicon score). Each match carries the corpus annotation and references to its rows.
"""

from __future__ import annotations

import functools
import itertools
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from tahqiq.analysis.corpus import CorpusToken, Sentence, sentence_fields
from tahqiq.core import Lexicon, normalize, scan

SHIPPED = "tahqiq"
ALL = "all"
MAX_REFS = 5
TIE_BREAK_CANDIDATES = 8
CLITIC_SCORE = 0.95  # below the exact and normalised matches, above most fuzzy ones

# Proclitics and enclitics of the dialects, in normalised spelling (ى→ي, ة→ه), longest first within a slot.
PROCLITIC_SLOTS: tuple[tuple[str, ...], ...] = (
    ("و", "ف"),  # conjunctions
    ("ما",),  # attached negation
    ("رح", "ح", "ه", "ب", "د", "ع", "م", "ل", "ك"),  # future, progressive, prepositions
    ("ال",),  # article
)
ENCLITICS: tuple[str, ...] = (
    "ش",
    "هم", "هن", "ها", "كم", "كو", "كي", "نا", "ني", "ك", "ه", "و", "ي",
    "لهم", "لكم", "لنا", "لها", "لك", "له", "لي", "لو",
)  # fmt: skip
MIN_STEM = 2


def match_form(text: str) -> str:
    """The one normalised form used for every comparison here."""
    return normalize(text, ta_marbuta=True, digits=True)


def sentence_json(s: Sentence, corpus: str) -> dict[str, Any]:
    return {**sentence_fields(s), "corpus": corpus}


def _matching_prefixes(form: str) -> list[str]:
    """The proclitic sequences (one choice or none per slot, in slot order) that `form` starts with."""
    found = [""]
    for slot in PROCLITIC_SLOTS:
        found += [p + c for p in found for c in slot if form.startswith(p + c)]
    return found


_SUFFIXES = ("", *ENCLITICS, *(e + "ش" for e in ENCLITICS if e != "ش"))


@functools.lru_cache(maxsize=65_536)
def strip_clitics(form: str) -> tuple[str, ...]:
    """Every way to take dialect proclitics and enclitics off a normalised word, leaving at least MIN_STEM
    letters (and, before an enclitic, ت read back as ta marbuta, normalised ه); the word itself is not
    included. Ordered by how much was stripped (least first)."""
    suffixes = [s for s in _SUFFIXES if form.endswith(s)]
    out: dict[str, int] = {}
    for p in _matching_prefixes(form):
        for s in suffixes:
            if (p or s) and len(form) - len(p) - len(s) >= MIN_STEM:
                stem = form[len(p) : len(form) - len(s)]
                out.setdefault(stem, len(p) + len(s))
                if s and stem.endswith("ت"):  # سيارتي → سيارة: ta marbuta is written ت before an enclitic
                    out.setdefault(stem[:-1] + "ه", len(p) + len(s))
    return tuple(sorted(out, key=lambda stem: (out[stem], stem)))


@dataclass(slots=True)
class FormEntry:
    """One distinct annotated form of the corpus and where it occurs."""

    form: str
    token: CorpusToken
    refs: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class LookupResult:
    match_type: str
    match_score: float
    corpus: str
    sentence: Sentence


@dataclass(frozen=True, slots=True)
class Suggestion:
    corpus: str
    sentence: Sentence
    score: float


class NoMatch(Exception):
    """Nothing reached the threshold; `suggestion` is the closest sentence, if any."""

    def __init__(self, message: str, suggestion: Suggestion | None) -> None:
        super().__init__(message)
        self.suggestion = suggestion


class ConflictingParameters(ValueError):
    """`sentence_id` and `text` name different rows."""


class _SourceIndex:
    """Lookup indexes of one corpus."""

    def __init__(self, name: str, sentences: list[Sentence]) -> None:
        self.name = name
        self.by_id = {s.sentence_id: s for s in sentences}
        self.sentences = sentences
        self.normalized = [match_form(s.text) for s in sentences]
        self.by_text: dict[str, Sentence] = {}
        for s, key in zip(sentences, self.normalized, strict=True):
            self.by_text.setdefault(key, s)
        self.lexicon = Lexicon(self.normalized)


class DialectIndex:
    """All corpora (the shipped one first, then imported ones by name) with their lookup and glossary indexes."""

    def __init__(self, corpora: dict[str, list[Sentence]]) -> None:
        names = sorted(corpora, key=lambda n: (n != SHIPPED, n))
        self.sources = {name: _SourceIndex(name, corpora[name]) for name in names}
        self._glossaries: dict[str, _Glossary] = {}

    def names(self) -> list[str]:
        return list(self.sources)

    def sizes(self) -> dict[str, Any]:
        return {
            name: {
                "sentences": len(src.sentences),
                "tokens": sum(len(s.tokens) for s in src.sentences),
                "forms": len(self.glossary_index(name).entries),
            }
            for name, src in self.sources.items()
        }

    def _selected(self, source: str) -> list[_SourceIndex]:
        if source == ALL:
            return list(self.sources.values())
        if source not in self.sources:
            raise KeyError(source)
        return [self.sources[source]]

    def lookup(
        self,
        *,
        sentence_id: int | None,
        text: str | None,
        source: str = ALL,
        threshold: float = 0.65,
        fallbacks: bool = True,
    ) -> LookupResult:
        """The row named by id and/or text; see the module docstring for the order. Raises KeyError for an
        unknown source, ConflictingParameters, or NoMatch (with the closest suggestion)."""
        sources = self._selected(source)
        by_id = None
        if sentence_id is not None:
            by_id = next(
                (
                    LookupResult("id", 1.0, src.name, src.by_id[sentence_id])
                    for src in sources
                    if sentence_id in src.by_id
                ),
                None,
            )
            if text is None:
                if by_id is None:
                    raise NoMatch(f"no sentence has sentence_id {sentence_id}", None)
                return by_id
        assert text is not None
        key = match_form(text.strip())
        if by_id is not None:
            if match_form(by_id.sentence.text) != key:
                raise ConflictingParameters(
                    f"sentence_id {sentence_id} and text name different sentences; give one, or both of the same row"
                )
            return by_id
        for src in sources:
            if key in src.by_text:
                return LookupResult("exact", 1.0, src.name, src.by_text[key])
        if fallbacks and key:
            substring = self._substring(sources, key)
            if substring is not None and substring.match_score >= threshold:
                return substring
        best = self._fuzzy(sources, key)
        if fallbacks and best is not None and best.score >= threshold:
            return LookupResult("fuzzy", best.score, best.corpus, best.sentence)
        wanted = f"sentence_id {sentence_id}" if sentence_id is not None else "this text"
        how = "at or above the threshold" if fallbacks else "with exactly this text (POST matches id or exact text)"
        raise NoMatch(f"no sentence matches {wanted} {how}", best)

    @staticmethod
    def _substring(sources: list[_SourceIndex], key: str) -> LookupResult | None:
        best: LookupResult | None = None
        for src in sources:
            for s, norm in zip(src.sentences, src.normalized, strict=True):
                if key in norm:
                    score = len(key) / len(norm)
                    if best is None or score > best.match_score:
                        best = LookupResult("substring", score, src.name, s)
        return best

    @staticmethod
    def _fuzzy(sources: list[_SourceIndex], key: str) -> Suggestion | None:
        best: Suggestion | None = None
        for src in sources:
            for index, score in src.lexicon.search(key, top_k=1, threshold=0.0):
                if best is None or score > best.score:
                    best = Suggestion(src.name, src.sentences[index], score)
        return best

    # Glossary -------------------------------------------------------------------------------------

    def glossary_index(self, source: str) -> _Glossary:
        if source not in self._glossaries:
            sources = self._selected(source)
            self._glossaries[source] = _Glossary((src.name, s) for src in sources for s in src.sentences)
        return self._glossaries[source]

    def glossary(
        self,
        text: str,
        *,
        top_k: int = 3,
        threshold: float = 0.65,
        include_offsets: bool = False,
        source: str = ALL,
    ) -> list[dict[str, Any]]:
        index = self.glossary_index(source)
        words = [t for t in scan(text) if t.kind in ("word", "number")]
        normalized = [match_form(t.text) for t in words]
        # More fuzzy candidates than asked for: their similarity also orders the clitic matches among themselves.
        fuzzy = index.lexicon.search_many(normalized, top_k=top_k + TIE_BREAK_CANDIDATES, threshold=min(threshold, 0.5))
        out = []
        for t, norm, fuzzy_hits in zip(words, normalized, fuzzy, strict=True):
            row: dict[str, Any] = {"token": t.text, "normalized": norm}
            if include_offsets:
                row["start"], row["end"] = t.start, t.end
            row["matches"] = index.matches(t.text, norm, fuzzy_hits, top_k, threshold)
            out.append(row)
        return out


_TYPE_RANK = {"exact": 0, "normalized": 1, "clitic": 2, "fuzzy": 3}


class _Glossary:
    """Distinct corpus forms, keyed by their normalised form, their normalised stem, and fuzzily."""

    def __init__(self, rows: Iterable[tuple[str, Sentence]]) -> None:
        entries: dict[tuple[str, ...], FormEntry] = {}
        for corpus, s in rows:
            for i, t in enumerate(s.tokens):
                if t.pos == "punc":
                    continue
                # One entry per form and dialect lemma: the same word in more sentences adds references, not
                # near-duplicate matches (homographs with other lemmas stay apart).
                key = (t.token, t.dialect_lemma)
                entry = entries.get(key)
                if entry is None:
                    entry = entries[key] = FormEntry(t.token, t)
                if len(entry.refs) < MAX_REFS:
                    entry.refs.append({"sentence_id": s.sentence_id, "token_index": i, "corpus": corpus})
        self.entries = list(entries.values())
        self.by_raw: dict[str, list[int]] = defaultdict(list)
        self.by_norm: dict[str, list[int]] = defaultdict(list)
        self.by_stem: dict[str, list[int]] = defaultdict(list)
        keys: list[str] = []
        for i, e in enumerate(self.entries):
            self.by_raw[e.form].append(i)
            norm = match_form(e.form)
            keys.append(norm)
            for variant in {norm, match_form(e.token.coda)}:
                self.by_norm[variant].append(i)
            stem = match_form(e.token.stem)
            if len(stem) >= MIN_STEM:
                self.by_stem[stem].append(i)
        self.keys = keys
        self.lexicon = Lexicon(keys)

    def _match(self, i: int, match_type: str, score: float) -> dict[str, Any]:
        e = self.entries[i]
        t = e.token
        return {
            "form": e.form,
            "coda": t.coda,
            "msa_lemma": t.msa_lemma,
            "dialect_lemma": t.dialect_lemma,
            "gloss": t.gloss,
            "pos": t.pos,
            "score": score,
            "match_type": match_type,
            "refs": e.refs,
        }

    def matches(
        self, raw: str, norm: str, fuzzy_hits: list[tuple[int, float]], top_k: int, threshold: float
    ) -> list[dict[str, Any]]:
        found: dict[int, tuple[str, float]] = {}

        def offer(i: int, match_type: str, score: float) -> None:
            if score < threshold:
                return
            old = found.get(i)
            if old is None or (score, -_TYPE_RANK[match_type]) > (old[1], -_TYPE_RANK[old[0]]):
                found[i] = (match_type, score)

        for i in self.by_raw.get(raw, ()):
            offer(i, "exact", 1.0)
        for i in self.by_norm.get(norm, ()):
            offer(i, "normalized", 1.0)
        if len(found) < top_k:
            for stem in strip_clitics(norm):
                for i in itertools.chain(self.by_norm.get(stem, ()), self.by_stem.get(stem, ())):
                    offer(i, "clitic", CLITIC_SCORE)
        similarity = dict(fuzzy_hits)
        for i, score in fuzzy_hits:
            offer(i, "fuzzy", score)
        ranked = sorted(
            found.items(), key=lambda kv: (-kv[1][1], _TYPE_RANK[kv[1][0]], -similarity.get(kv[0], 0.0), kv[0])
        )
        return [self._match(i, match_type, score) for i, (match_type, score) in ranked[:top_k]]
