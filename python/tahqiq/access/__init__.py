"""Area A, agent access: credentials, identity tokens, role-gated queues and idempotent submissions.

Nothing here knows HTTP: `app.py` parses requests, calls `AccessService` and renders what it returns or raises.
"""
