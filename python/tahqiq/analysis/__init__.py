"""Area C, Arabic text analysis: the dialect corpus and glossary, morphology, and the lexicon routes.

Language data loads from files (shipped in `data/`, or imported by `tahqiq corpus import`) into memory and into
`tahqiq.core.Lexicon` indexes at start-up; nothing here knows HTTP.
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tahqiq.analysis.api import AnalysisError, Analyzer

__all__ = ["AnalysisError", "Analyzer"]


def __getattr__(name: str) -> Any:
    # lazily: importing a submodule (tahqiq.analysis.ner) need not load the service and its runner
    if name in __all__:
        from tahqiq.analysis import api

        return getattr(api, name)
    raise AttributeError(f"module 'tahqiq.analysis' has no attribute {name!r}")
