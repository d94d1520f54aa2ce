"""Area B, summaries: the extractive summarizer and its training, the upstreams' HTTP/1.1 client, the breaker and
limits, `POST /api/ai/summarize` over real sockets."""
