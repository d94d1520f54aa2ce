"""The analysis runner a server worker uses, from its settings (imports no model and no BlackSheep)."""

from __future__ import annotations

from tahqiq.analysis.runner import AnalysisConfig, AnalysisRunner
from tahqiq.config import Settings


def analysis_runner(settings: Settings) -> AnalysisRunner | None:
    """The analysis runner the settings ask for (None when the analysis area is off)."""
    if "analysis" not in settings.areas:
        return None
    config = AnalysisConfig(settings.data_dir, settings.cache_dir, settings.analysis_max_chars)
    return AnalysisRunner(config, settings.analysis_processes, settings.analysis_queue)
