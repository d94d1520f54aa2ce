"""What both stores share: fixed-window arithmetic, JSON text, row decoding."""

from __future__ import annotations

import json
import math
import re
from typing import Any, cast

try:
    import orjson
except ImportError:  # pragma: no cover - orjson is the service's dependency; the store works without it
    orjson = None  # type: ignore[assignment]

from tahqiq.store.protocol import (
    Agent,
    AgentStatus,
    App,
    Artifact,
    Claim,
    ClaimStatus,
    RateDecision,
    RateLimit,
    SigningKey,
    Submission,
    SubmissionStatus,
)

_LONG_DIGITS = re.compile(r"\d{20}")
INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1

AGENT_COLUMNS = "agent_id, name, role_id, status, key_prefix, created_at"
APP_COLUMNS = "app_id, name, key_prefix, created_at"
KEY_COLUMNS = "kid, public_key, private_key_enc, created_at, retired_at"
CLAIM_COLUMNS = "claim_id, text, status, created_at"
SUBMISSION_COLUMNS = "submission_id, agent_id, role_id, work_type, payload, status, reason, created_at, processed_at"
ARTIFACT_COLUMNS = "artifact_id, claim_id, role_id, agent_id, submission_id, work_type, content, created_at"


def fits_int64(value: int) -> bool:
    """Claim ids from requests are arbitrary integers; the databases hold 64-bit ones."""
    return INT64_MIN <= value <= INT64_MAX


def window(rate: RateLimit, now: float) -> tuple[int, float]:
    """The fixed window `now` falls in: (window_start, window end)."""
    if rate.window_s <= 0 or rate.limit < 0:
        raise ValueError(f"invalid rate limit {rate}")
    start = math.floor(now / rate.window_s) * rate.window_s
    return start, float(start + rate.window_s)


def counted(rate: RateLimit, count: int, ends_at: float, now: float) -> RateDecision:
    """The decision after counting this request as number `count` of the window."""
    return RateDecision(count <= rate.limit, rate.limit, max(0, rate.limit - count), ends_at - now)


def peeked(rate: RateLimit, count: int, ends_at: float, now: float) -> RateDecision:
    """The window's state with `count` requests in it, nothing counted."""
    return RateDecision(count < rate.limit, rate.limit, max(0, rate.limit - count), ends_at - now)


def dumps(document: dict[str, Any]) -> str:
    if orjson is not None:
        try:
            return orjson.dumps(document).decode()
        except TypeError:  # integers beyond 64 bits, which orjson refuses and JSON allows
            pass
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def loads(text: str) -> dict[str, Any]:
    # orjson would turn integers beyond 64 bits into floats: such documents go to the json module.
    if orjson is None or _LONG_DIGITS.search(text) is not None:
        return cast(dict[str, Any], json.loads(text))
    return cast(dict[str, Any], orjson.loads(text))


def agent(row: Any) -> Agent:
    return Agent(row[0], row[1], row[2], cast(AgentStatus, row[3]), row[4], row[5])


def app(row: Any) -> App:
    return App(row[0], row[1], row[2], row[3])


def signing_key(row: Any) -> SigningKey:
    return SigningKey(row[0], bytes(row[1]), bytes(row[2]), row[3], row[4])


def claim(row: Any) -> Claim:
    return Claim(row[0], row[1], cast(ClaimStatus, row[2]), row[3])


def submission(row: Any) -> Submission:
    return Submission(
        row[0], row[1], row[2], row[3], loads(row[4]), cast(SubmissionStatus, row[5]), row[6], row[7], row[8]
    )


def artifact(row: Any) -> Artifact:
    return Artifact(row[0], row[1], row[2], row[3], row[4], row[5], loads(row[6]), row[7])
