"""Area A, agent access: keys, tokens, ids, submissions, idempotency, rate limits, shared reads, attacks and bad input
on a live server, the OpenAPI description (schemathesis.toml here is read by test_openapi_live.py)."""
