"""The operations of Area A, from parsed request parts to a reply or a `Problem`.

Order of checks on work endpoints: the method the path takes (app, 405: `submission_path_methods`) -> body size
(app) -> identity token -> path -> role -> Idempotency-Key -> body (`tahqiq.json_body`, then the payload's shape)
-> in-flight key -> store (replay, key reuse, rate limit, durable accept). Answers given before the store is
reached are not remembered, so a client may correct its request and retry with the same key.
"""

from __future__ import annotations

import datetime as dt
import functools
import math
import re
from typing import Any

import orjson

from tahqiq.access import ids, keys
from tahqiq.access.coalesce import ReadCoalescer
from tahqiq.access.roles import PENDING_READERS, ROLES, result_item_errors
from tahqiq.access.tokens import InvalidToken, TokenClaims, TokenService
from tahqiq.config import Settings
from tahqiq.json_body import json_object, json_object_and_fingerprint
from tahqiq.logs import note_agent
from tahqiq.metrics import Metrics
from tahqiq.problems import Problem, validation_error
from tahqiq.ratelimit import rate_headers
from tahqiq.reply import Reply
from tahqiq.store.protocol import (
    Accepted,
    App,
    Artifact,
    Claim,
    KeyReused,
    NewSubmission,
    RateLimited,
    Replayed,
    Store,
)

ROLE_PATTERN = re.compile(r"^[a-z_]+$")
DEFAULT_TTL_S, MIN_TTL_S, MAX_TTL_S = 900, 60, 3600
DEFAULT_QUEUE_LIMIT, MAX_QUEUE_LIMIT = 50, 500
READY_QUEUE = "ready_for_verdict"  # a queue read's key names a role (its pending queue) or this, never a role
MAX_WORK_TYPE_CHARS = 200
MAX_CLAIM_ID = 2**63 - 1  # claim ids are 64-bit signed integers in both stores
_APP_CACHE_SIZE = 1024
APP_CACHE_S = 30.0
"""How long a process trusts an app key it has looked up: a key rotated or an app deleted (`tahqiq apps
rotate-key`, `tahqiq apps delete`) stops working in running servers within this many seconds."""
_BAD_API_KEY = "missing or invalid agent API key: send `Authorization: Bearer svc_agent_...`"
_BAD_APP_KEY = "missing or invalid application key: send `X-Service-App-Key: svc_app_...`"


def iso(ts: float) -> str:
    """RFC 3339 in UTC with a Z, the form of every date-time tahqiq writes."""
    return dt.datetime.fromtimestamp(ts, dt.UTC).isoformat().replace("+00:00", "Z")


_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.IGNORECASE)
_UUID4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$", re.IGNORECASE)


def _uuid(value: Any) -> str | None:
    """Canonical lowercase form of a UUID string, or None when `value` is not one."""
    if not isinstance(value, str) or _UUID.fullmatch(value) is None:
        return None
    return value.lower()


def _is_uuid4(value: str) -> bool:
    """The canonical 8-4-4-4-12 form of a version-4 UUID (`uuid.UUID` alone also takes hex with hyphens
    anywhere, so `----` followed by 32 hex digits passed, and two spellings named one key)."""
    return _UUID4.fullmatch(value) is not None


def submission_path_methods(segment: str) -> tuple[str, ...]:
    """The methods `submissions/{segment}` answers: POST for a role's name, GET for a submission id (a UUID), and
    both for anything else, so that a wrong name still gets its 404 or 422. The OpenAPI description gives each role
    a path of its own and the status its template; this keeps the server's 405s and `Allow` to what it says."""
    if segment in ROLES:
        return ("POST",)
    if _uuid(segment) is not None:
        return ("GET",)
    return ("GET", "POST")


def _nul_paths(value: Any, path: str) -> list[str]:
    """Where NUL characters are in a parsed JSON value: `results[0].text`, or the object whose key holds one."""
    if isinstance(value, str):
        return [path] if "\x00" in value else []
    out = []
    if isinstance(value, dict):
        for k, v in value.items():
            if "\x00" in k:
                out.append(path)
            else:
                out.extend(_nul_paths(v, f"{path}.{k}" if path else k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(_nul_paths(v, f"{path}[{i}]"))
    return out


MAX_ITEM_ERRORS = 20  # result items a 400 describes; a body of a million wrong items gets a short answer


def parse_submission(role_id: str, path: str, body: bytes) -> tuple[dict[str, Any], str]:
    """A submission's payload and its idempotency fingerprint (`path` is the request's), or a 400 that names what is
    wrong. Everything about the body is checked here but whether its claims exist (which needs the store)."""
    payload, body_fingerprint = json_object_and_fingerprint(body, f"POST {path}", "invalid-submission")
    errors: dict[str, list[str]] = {}
    work_type = payload.get("work_type")
    if not isinstance(work_type, str) or not work_type.strip() or len(work_type) > MAX_WORK_TYPE_CHARS:
        errors["work_type"] = [f"must be a non-empty string of at most {MAX_WORK_TYPE_CHARS} characters"]
    results = payload.get("results")
    if not isinstance(results, list) or not results:
        errors["results"] = ["must be a non-empty array of result objects"]
    else:
        wrong_items = 0
        for index, item in enumerate(results):
            messages = result_item_errors(role_id, index, item)
            wrong_items += bool(messages)
            if wrong_items > MAX_ITEM_ERRORS:
                continue  # counted, not described: the answer stays small whatever the body
            for message in messages:
                errors.setdefault(message.split(" ", 1)[0], []).append(message)
        if wrong_items > MAX_ITEM_ERRORS:
            errors["results"] = [f"{wrong_items} items are wrong; the first {MAX_ITEM_ERRORS} are described"]
    if "metadata" in payload and not isinstance(payload["metadata"], dict):
        errors["metadata"] = ["must be an object when given"]
    if not errors and b"\\u0000" in body:  # NUL can only come in escaped: raw control characters are not JSON
        for where in _nul_paths(payload, ""):
            errors.setdefault(where or "body", []).append(
                "must not contain the NUL character (U+0000), which the store cannot keep"
            )
    if errors:
        name, messages = next(iter(errors.items()))
        first = messages[0] if messages[0].startswith(name) else f"{name}: {messages[0]}"
        raise Problem(
            "invalid-submission",
            f"{first}" + (f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""),
            errors=errors,
        )
    return payload, body_fingerprint


def claim_json(c: Claim) -> dict[str, Any]:
    return {"claim_id": c.claim_id, "text": c.text, "status": c.status, "created_at": iso(c.created_at)}


def artifact_json(a: Artifact) -> dict[str, Any]:
    return {
        "artifact_id": a.artifact_id,
        "claim_id": a.claim_id,
        "role_id": a.role_id,
        "agent_id": a.agent_id,
        "submission_id": a.submission_id,
        "work_type": a.work_type,
        "content": a.content,
        "created_at": iso(a.created_at),
    }


@functools.lru_cache(maxsize=4096)
def verification_success(claims: TokenClaims) -> bytes:
    """The success body for a verified token: the same bytes for every verification of that token, made once."""
    agent = {
        "agent_id": claims.agent_id,
        "role_id": claims.role_id,
        "scopes": list(claims.scopes),
        "status": "active",
        "contract_version": claims.contract_version,
        "token_expiry": iso(claims.expires_at),
    }
    return orjson.dumps({"success": True, "valid": True, "agent": agent})


class AccessService:
    def __init__(
        self,
        settings: Settings,
        store: Store,
        tokens: TokenService,
        on_accept: Any = None,
        metrics: Metrics | None = None,
    ) -> None:
        self._settings = settings
        self._store = store
        self._tokens = tokens
        self._on_accept = on_accept or (lambda: None)
        self._metrics = metrics or Metrics()
        self._known_apps: dict[str, tuple[App, float]] = {}  # key hash -> (app, trusted until)
        self._in_flight: set[tuple[str, str]] = set()
        # Concurrent reads of one queue with one limit share a store query and its rendered answer.
        self._queue_reads: ReadCoalescer[tuple[str, int], bytes] = ReadCoalescer(self._queue_body, "tahqiq-queue-reads")

    # Credentials -------------------------------------------------------------------------------------

    async def _guard_failures(self, client: str, now: float) -> None:
        rate = self._settings.auth_failure_rate
        decision = await self._store.peek_rate(f"authfail:{client}", rate, now)
        if not decision.allowed:
            self._metrics.rate_limited.labels("auth_failures").inc()
            raise Problem(
                "rate-limit-exceeded",
                "too many failed credential attempts from this client; wait and retry",
                headers={"Retry-After": str(max(1, math.ceil(decision.reset_s)))},
            )

    async def _count_failure(self, client: str, now: float) -> None:
        await self._store.hit_rate(f"authfail:{client}", self._settings.auth_failure_rate, now)

    async def mint(self, authorization: str | None, body: bytes, client: str, now: float) -> Reply:
        """A new identity token (201), or a problem; counted by outcome (`minted`, else the problem's slug)."""
        try:
            reply = await self._mint(authorization, body, client, now)
        except Problem as problem:
            self._metrics.token_mints.labels(problem.type.slug).inc()
            raise
        self._metrics.token_mints.labels("minted").inc()
        return reply

    async def _mint(self, authorization: str | None, body: bytes, client: str, now: float) -> Reply:
        await self._guard_failures(client, now)
        scheme, _, api_key = (authorization or "").partition(" ")
        agent = None
        if scheme.lower() == "bearer" and keys.is_well_formed(api_key.strip(), keys.AGENT_KEY_PREFIX):
            agent = await self._store.agent_by_key_hash(keys.key_hash(api_key.strip()))
        if agent is None or agent.status != "active":
            await self._count_failure(client, now)
            raise Problem("unauthorized", _BAD_API_KEY)
        params = json_object(body, "validation-error", empty_ok=True)
        errors: dict[str, list[str]] = {}
        audience = self._settings.first_party_app_id
        if "audience" in params:
            audience = _uuid(params["audience"]) or ""
            if not audience:
                errors["audience"] = ["must be a UUID string, the id of the app the token is for"]
        ttl = params.get("ttl", DEFAULT_TTL_S)
        if isinstance(ttl, float) and ttl.is_integer():
            ttl = int(ttl)  # 900.0 is an integer to JSON Schema, and so to the description
        if not isinstance(ttl, int) or isinstance(ttl, bool) or not MIN_TTL_S <= ttl <= MAX_TTL_S:
            errors["ttl"] = [f"must be an integer number of seconds from {MIN_TTL_S} to {MAX_TTL_S}"]
        if errors:
            raise Problem("validation-error", "; ".join(f"{k}: {v[0]}" for k, v in errors.items()), errors=errors)
        await self._tokens.refresh_keys(now)
        note_agent(agent.agent_id)
        minted = self._tokens.mint(agent, audience, ttl, now)
        data = {
            "token": minted.token,
            "expires_at": iso(minted.expires_at),
            "jti": minted.jti,
            "agent_id": agent.agent_id,
        }
        return Reply(201, orjson.dumps({"data": data}))

    async def app_for_key(self, app_key: str | None, client: str, now: float) -> App:
        """The application whose key this is, or a 401 problem (failed attempts are counted per client)."""
        app_key = (app_key or "").strip()
        digest = keys.key_hash(app_key)
        known = self._known_apps.get(digest)
        if known is not None and known[1] > now:
            return known[0]
        await self._guard_failures(client, now)
        app = None
        if keys.is_well_formed(app_key, keys.APP_KEY_PREFIX):
            app = await self._store.app_by_key_hash(digest)
        if app is None:
            await self._count_failure(client, now)
            raise Problem("unauthorized", _BAD_APP_KEY)
        if len(self._known_apps) >= _APP_CACHE_SIZE:
            self._known_apps.clear()
        self._known_apps[digest] = (app, now + APP_CACHE_S)
        return app

    async def verify(self, app_key: str | None, body: bytes, client: str, now: float) -> Reply:
        """The verification result (200, valid or not), or a problem; counted by outcome (`valid`, `invalid`, else
        the problem's slug)."""
        try:
            reply, valid = await self._verify(app_key, body, client, now)
        except Problem as problem:
            self._metrics.token_verifications.labels(problem.type.slug).inc()
            raise
        self._metrics.token_verifications.labels("valid" if valid else "invalid").inc()
        return reply

    async def _verify(self, app_key: str | None, body: bytes, client: str, now: float) -> tuple[Reply, bool]:
        app = await self.app_for_key(app_key, client, now)
        params = json_object(body, "validation-error")
        token = params.get("token")
        if not isinstance(token, str) or not token:
            raise validation_error("token", "is required: the identity token to verify, as a string")
        audience = None
        if "audience" in params:
            audience = _uuid(params["audience"])
            if audience is None:
                raise validation_error("audience", "must be a UUID string")
        try:
            if audience is not None and audience != app.app_id:
                raise InvalidToken("the audience asked for is not this app's id; an app verifies only its own tokens")
            claims = await self._checked_claims(token, now, app.app_id)
        except InvalidToken as exc:
            failure = {"success": False, "error_code": "AUTH_INVALID", "message": str(exc)}
            return Reply(200, orjson.dumps(failure)), False
        return Reply(200, verification_success(claims)), True

    async def _checked_claims(self, token: str, now: float, audience: str) -> TokenClaims:
        """Signature and times (cached per token), then audience, revocation and agent status (asked of the
        store every time; the store may cache, but drops its answers whenever either changes)."""
        claims = await self._tokens.verify(token, now)
        if claims.audience != audience:
            raise InvalidToken("the token was minted for another audience; mint one for this app")
        status, revoked = await self._store.auth_state(claims.agent_id, claims.jti)
        if revoked:
            raise InvalidToken("the token has been revoked; mint a new one")
        if status != "active":
            raise InvalidToken("the agent is not active")
        return claims

    async def identify(self, token: str | None, now: float) -> TokenClaims:
        """The agent behind a work request's `X-Service-Agent-Identity`, or a 401 problem."""
        if not token:
            raise Problem("auth-invalid", "missing X-Service-Agent-Identity: send an identity token")
        try:
            claims = await self._checked_claims(token.strip(), now, self._settings.first_party_app_id)
        except InvalidToken as exc:
            raise Problem("auth-invalid", str(exc)) from None
        note_agent(claims.agent_id)
        return claims

    # Queues ------------------------------------------------------------------------------------------

    @staticmethod
    def _limit(raw: str | None) -> int:
        if raw is None:
            return DEFAULT_QUEUE_LIMIT
        if not re.fullmatch(r"[0-9]{1,4}", raw) or not 1 <= int(raw) <= MAX_QUEUE_LIMIT:
            raise validation_error("limit", f"must be an integer from 1 to {MAX_QUEUE_LIMIT}")
        return int(raw)

    async def pending(self, claims: TokenClaims, limit: str | None) -> Reply:
        if claims.role_id not in PENDING_READERS:
            raise Problem("forbidden", f"role {claims.role_id} may not read the pending queue (evidence roles only)")
        return Reply(200, await self._queue_reads.get((claims.role_id, self._limit(limit))))

    async def ready(self, claims: TokenClaims, limit: str | None) -> Reply:
        if claims.role_id != "judge":
            raise Problem("forbidden", f"role {claims.role_id} may not read the ready_for_verdict queue (judge only)")
        return Reply(200, await self._queue_reads.get((READY_QUEUE, self._limit(limit))))

    async def _queue_body(self, read: tuple[str, int]) -> bytes:
        """One queue read's answer: `queue` is READY_QUEUE or the role whose pending queue it is."""
        queue, limit = read
        if queue == READY_QUEUE:
            rows = await self._store.ready_claims(limit)
        else:
            rows = await self._store.pending_claims(queue, limit)
        return orjson.dumps({"data": [claim_json(c) for c in rows]})

    async def artifacts(self, claims: TokenClaims, claim_id: str, role_filter: str | None) -> Reply:
        if claims.role_id != "judge":
            raise Problem("forbidden", f"role {claims.role_id} may not read artifacts (judge only)")
        if not re.fullmatch(r"[0-9]{1,19}", claim_id) or not 1 <= int(claim_id) <= MAX_CLAIM_ID:
            raise validation_error("claim_id", f"must be an integer from 1 to {MAX_CLAIM_ID}")
        if role_filter is not None and role_filter not in ROLES:
            raise validation_error("role_id", f"must be one of {', '.join(ROLES)}")
        claim = await self._store.get_claim(int(claim_id))
        if claim is None:
            raise Problem("not-found", f"claim {claim_id} does not exist")
        rows = await self._store.artifacts(claim.claim_id, role_filter)
        return Reply(200, orjson.dumps({"data": [artifact_json(a) for a in rows]}))

    async def submission_status(self, claims: TokenClaims, submission_id: str) -> Reply:
        canonical = _uuid(submission_id)
        sub = await self._store.get_submission(canonical) if canonical else None
        if sub is None or sub.agent_id != claims.agent_id:
            raise Problem("not-found", f"no submission {submission_id} of this agent")
        data = {
            "submission_id": sub.submission_id,
            "role_id": sub.role_id,
            "work_type": sub.work_type,
            "status": sub.status,
            "reason": sub.reason,
            "results": len(sub.payload["results"]),
            "created_at": iso(sub.created_at),
            "processed_at": iso(sub.processed_at) if sub.processed_at is not None else None,
        }
        return Reply(200, orjson.dumps({"data": data}))

    # Submissions -------------------------------------------------------------------------------------

    async def submit(
        self, claims: TokenClaims, role_path: str, path: str, idempotency_key: str | None, body: bytes, now: float
    ) -> Reply:
        rate = self._settings.submission_rate
        try:
            return await self._submit(claims, role_path, path, idempotency_key, body, now)
        except Problem as problem:
            if problem.status != 429:  # a 429 carries its own counts
                decision = await self._store.peek_rate(f"submit:{claims.agent_id}", rate, now)
                headers = rate_headers(decision, rate.window_s)
                headers.pop("Retry-After", None)
                problem.headers = {**headers, **problem.headers}
            raise

    async def _submit(
        self, claims: TokenClaims, role_path: str, path: str, idempotency_key: str | None, body: bytes, now: float
    ) -> Reply:
        if not ROLE_PATTERN.match(role_path):
            raise validation_error("role_id", "must match ^[a-z_]+$ and name a role")
        if role_path not in ROLES:
            raise Problem("not-found", f"there is no role {role_path!r}; roles are {', '.join(ROLES)}")
        if claims.role_id != role_path:
            raise Problem(
                "forbidden",
                f"this agent's role is {claims.role_id}; it may submit only to submissions/{claims.role_id}",
            )
        if f"submissions:{role_path}" not in claims.scopes:
            raise Problem("forbidden", f"the token lacks the scope submissions:{role_path}")
        key = (idempotency_key or "").strip()
        if not _is_uuid4(key):
            raise validation_error("Idempotency-Key", "header is required and must be a UUID v4")
        payload, body_fingerprint = parse_submission(role_path, path, body)
        await self._check_claims_exist(payload["results"], role_path)
        in_flight = (claims.agent_id, key.lower())
        if in_flight in self._in_flight:
            raise Problem(
                "idempotency-in-flight",
                "a request with this Idempotency-Key is still being processed; retry shortly",
                headers={"Retry-After": "1"},
            )
        self._in_flight.add(in_flight)
        try:
            return await self._accept(claims, role_path, key.lower(), body_fingerprint, payload, now)
        finally:
            self._in_flight.discard(in_flight)

    async def _check_claims_exist(self, results: list[dict[str, Any]], role_id: str) -> None:
        if role_id == "claim_splitter":
            return
        wanted = {item["claim_id"] for item in results}
        missing = wanted - await self._store.existing_claims(wanted)
        if missing:
            errors = {
                f"results[{i}].claim_id": [f"claim {item['claim_id']} does not exist"]
                for i, item in enumerate(results)
                if item["claim_id"] in missing
            }
            name, messages = next(iter(errors.items()))
            raise Problem("invalid-submission", f"{name}: {messages[0]}", errors=errors)

    async def _accept(
        self,
        claims: TokenClaims,
        role_id: str,
        key: str,
        body_fingerprint: str,
        payload: dict[str, Any],
        now: float,
    ) -> Reply:
        rate = self._settings.submission_rate
        submission_id = ids.uuid4()
        answer = orjson.dumps(
            {
                "submission_id": submission_id,
                "status": "accepted",
                "message": f"accepted {len(payload['results'])} result(s); queued for processing",
            }
        )
        new = NewSubmission(
            submission_id=submission_id,
            agent_id=claims.agent_id,
            role_id=role_id,
            work_type=payload["work_type"],
            payload=payload,
            response_status=202,
            response_body=answer,
        )
        outcome = await self._store.accept_submission(new, key, body_fingerprint, rate, now)
        if isinstance(outcome, Accepted):
            self._on_accept()
            self._metrics.submissions.labels("accepted").inc()
            return Reply(202, answer, rate_headers(outcome.rate, rate.window_s))
        if isinstance(outcome, Replayed):
            self._metrics.submissions.labels("replayed").inc()
            decision = await self._store.peek_rate(f"submit:{claims.agent_id}", rate, now)
            headers = rate_headers(decision, rate.window_s)
            headers.pop("Retry-After", None)
            headers["Idempotent-Replayed"] = "true"
            return Reply(outcome.status, outcome.body, headers)
        if isinstance(outcome, KeyReused):
            raise Problem(
                "idempotency-key-reused",
                "this Idempotency-Key was already used with a different request; use a new key for new work",
                errors={"Idempotency-Key": ["already used with a different request body or path"]},
            )
        assert isinstance(outcome, RateLimited)
        self._metrics.rate_limited.labels("submissions").inc()
        raise Problem(
            "rate-limit-exceeded",
            f"more than {rate.limit} submissions in {rate.window_s} s; retry after the window resets",
            headers=rate_headers(outcome.rate, rate.window_s),
        )
