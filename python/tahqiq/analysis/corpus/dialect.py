"""Dialect sentence lookup and the dialect glossary, over the shipped corpus and imported ones.

Everything is compared in one normalised form: `tahqiq.core.normalize` with diacritics, tatweel, alef, ya,
ta marbuta and digits folded (`tahqiq.arabic.keys.key`). Fuzzy matching is `tahqiq.core.Lexicon` (exactly
`rapidfuzz.fuzz.ratio / 100` on those normalised strings).

Lookup (`DialectIndex.lookup`) tries, in order: the sentence id; the exact normalised text; a substring of a
normalised sentence (score: the share of the sentence the query covers); a fuzzy match of the whole sentence.
POST-style lookups stop after the exact text.

Glossary (`DialectIndex.glossary`) maps each word of a text to corpus forms, trying: the form as written
(`exact`, score 1), the normalised form (`normalized`, score 1), the form with dialect clitics stripped on
either side equal to a corpus form or to a corpus token's stem (`clitic`, score 0.95), and fuzzy matching
(`fuzzy`, the Lexicon score). Each match carries the corpus annotation and references to its rows. The
matching runs in one native call per text (`tahqiq.core.GlossaryIndex`; the clitic rules and the tie-breaks are
in rust/src/glossary.rs): `glossary` turns its form indexes into the annotated objects, `glossary_json` (the
HTTP route's) has the native call write the JSON around match objects serialised once here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import orjson

from tahqiq.analysis.corpus.schema import CorpusToken, Sentence, sentence_fields
from tahqiq.analysis.params import ALL_CORPORA
from tahqiq.arabic import keys
from tahqiq.core import GlossaryIndex, GlossaryWord, Lexicon

SHIPPED = "tahqiq"
ALL = ALL_CORPORA
MAX_REFS = 5
MATCH_TYPES = GlossaryIndex.MATCH_TYPES  # by the codes of GlossaryIndex.lookup


def sentence_json(s: Sentence, corpus: str) -> dict[str, Any]:
    return {**sentence_fields(s), "corpus": corpus}


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
        self.normalized = [keys.key(s.text) for s in sentences]
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
        key = keys.key(text.strip())
        if by_id is not None:
            if keys.key(by_id.sentence.text) != key:
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
        return index.assemble(index.native.lookup(text, top_k, threshold), include_offsets)

    def glossary_json(
        self,
        text: str,
        *,
        top_k: int = 3,
        threshold: float = 0.65,
        include_offsets: bool = False,
        source: str = ALL,
    ) -> orjson.Fragment:
        """`glossary` as its JSON array, written by the native call around pre-serialised match objects (what
        the HTTP route sends)."""
        native = self.glossary_index(source).native
        return orjson.Fragment(native.lookup_json(text, top_k, threshold, include_offsets))


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
        # The annotation part of each form's match object, built once; a match adds score, type and refs.
        self._annotations = [
            {
                "form": e.form,
                "coda": e.token.coda,
                "msa_lemma": e.token.msa_lemma,
                "dialect_lemma": e.token.dialect_lemma,
                "gloss": e.token.gloss,
                "pos": e.token.pos,
            }
            for e in self.entries
        ]
        self._refs = [e.refs for e in self.entries]
        self.native = GlossaryIndex(
            [e.form for e in self.entries],
            [e.token.coda for e in self.entries],
            [e.token.stem for e in self.entries],
            # The same objects pre-serialised, for the JSON the native call writes around score and type.
            heads=[orjson.dumps(a)[:-1] + b',"score":' for a in self._annotations],
            refs=[orjson.dumps(r) for r in self._refs],
        )
        self.keys: list[str] = self.native.keys
        self.lexicon: Lexicon = self.native.lexicon

    def assemble(self, words: list[GlossaryWord], include_offsets: bool) -> list[dict[str, Any]]:
        """The answer's `tokens` from `GlossaryIndex.lookup` rows (or rows of the same shape)."""
        annotations, refs = self._annotations, self._refs
        out = []
        for start, end, token, normalized, found in words:
            row: dict[str, Any] = {"token": token, "normalized": normalized}
            if include_offsets:
                row["start"], row["end"] = start, end
            row["matches"] = [
                {**annotations[i], "score": score, "match_type": MATCH_TYPES[code], "refs": refs[i]}
                for i, code, score in found
            ]
            out.append(row)
        return out
