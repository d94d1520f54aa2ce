"""The one interface through which tahqiq reaches its database.

Two implementations pass the same test suite (tests/store/test_store.py):
- `tahqiq.store.sqlite.SqliteStore`: the embedded default (`sqlite:///PATH`), WAL mode, safe for one process.
- `tahqiq.store.postgres.PostgresStore`: asyncpg pool (`postgresql://...`), safe for many processes on many machines.

Conventions shared by both:
- identifiers (agent_id, app_id, submission_id, jti, kid) are canonical lowercase UUID strings (kid: free text);
- times are float seconds since the epoch (UTC), passed in by the caller (`now`), so tests control the clock;
- JSON documents (submission payloads, artifact contents) are stored as UTF-8 JSON text and handed back parsed;
- secrets are stored only as SHA-256 hex digests (`key_hash`) or encrypted (`private_key_enc`).
Domain rules (who may submit what, how a claim moves on) live in `tahqiq.access`; the store offers the
transactions they need and nothing HTTP-shaped.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from tahqiq.limits import RateDecision, RateLimit

AgentStatus = Literal["active", "suspended"]
ClaimStatus = Literal["pending_evidence", "ready_for_verdict", "verdict_issued"]
SubmissionStatus = Literal["accepted", "processed", "rejected"]


@dataclass(frozen=True, slots=True)
class Agent:
    agent_id: str
    name: str
    role_id: str
    status: AgentStatus
    key_prefix: str  # the first characters of the API key, for people to recognise it; not a secret
    created_at: float


@dataclass(frozen=True, slots=True)
class App:
    app_id: str
    name: str
    key_prefix: str
    created_at: float


@dataclass(frozen=True, slots=True)
class SigningKey:
    kid: str
    public_key: bytes  # raw Ed25519 public key, 32 bytes
    private_key_enc: bytes  # the private key, encrypted by tahqiq.access.keys (never stored in plain text)
    created_at: float
    retired_at: float | None  # no longer used to sign from this time; still verifies until its tokens expire


@dataclass(frozen=True, slots=True)
class Claim:
    claim_id: int
    text: str
    status: ClaimStatus
    created_at: float


@dataclass(frozen=True, slots=True)
class Submission:
    submission_id: str
    agent_id: str
    role_id: str
    work_type: str
    payload: dict[str, Any]  # the request body as accepted: {work_type, results, metadata?}
    status: SubmissionStatus
    reason: str | None  # why it was rejected
    created_at: float
    processed_at: float | None


@dataclass(frozen=True, slots=True)
class Artifact:
    artifact_id: int
    claim_id: int
    role_id: str
    agent_id: str
    submission_id: str
    work_type: str
    content: dict[str, Any]
    created_at: float


@dataclass(frozen=True, slots=True)
class NewSubmission:
    submission_id: str
    agent_id: str
    role_id: str
    work_type: str
    payload: dict[str, Any]
    response_status: int  # the answer stored for idempotent replays
    response_body: bytes


@dataclass(frozen=True, slots=True)
class Accepted:
    """Stored: the submission, its idempotency record and one rate-limit unit, in one transaction."""

    rate: RateDecision


@dataclass(frozen=True, slots=True)
class Replayed:
    """The key was used before with the same fingerprint: the stored answer, nothing new stored or counted."""

    status: int
    body: bytes


@dataclass(frozen=True, slots=True)
class KeyReused:
    """The key was used before for a different request (another fingerprint): nothing stored."""


@dataclass(frozen=True, slots=True)
class RateLimited:
    """Over the agent's submission rate: nothing stored."""

    rate: RateDecision


AcceptOutcome = Accepted | Replayed | KeyReused | RateLimited


class AlreadyExists(Exception):
    """A unique value is taken (an agent_id, app_id, kid or key_hash already stored): nothing was written."""


class ProcessingTx(Protocol):
    """What applying one submission may read and write; all of it commits or none of it does."""

    async def claim_status(self, claim_id: int) -> ClaimStatus | None: ...

    async def insert_claim(self, text: str, now: float) -> int: ...

    async def set_claim_status(self, claim_id: int, status: ClaimStatus, now: float) -> None: ...

    async def insert_artifact(
        self, claim_id: int, submission: Submission, content: dict[str, Any], now: float
    ) -> int: ...

    async def artifact_roles(self, claim_id: int) -> set[str]:
        """The roles that have produced artifacts for the claim (including those inserted in this transaction)."""
        ...


@dataclass(frozen=True, slots=True)
class Applied:
    """Outcome of a submission handler: processed, or rejected with a reason (its writes are then discarded)."""

    rejected_reason: str | None = None


SubmissionHandler = Callable[[ProcessingTx, Submission], Awaitable[Applied]]


class Store(Protocol):
    """Everything tahqiq keeps. Each method is one transaction unless it says otherwise."""

    url_scheme: str  # "sqlite" or "postgresql", for /health and logs

    async def open(self) -> None: ...
    async def close(self) -> None: ...

    async def migrate(self) -> list[int]:
        """Applies the versioned migrations not yet applied (safe to run concurrently); returns their versions."""
        ...

    async def schema_version(self) -> int: ...

    # Agents and apps
    async def create_agent(
        self, agent_id: str, name: str, role_id: str, key_hash: str, key_prefix: str, now: float
    ) -> Agent: ...
    async def get_agent(self, agent_id: str) -> Agent | None: ...
    async def list_agents(self) -> list[Agent]: ...
    async def agent_by_key_hash(self, key_hash: str) -> Agent | None: ...
    async def set_agent_status(self, agent_id: str, status: AgentStatus, now: float) -> Agent | None: ...
    async def set_agent_key(self, agent_id: str, key_hash: str, key_prefix: str, now: float) -> Agent | None: ...
    async def create_app(self, app_id: str, name: str, key_hash: str, key_prefix: str, now: float) -> App: ...
    async def list_apps(self) -> list[App]: ...
    async def app_by_key_hash(self, key_hash: str) -> App | None: ...
    async def set_app_key(self, app_id: str, key_hash: str, key_prefix: str) -> App | None:
        """Replaces the app's key (None: no such app)."""
        ...

    async def delete_app(self, app_id: str) -> bool:
        """Removes the app; False when there was none."""
        ...

    # Signing keys and revocation
    async def add_signing_key(self, kid: str, public_key: bytes, private_key_enc: bytes, now: float) -> None:
        """Adds a key and retires (at `now`) every key that was not retired yet: the new one signs from now on."""
        ...

    async def signing_keys(self) -> list[SigningKey]:
        """All keys, newest first."""
        ...

    async def revoke_token(self, jti: str, expires_at: float) -> None: ...
    async def auth_state(self, agent_id: str, jti: str) -> tuple[AgentStatus | None, bool]:
        """The agent's status (None when unknown) and whether the token `jti` is revoked, in one read."""
        ...

    # Rate limits (fixed windows; counters shared by every process using the store)
    async def hit_rate(self, bucket: str, rate: RateLimit, now: float, units: int = 1) -> RateDecision:
        """Counts `units` requests (one unless they were gathered) in `bucket`'s current window; `allowed` is False
        once the count exceeds the limit."""
        ...

    async def peek_rate(self, bucket: str, rate: RateLimit, now: float) -> RateDecision:
        """The current window's state without counting anything (`allowed` False when the limit is used up)."""
        ...

    # Submissions
    async def accept_submission(
        self, new: NewSubmission, idempotency_key: str, fingerprint: str, rate: RateLimit, now: float
    ) -> AcceptOutcome:
        """In one transaction: replay or refuse a reused key, count one rate unit, store the submission
        (status `accepted`) and its idempotency record. Concurrent calls with one (agent, key) serialise."""
        ...

    async def get_submission(self, submission_id: str) -> Submission | None: ...
    async def existing_claims(self, claim_ids: set[int]) -> set[int]: ...

    async def process_next(self, handler: SubmissionHandler, now: float) -> Submission | None:
        """Takes the oldest `accepted` submission no other process is working on, runs `handler` on it in a
        transaction and marks it `processed` (or `rejected` with the handler's reason, discarding its writes).
        Returns the submission as it was taken, or None when the queue is empty. Each submission is applied
        exactly once, whatever the number of processes. If the handler raises, nothing is written, the
        submission stays `accepted` (it will be taken again) and the exception propagates."""
        ...

    async def process_batch(self, handler: SubmissionHandler, now: float, limit: int) -> list[Submission]:
        """`process_next` for up to `limit` of the oldest `accepted` submissions, in one transaction: each is
        handled in turn (seeing what the ones before it wrote) and marked `processed` or `rejected`, a
        rejected one's writes discarded. Returns the submissions taken, in order (empty when the queue is
        empty). If a handler raises, nothing of the batch is written, all stay `accepted` and the exception
        propagates. Batches that touch the same claims are applied one after the other, whatever the number
        of processes: the stored claims the result items name (`claim_id`) are locked before any handler runs
        (any other claim when a handler first reads it), so the handlers read them as every earlier batch left
        them and no other batch changes them before this one commits."""
        ...

    # Queues and artifacts
    async def backlog(self) -> tuple[int, float | None]:
        """How many submissions are `accepted` and not yet processed, and the oldest one's `created_at`."""
        ...

    async def pending_claims(self, role_id: str, limit: int) -> list[Claim]:
        """Claims in `pending_evidence` without an artifact of `role_id`, oldest first."""
        ...

    async def ready_claims(self, limit: int) -> list[Claim]: ...
    async def get_claim(self, claim_id: int) -> Claim | None: ...
    async def artifacts(self, claim_id: int, role_id: str | None) -> list[Artifact]: ...

    async def prune(self, now: float, idempotency_ttl_s: float) -> None:
        """Drops expired idempotency records, revocations of expired tokens and old rate windows."""
        ...
