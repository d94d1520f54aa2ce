"""Area B: summarization (the in-process extractive summarizer lives in :mod:`tahqiq.summarize.extractive`)."""
