"""`Analyzer`: the analysis operations as a Python library, for researchers and benchmark runners.

Each method builds the request parameters its HTTP route would read and runs the same function the server's
analysis workers run (`tahqiq.analysis.runner.perform`), so it returns exactly the JSON object the route answers for
the same input (links aside: they start with ``base_url``). Bad input raises `AnalysisError`, which carries the
problem document the route would answer.

The language data loads on the first call, once per process for each (cache folder, corpus folder, text limit):
several analyzers made with the same arguments share it. Calls are serialised by a lock, so one analyzer may be
shared between threads; for parallel work use processes (`tahqiq analyze --jobs N`), since the analysis is
CPU-bound Python.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, Literal, cast

import orjson

from tahqiq.analysis.answers import GlossaryAnswer, LookupAnswer, MorphAnswer, NerAnswer, RelationsAnswer, WsdAnswer
from tahqiq.analysis.params import OPERATION_FIELDS, Params
from tahqiq.analysis.runner import AnalysisCall, AnalysisConfig, Operation, perform
from tahqiq.analysis.service import AnalysisService
from tahqiq.problems import Problem

DEFAULT_MAX_CHARS = 10_000  # as the server's TAHQIQ_ANALYSIS_MAX_CHARS


def default_cache_dir() -> Path:
    """Where compiled language data goes when no cache folder is named: ``~/.cache/tahqiq``."""
    return Path.home() / ".cache" / "tahqiq"


class AnalysisError(ValueError):
    """An operation refused its input: what the HTTP route answers as a problem document. ``status`` (422 for a
    bad parameter, 404 when nothing matches), ``type`` (the problem slug), ``detail``, ``errors`` (each parameter's
    messages) and ``extra`` (for example the lookup's ``suggestion``)."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.detail)
        self.type = problem.type.slug
        self.status = problem.status
        self.title = problem.type.title
        self.detail = problem.detail
        self.errors = dict(problem.errors or {})
        self.extra = dict(problem.extra or {})


_loaded: dict[AnalysisConfig, tuple[AnalysisService, threading.Lock]] = {}
_loading = threading.Lock()


def loaded(config: AnalysisConfig) -> tuple[AnalysisService, threading.Lock]:
    """The service for `config`, loaded on first use and then shared in this process, with the lock its callers
    take turns under."""
    found = _loaded.get(config)
    if found is None:
        with _loading:
            found = _loaded.get(config)
            if found is None:
                service = config.build()
                service.prepare()
                found = _loaded[config] = (service, threading.Lock())
    return found


class Analyzer:
    """Arabic text analysis in this process. ``cache_dir``: the compiled language data (default
    `default_cache_dir()`); ``data_dir``: a folder of corpora imported by ``tahqiq corpus import`` (default: only
    the corpus shipped in the package); ``max_chars``: the longest text accepted; ``base_url``: the start of the
    lemma and sense links in answers (the server's own address in its answers)."""

    def __init__(
        self,
        *,
        cache_dir: str | Path | None = None,
        data_dir: str | Path | None = None,
        max_chars: int = DEFAULT_MAX_CHARS,
        base_url: str = "",
    ) -> None:
        self.config = AnalysisConfig(
            data_dir=str(data_dir) if data_dir is not None else "",
            cache_dir=str(cache_dir if cache_dir is not None else default_cache_dir()),
            max_chars=max_chars,
        )
        self.base_url = base_url.rstrip("/")

    def load(self) -> None:
        """Loads the language data now rather than at the first call (the first load on a machine builds it)."""
        self._service()

    def _service(self) -> tuple[AnalysisService, threading.Lock]:
        return loaded(self.config)

    def _run(self, operation: Operation, allowed: frozenset[str], key: str = "", **params: Any) -> Any:
        service, lock = self._service()
        call = AnalysisCall(operation, Params(params, False, set(allowed)), self.base_url, key)
        with lock:
            try:
                answer = perform(service, call)
            except Problem as problem:
                raise AnalysisError(problem) from None
        return orjson.loads(answer)

    def ner(self, text: str, mode: Literal["nested", "flat"] = "nested", include_offsets: bool = False) -> NerAnswer:
        """Named entities as BIO tags per token (``/ner``)."""
        answer = self._run("ner", OPERATION_FIELDS["ner"], text=text, mode=mode, include_offsets=include_offsets)
        return cast(NerAnswer, answer)

    def relations(self, text: str) -> RelationsAnswer:
        """Relations between the entities of the text (``/re``)."""
        return cast(RelationsAnswer, self._run("re", OPERATION_FIELDS["re"], text=text))

    def morph(
        self,
        text: str,
        task: Literal["full", "lemmatization", "pos", "root"] = "full",
        flag: Literal["1", "*"] = "1",
        include_lemma: bool = False,
    ) -> MorphAnswer:
        """Each word's analysis chosen in context, or all of them with ``flag="*"`` (``/morph``)."""
        answer = self._run(
            "morph", OPERATION_FIELDS["morph"], text=text, task=task, flag=flag, include_lemma=include_lemma
        )
        return cast(MorphAnswer, answer)

    def wsd(self, text: str, include_gloss: bool = False) -> WsdAnswer:
        """Each word's sense in context (``/wsd``)."""
        return cast(WsdAnswer, self._run("wsd", OPERATION_FIELDS["wsd"], text=text, include_gloss=include_gloss))

    def glossary(
        self,
        text: str,
        dialect: str | None = None,
        top_k: int = 3,
        threshold: float = 0.65,
        include_offsets: bool = False,
    ) -> GlossaryAnswer:
        """Dialect glosses for each token, from one corpus (``dialect``: its name) or all (``/dialect/corpus/
        glossary``)."""
        answer = self._run(
            "glossary",
            OPERATION_FIELDS["glossary"],
            text=text,
            source=dialect,
            top_k=top_k,
            similarity_threshold=threshold,
            include_offsets=include_offsets,
        )
        return cast(GlossaryAnswer, answer)

    def lookup(
        self,
        sentence_id: int | None = None,
        text: str | None = None,
        *,
        dialect: str | None = None,
        threshold: float = 0.65,
    ) -> LookupAnswer:
        """An annotated dialect sentence by id or text (``POST /dialect/corpus``); raises `AnalysisError` with
        status 404 and the closest sentence in ``extra["suggestion"]`` when none is close enough."""
        answer = self._run(
            "lookup",
            OPERATION_FIELDS["lookup"],
            sentence_id=sentence_id,
            text=text,
            source=dialect,
            similarity_threshold=threshold,
        )
        return cast(LookupAnswer, answer)

    def lemma(self, lemma_id: str) -> dict[str, Any]:
        """A lemma's entry by the id a `morph` answer gives (``/lexicon/lemmas/{lemma_id}``)."""
        return cast(dict[str, Any], self._run("lemma", frozenset(), lemma_id))

    def sense(self, sense_id: str) -> dict[str, Any]:
        """A sense's entry by the id a `wsd` answer gives (``/lexicon/senses/{sense_id}``)."""
        return cast(dict[str, Any], self._run("sense", frozenset(), sense_id))
