"""The operations of Area C, from request parameters (`tahqiq.analysis.params.Params`) to answers or `Problem`s."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tahqiq.analysis.compiled import SHIPPED_DIR, CompiledData
from tahqiq.analysis.corpus.dialect import ALL, ConflictingParameters, DialectIndex, NoMatch, sentence_json
from tahqiq.analysis.corpus.schema import token_dict
from tahqiq.analysis.morphology import FLAGS, TASKS, Morphology, MorphologyError
from tahqiq.analysis.ner import Recognizer
from tahqiq.analysis.params import Params
from tahqiq.analysis.relations import RelationExtractor
from tahqiq.analysis.wsd import Disambiguator, SenseInventory
from tahqiq.problems import Problem

MAX_TOP_K = 50


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

    def _source(self, params: Params) -> str:
        return params.choice("source", ALL, (ALL, *self.dialects.names()))

    def lookup(self, params: Params, *, fallbacks: bool) -> dict[str, Any]:
        sentence_id = params.integer("sentence_id", None, 1, 2**31 - 1)
        text = params.text("text", required=False, max_chars=self.max_chars)
        threshold = params.number("similarity_threshold", 0.65, 0.0, 1.0)
        source = self._source(params)
        if not params.has("sentence_id") and not params.has("text"):
            params.error("sentence_id", "give sentence_id or text (or both, naming the same sentence)")
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
        text = params.text("text", required=True, max_chars=self.max_chars)
        top_k = params.integer("top_k", 3, 1, MAX_TOP_K)
        threshold = params.number("similarity_threshold", 0.65, 0.0, 1.0)
        include_offsets = params.boolean("include_offsets")
        source = self._source(params)
        params.done()
        assert text is not None and top_k is not None
        tokens = self.dialects.glossary_json(
            text, top_k=top_k, threshold=threshold, include_offsets=include_offsets, source=source
        )
        return {"tokens": tokens}

    def morph(self, params: Params, lemma_url: Callable[[str], str]) -> dict[str, Any]:
        """Per word: lemma, lemma_id, root, pos, frequency (or the subset the task asks for). Blocking: the
        analyser may run for words the compiled table lacks, so the app calls this in a worker thread."""
        text = params.text("text", required=True, max_chars=self.max_chars)
        task = params.choice("task", "full", TASKS)
        flag = params.raw.get("flag", "1")
        if flag == 1 and not params.is_query:
            flag = "1"  # a JSON number 1 means the same as "1"
        if params.has("flag") and flag not in FLAGS:
            params.error("flag", "must be 1 (the top analysis, chosen in context) or * (all analyses, scored)")
        if params.has("language") and params.raw["language"] != "MSA":
            params.error("language", "only MSA is supported")
        include_lemma = params.boolean("include_lemma")
        params.done()
        assert text is not None
        try:
            tokens = self.morphology.analyze(
                text, task=task, flag=str(flag), include_lemma=include_lemma, lemma_url=lemma_url
            )
        except MorphologyError as exc:
            field = exc.field or "text"
            raise Problem("validation-error", f"{field}: {exc}", errors={field: [str(exc)]}) from None
        return {"task": task, "flag": str(flag), "language": "MSA", "tokens": tokens}

    def lemma(self, lemma_id: str) -> dict[str, Any]:
        entry = self.morphology.lemma(lemma_id)
        if entry is None:
            raise Problem("not-found", f"no lemma has lemma_id {lemma_id!r} (ids come from /morph answers)")
        return entry

    def ner(self, params: Params) -> dict[str, Any]:
        text = params.text("text", required=True, max_chars=self.max_chars)
        mode = params.choice("mode", "nested", ("nested", "flat"))
        include_offsets = params.boolean("include_offsets")
        params.done()
        assert text is not None
        return self.recognizer.tag(text, mode="flat" if mode == "flat" else "nested", include_offsets=include_offsets)

    def wsd(self, params: Params, sense_url: Callable[[str], str]) -> dict[str, Any]:
        """Blocking (lemmatisation may run the analyser): the app calls it in a worker thread."""
        text = params.text("text", required=True, max_chars=self.max_chars)
        include_gloss = params.boolean("include_gloss")
        params.done()
        assert text is not None
        entities = self.recognizer.recognize(text)
        tokens = self.disambiguator.disambiguate(
            text, include_gloss=include_gloss, sense_url=sense_url, entities=entities
        )
        return {"tokens": tokens}

    def re(self, params: Params) -> dict[str, Any]:
        text = params.text("text", required=True, max_chars=self.max_chars)
        params.done()
        assert text is not None
        return {"relations": self.relations.extract(text, self.recognizer.recognize(text))}

    def sense(self, sense_id: str) -> dict[str, Any]:
        entry = self.disambiguator.sense(sense_id)
        if entry is None:
            raise Problem("not-found", f"no sense has sense_id {sense_id!r} (ids come from /wsd answers)")
        return entry
