"""RFC 9457 problem documents: the one way every tahqiq error is described.

Domain code raises `Problem(slug, detail, ...)`; `app.py` renders it as `application/problem+json` with
`type` = `{problem_base}/{slug}`, `title`, `status`, `detail`, `instance` (the request path) and, where they
apply, `error_code` (Areas A and C; summarization's documents leave it out), `errors` (validation: field ->
messages) and extra members. Each type has a short page at `/problems/{slug}`.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Any

import orjson


@dataclass(frozen=True, slots=True)
class ProblemType:
    slug: str
    title: str
    status: int
    error_code: str
    description: str


PROBLEM_TYPES: dict[str, ProblemType] = {
    t.slug: t
    for t in (
        ProblemType(
            "validation-error",
            "Validation Error",
            422,
            "VALIDATION_ERROR",
            "A parameter, header or field has a missing or invalid value. `errors` maps each field to what is "
            "wrong with it; fix those and send the request again.",
        ),
        ProblemType(
            "invalid-submission",
            "Invalid Submission",
            400,
            "INVALID_SUBMISSION",
            "The submission payload is not valid: it is not a JSON object, a required field is missing, or a "
            "result item does not have the shape its role needs. Nothing was stored; correct the body and "
            "retry with the same Idempotency-Key.",
        ),
        ProblemType(
            "bad-request",
            "Bad Request",
            400,
            "BAD_REQUEST",
            "The parameters contradict each other (for example a sentence_id and a text that name different "
            "sentences). Give one of them, or both naming the same thing.",
        ),
        ProblemType(
            "unauthorized",
            "Unauthorized",
            401,
            "UNAUTHORIZED",
            "The credential is missing or not valid. For minting send `Authorization: Bearer <agent API key>`; "
            "for verification send `X-Service-App-Key`.",
        ),
        ProblemType(
            "auth-invalid",
            "Identity Token Invalid",
            401,
            "AUTH_INVALID",
            "The identity token in `X-Service-Agent-Identity` is missing, invalid, expired or revoked, or was "
            "not minted for this platform. Mint a new one and retry.",
        ),
        ProblemType(
            "forbidden",
            "Forbidden",
            403,
            "FORBIDDEN",
            "The agent's role does not allow this queue, artifact read or submission.",
        ),
        ProblemType(
            "not-found",
            "Not Found",
            404,
            "NOT_FOUND",
            "There is no such resource: check the path (role names, claim and submission ids).",
        ),
        ProblemType(
            "no-match",
            "No Match",
            404,
            "NO_MATCH",
            "Nothing in the corpus is close enough to what was asked. `suggestion` holds the closest sentence "
            "(its sentence_id, text and score) when there is one; lower similarity_threshold or use it.",
        ),
        ProblemType(
            "method-not-allowed",
            "Method Not Allowed",
            405,
            "METHOD_NOT_ALLOWED",
            "The resource exists but does not answer this HTTP method; see the `Allow` header.",
        ),
        ProblemType(
            "request-timeout",
            "Request Timeout",
            408,
            "REQUEST_TIMEOUT",
            "The request body did not arrive in full within the time the service allows (TAHQIQ_BODY_TIMEOUT_S, "
            "counted from when the service began reading it). Nothing was done with it, and the service closed "
            "the connection: send the whole request again on a new connection.",
        ),
        ProblemType(
            "idempotency-in-flight",
            "Request In Progress",
            409,
            "IDEMPOTENCY_IN_FLIGHT",
            "Another request with this Idempotency-Key is still being processed. Retry after `Retry-After` "
            "seconds to receive its answer.",
        ),
        ProblemType(
            "idempotency-key-reused",
            "Idempotency Key Reused",
            422,
            "IDEMPOTENCY_KEY_REUSED",
            "This Idempotency-Key was already used for a different request (another path or body). Use a new "
            "key for new work.",
        ),
        ProblemType(
            "payload-too-large",
            "Payload Too Large",
            413,
            "PAYLOAD_TOO_LARGE",
            "The request body is larger than the service accepts (TAHQIQ_MAX_BODY_BYTES).",
        ),
        ProblemType(
            "rate-limit-exceeded",
            "Rate Limit Exceeded",
            429,
            "RATE_LIMITED",
            "Too many requests (or too many failed credential attempts) in the current window. Wait for "
            "`Retry-After` seconds.",
        ),
        ProblemType(
            "internal-error",
            "Internal Server Error",
            500,
            "INTERNAL_ERROR",
            "The service failed unexpectedly. Nothing partial was stored; retrying with the same "
            "Idempotency-Key is safe.",
        ),
        ProblemType(
            "service-unavailable",
            "Service Unavailable",
            503,
            "SERVICE_UNAVAILABLE",
            "A backend the service depends on is unavailable. Retry after `Retry-After` seconds.",
        ),
    )
}


class Problem(Exception):
    """An error answer. `slug` picks the type; `status` overrides the type's status when given."""

    def __init__(
        self,
        slug: str,
        detail: str,
        *,
        errors: dict[str, list[str]] | None = None,
        headers: dict[str, str] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(detail)
        self.type = PROBLEM_TYPES[slug]
        self.detail = detail
        self.errors = errors
        self.headers = headers or {}
        self.extra = extra or {}

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled with its members: the analysis worker processes raise problems that the server renders."""
        kwargs = {"errors": self.errors, "headers": self.headers, "extra": self.extra}
        return (_problem, (self.type.slug, self.detail, kwargs))

    @property
    def status(self) -> int:
        return self.type.status

    def body(self, instance: str, base: str, *, error_code: bool = True, request_id: str | None = None) -> bytes:
        """The document; `error_code=False` leaves that member out (Area B's documents do not carry it);
        `request_id` is the request's (the same as its X-Request-ID answer header and its log lines)."""
        doc: dict[str, Any] = {
            "type": f"{base}/{self.type.slug}",
            "title": self.type.title,
            "status": self.type.status,
            "detail": self.detail,
            "instance": instance,
        }
        if error_code:
            doc["error_code"] = self.type.error_code
        if self.errors is not None:
            doc["errors"] = self.errors
        if request_id is not None:
            doc["request_id"] = request_id
        doc.update(self.extra)
        return orjson.dumps(doc)


def _problem(slug: str, detail: str, kwargs: dict[str, Any]) -> Problem:
    return Problem(slug, detail, **kwargs)


def validation_error(field: str, message: str) -> Problem:
    """A 422 about one field, the common case."""
    return Problem("validation-error", f"{field}: {message}", errors={field: [message]})


def problem_page(slug: str) -> str | None:
    """The short human-readable page of a problem type, or None when there is no such type."""
    t = PROBLEM_TYPES.get(slug)
    if t is None:
        return None
    return (
        "<!doctype html><html lang=en><meta charset=utf-8>"
        f"<title>{escape(t.title)}</title>"
        f"<h1>{escape(t.title)}</h1>"
        f"<p>HTTP status {t.status}; <code>error_code</code> {escape(t.error_code)}.</p>"
        f"<p>{escape(t.description)}</p></html>"
    )
