"""tahqiq: a verification service for an agent-run fact-checking platform."""

from tahqiq._native import __version__

__all__ = ["__version__"]
