"""The operations of Area C, from request parameters (`tahqiq.analysis.params.Params`) to answers or `Problem`s."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tahqiq.analysis.compiled import SHIPPED_DIR, CompiledData
from tahqiq.analysis.corpus.dialect import ConflictingParameters, DialectIndex, NoMatch, sentence_json
from tahqiq.analysis.corpus.schema import token_dict
from tahqiq.analysis.morphology import Morphology, MorphologyError
from tahqiq.analysis.ner import Recognizer
from tahqiq.analysis.params import Params
from tahqiq.analysis.relations import RelationExtractor
from tahqiq.analysis.wsd import Disambiguator, SenseInventory
from tahqiq.problems import Problem


class AnalysisService:
    """Dialect lookup and glossary are ready at once; the models that load from installed packages (morphology,
    the entity recognizer, the sense inventory) are prepared by `prepare()`, which the app runs in a thread."""

    def __init__(
        self,
        dialects: DialectIndex,
        cache_dir: str,
        max_chars: int,
        *,
        shipped_dir: Path | None = SHIPPED_DIR,
        build_processes: int = 1,
    ) -> None:
        self.dialects = dialects
        self.max_chars = max_chars
        self.compiled = CompiledData(Path(cache_dir), shipped_dir)
        self.morphology = Morphology(
            cache_dir, max_chars=max_chars, shipped_dir=shipped_dir, build_processes=build_processes
        )
        self.senses = SenseInventory(cache_dir, shipped_dir=shipped_dir)
        self.disambiguator = Disambiguator(self.senses, self.morphology)
        self.relations = RelationExtractor()
        self._recognizer: Recognizer | None = None

    def prepare(self) -> None:
        """Loads (where the wheel's copy does not match: builds) the compiled morphology table and sense index, the
        gazetteers, and the morphological analyser's own tables."""
        self.morphology.load()
        self.morphology.load_analyser()
        self.senses.load()
        self.disambiguator.example_contexts()  # the sense-tagged examples, lemmatised once (then from the cache)
        self._recognizer = Recognizer(context=self.morphology.words_in_context, compiled=self.compiled)

    @property
    def recognizer(self) -> Recognizer:
        if self._recognizer is None:
            raise RuntimeError("AnalysisService.prepare() has not run")
        return self._recognizer

    def sizes(self) -> dict[str, Any]:
        sizes: dict[str, Any] = {"corpora": self.dialects.sizes(), "morphology": self.morphology.sizes()}
        if self._recognizer is not None:
            sizes["ner"] = self._recognizer.sizes()
            sizes["senses"] = self.senses.sizes()
        return sizes

    def _read(self, operation: str, params: Params) -> dict[str, Any]:
        return params.read(operation, max_chars=self.max_chars, more_choices=tuple(self.dialects.names()))

    def lookup(self, params: Params, *, fallbacks: bool) -> dict[str, Any]:
        values = self._read("lookup", params)
        sentence_id, text, source, threshold = (
            values["sentence_id"],
            values["text"],
            values["source"],
            values["similarity_threshold"],
        )
        params.done()
        try:
            found = self.dialects.lookup(
                sentence_id=sentence_id, text=text, source=source, threshold=threshold, fallbacks=fallbacks
            )
        except ConflictingParameters as exc:
            raise Problem("bad-request", str(exc)) from None
        except NoMatch as exc:
            suggestion = None
            if exc.suggestion is not None:
                s = exc.suggestion
                suggestion = {
                    "sentence_id": s.sentence.sentence_id,
                    "text": s.sentence.text,
                    "score": s.score,
                    "corpus": s.corpus,
                }
            raise Problem("no-match", str(exc), extra={"suggestion": suggestion}) from None
        return {
            "match_type": found.match_type,
            "match_score": found.match_score,
            "sentence": sentence_json(found.sentence, found.corpus),
            "tokens": [token_dict(t) for t in found.sentence.tokens],
        }

    def glossary(self, params: Params) -> dict[str, Any]:
        values = self._read("glossary", params)
        params.done()
        tokens = self.dialects.glossary_json(
            values["text"],
            top_k=values["top_k"],
            threshold=values["similarity_threshold"],
            include_offsets=values["include_offsets"],
            source=values["source"],
        )
        return {"tokens": tokens}

    def morph(self, params: Params, lemma_url: Callable[[str], str]) -> dict[str, Any]:
        """Per word: lemma, lemma_id, root, pos, frequency (or the subset the task asks for). Blocking: the
        analyser may run for words the compiled table lacks, so the app calls this in a worker thread."""
        values = self._read("morph", params)
        params.done()
        task, flag = values["task"], values["flag"]
        try:
            tokens = self.morphology.analyze(
                values["text"], task=task, flag=flag, include_lemma=values["include_lemma"], lemma_url=lemma_url
            )
        except MorphologyError as exc:
            field = exc.field or "text"
            raise Problem("validation-error", f"{field}: {exc}", errors={field: [str(exc)]}) from None
        return {"task": task, "flag": flag, "language": "MSA", "tokens": tokens}

    def lemma(self, lemma_id: str) -> dict[str, Any]:
        entry = self.morphology.lemma(lemma_id)
        if entry is None:
            raise Problem("not-found", f"no lemma has lemma_id {lemma_id!r} (ids come from /morph answers)")
        return entry

    def ner(self, params: Params) -> dict[str, Any]:
        values = self._read("ner", params)
        params.done()
        flat = values["mode"] == "flat"
        return self.recognizer.tag(
            values["text"], mode="flat" if flat else "nested", include_offsets=values["include_offsets"]
        )

    def wsd(self, params: Params, sense_url: Callable[[str], str]) -> dict[str, Any]:
        """Blocking (lemmatisation may run the analyser): the app calls it in a worker thread."""
        values = self._read("wsd", params)
        params.done()
        text, include_gloss = values["text"], values["include_gloss"]
        entities = self.recognizer.recognize(text)
        tokens = self.disambiguator.disambiguate(
            text, include_gloss=include_gloss, sense_url=sense_url, entities=entities
        )
        return {"tokens": tokens}

    def re(self, params: Params) -> dict[str, Any]:
        text = self._read("re", params)["text"]
        params.done()
        return {"relations": self.relations.extract(text, self.recognizer.recognize(text))}

    def sense(self, sense_id: str) -> dict[str, Any]:
        entry = self.disambiguator.sense(sense_id)
        if entry is None:
            raise Problem("not-found", f"no sense has sense_id {sense_id!r} (ids come from /wsd answers)")
        return entry
