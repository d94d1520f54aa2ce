"""Rate-limit answer headers, shared by every area that limits requests (submissions, summarization).

The counting itself lives in the store (`Store.hit_rate`), so that limits hold across processes.
"""

from __future__ import annotations

import math

from tahqiq.store.protocol import RateDecision


def rate_headers(decision: RateDecision, window_s: int) -> dict[str, str]:
    """`X-RateLimit-*` and the IETF `RateLimit-Policy`/`RateLimit` fields; `Retry-After` when refused."""
    reset = max(1, math.ceil(decision.reset_s))
    headers = {
        "X-RateLimit-Limit": str(decision.limit),
        "X-RateLimit-Remaining": str(decision.remaining),
        "RateLimit-Policy": f'"default";q={decision.limit};w={window_s}',
        "RateLimit": f'"default";r={decision.remaining};t={reset}',
    }
    if not decision.allowed:
        headers["Retry-After"] = str(reset)
    return headers
