"""Area B: summarization (POST /api/ai/summarize).

- `service`: admission (per-client rate limit counted in the store), request validation, routing between the
  gateway, the provider and the in-process summarizer, and the answer document.
- `upstream`: the pooled chat-completions client (time-outs, one bounded retry honouring Retry-After).
- `breaker`: a circuit breaker per upstream.
- `answer`: the prompt, and the check of an upstream's answer (non-empty, right format, right language).
- `extractive`: the in-process extractive summarizer (Arabic and English), the embedded default route.

Nothing here knows about HTTP frameworks; app.py mounts the route when the "summarize" area is served.
"""
