"""The OpenAPI 3.1 description of Area A (`/agents/openapi.json`) and the discovery manifest.

Written by hand from the interface and decisions, and checked against the live service by schemathesis
(tests/access/test_openapi_live.py): every answer the service gives must be one this document describes.
"""

from __future__ import annotations

from typing import Any

from tahqiq.access.roles import ROLES
from tahqiq.openapi import (
    COMMON_ERRORS,
    DATE_TIME,
    NON_BLANK,
    RATE_HEADERS,
    RETRY_AFTER,
    UUID,
    Part,
    document,
    json_response,
    problem_response,
    ref,
)

CLAIM_ID = {
    "type": "integer",
    "minimum": 1,
    "maximum": 2**63 - 1,
    "description": "an existing claim; written as an integer (1, not 1.0: JSON Schema cannot tell them apart)",
}
# What each role's result items must hold (tahqiq.access.roles.result_item_errors); other members are kept.
# A result item's other fields are free, but a string among them holds no NUL either (the server's rule anywhere in
# the body; deeper values are left to the payload's description, which JSON Schema cannot say everywhere).
NO_NUL_STRING = {"not": {"type": "string", "pattern": "\\u0000"}}
RESULT_ITEMS: dict[str, dict[str, Any]] = {
    "claim_splitter": {
        "type": "object",
        "required": ["text"],
        "properties": {"text": {**NON_BLANK, "description": "the claim's text"}},
    },
    "evidence_seeker": {"type": "object", "required": ["claim_id"], "properties": {"claim_id": CLAIM_ID}},
    "methodology_critic": {"type": "object", "required": ["claim_id"], "properties": {"claim_id": CLAIM_ID}},
    "judge": {
        "type": "object",
        "required": ["claim_id", "verdict"],
        "properties": {"claim_id": CLAIM_ID, "verdict": NON_BLANK},
    },
}
RESULT_EXAMPLES: dict[str, dict[str, Any]] = {
    "claim_splitter": {"text": "The earth is flat", "source": "example"},
    "evidence_seeker": {"claim_id": 1, "evidence": "satellite images"},
    "methodology_critic": {"claim_id": 1, "critique": "the source is anonymous"},
    "judge": {"claim_id": 1, "verdict": "false"},
}


IDENTITY: list[dict[str, list[str]]] = [{"AgentIdentity": []}]


def _queue(summary: str, readers: str) -> dict[str, Any]:
    return {
        "get": {
            "summary": summary,
            "description": f"Claims oldest first. Readable by {readers}.",
            "security": IDENTITY,
            "parameters": [
                {
                    "name": "limit",
                    "in": "query",
                    "required": False,
                    "schema": {"type": "integer", "minimum": 1, "maximum": 500, "default": 50},
                }
            ],
            "responses": {
                "200": json_response(ref("ClaimList"), "The queue."),
                "401": problem_response("Missing or invalid identity token (error_code AUTH_INVALID)."),
                "403": problem_response("The agent's role may not read this queue."),
                "422": problem_response("Invalid `limit`."),
                "500": COMMON_ERRORS["500"],
            },
        }
    }


def _schema_name(role: str) -> str:
    """`claim_splitter` -> `ClaimSplitter`."""
    return "".join(part.title() for part in role.split("_"))


def _submission_payload(role: str) -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["work_type", "results"],
        "description": "Anywhere in the body: strings and keys without NUL (U+0000), each key once per object, "
        "arrays and objects nested at most 128 levels (the body is level 1). Else 400, naming the place.",
        "properties": {
            "work_type": {**NON_BLANK, "maxLength": 200},
            "results": {
                "type": "array",
                "minItems": 1,
                "items": ref(f"{_schema_name(role)}Result"),
                "description": "An item whose claim_id names no claim is refused with 400 naming its index.",
            },
            "metadata": {"type": "object"},
        },
        "examples": [{"work_type": "example", "results": [RESULT_EXAMPLES[role]], "metadata": {"source": "example"}}],
    }


def _submit(role: str, identity_401: dict[str, Any]) -> dict[str, Any]:
    return {
        "post": {
            "summary": f"Submit {role} work",
            "description": f"For an agent whose role is {role}. Under submissions/, a name that is no role is 404 "
            "(422 when it breaks ^[a-z_]+$), and a submission id answers GET only (405).",
            "security": IDENTITY,
            "parameters": [
                {
                    "name": "Idempotency-Key",
                    "in": "header",
                    "required": True,
                    "schema": {
                        "type": "string",
                        "format": "uuid",
                        "pattern": "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-"
                        "[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$",
                    },
                    "description": "UUID v4; the same key and body replays the first answer",
                },
            ],
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": ref(f"{_schema_name(role)}Submission")}},
            },
            "responses": {
                "202": json_response(
                    ref("SubmissionAck"),
                    "Accepted and stored; `Idempotent-Replayed: true` marks a replay.",
                    {**RATE_HEADERS, "Idempotent-Replayed": {"schema": {"type": "string", "enum": ["true"]}}},
                ),
                "400": problem_response("Invalid submission payload; `errors` names the fields.", RATE_HEADERS),
                "401": identity_401,
                "403": problem_response(f"The agent's role is not {role}.", RATE_HEADERS),
                "409": problem_response("A request with this key is in flight.", {**RATE_HEADERS, **RETRY_AFTER}),
                "422": problem_response(
                    "Missing or invalid Idempotency-Key, or a key reused for another request.", RATE_HEADERS
                ),
                "429": problem_response("Rate limit exceeded.", {**RATE_HEADERS, **RETRY_AFTER}),
                **COMMON_ERRORS,
            },
        }
    }


TITLE = "tahqiq agent access"
DESCRIPTION = (
    "Agents trade an API key for a short-lived EdDSA identity token, read role-gated claim queues and submit "
    "work with idempotency keys, under rate limits."
)


def part() -> Part:
    """Area A's share of the service's description."""
    schemas = {**_token_schemas(), **_submission_schemas(), **_claim_schemas()}
    for role in ROLES:
        schemas[f"{_schema_name(role)}Result"] = {
            **RESULT_ITEMS[role],
            "additionalProperties": NO_NUL_STRING,
            "examples": [RESULT_EXAMPLES[role]],
        }
        schemas[f"{_schema_name(role)}Submission"] = _submission_payload(role)
    identity_401 = problem_response("Missing or invalid identity token (error_code AUTH_INVALID).")
    paths = {
        **_document_paths(),
        **_token_paths(),
        **_submission_paths(identity_401),
        **_claim_paths(identity_401),
    }
    security = {
        "AgentApiKey": {"type": "http", "scheme": "bearer", "description": "agent API key svc_agent_..."},
        "AppKey": {"type": "apiKey", "in": "header", "name": "X-Service-App-Key"},
        "AgentIdentity": {"type": "apiKey", "in": "header", "name": "X-Service-Agent-Identity"},
    }
    return Part(paths, schemas, security, "agent access", "Tokens, claim queues and idempotent submissions (Area A).")


def openapi_document(version: str) -> dict[str, Any]:
    """The OpenAPI 3.1 description of Area A alone (`/agents/openapi.json`)."""
    return document(TITLE, version, DESCRIPTION, [part()])


def _token_schemas() -> dict[str, Any]:
    """Minting and verification."""
    return {
        "IdentityTokenRequest": {
            "type": "object",
            "properties": {
                "audience": {**UUID, "description": "app id the token is for; default the first-party app"},
                "ttl": {"type": "integer", "minimum": 60, "maximum": 3600, "default": 900},
            },
        },
        "IdentityToken": {
            "type": "object",
            "required": ["data"],
            "properties": {
                "data": {
                    "type": "object",
                    "required": ["token", "expires_at", "jti", "agent_id"],
                    "properties": {
                        "token": {"type": "string", "description": "EdDSA JWT"},
                        "expires_at": DATE_TIME,
                        "jti": UUID,
                        "agent_id": UUID,
                    },
                }
            },
        },
        "VerifyRequest": {
            "type": "object",
            "required": ["token"],
            "properties": {"token": {"type": "string", "minLength": 1}, "audience": UUID},
        },
        "VerificationSuccess": {
            "type": "object",
            "required": ["success", "valid", "agent"],
            "properties": {
                "success": {"const": True},
                "valid": {"const": True},
                "agent": {
                    "type": "object",
                    "required": ["agent_id", "role_id", "scopes", "status", "contract_version", "token_expiry"],
                    "properties": {
                        "agent_id": UUID,
                        "role_id": {"type": "string", "enum": list(ROLES)},
                        "scopes": {"type": "array", "items": {"type": "string"}},
                        "status": {"type": "string", "enum": ["active"]},
                        "contract_version": {"type": "string"},
                        "token_expiry": DATE_TIME,
                    },
                },
            },
        },
        "VerificationFailure": {
            "type": "object",
            "required": ["success", "error_code", "message"],
            "properties": {
                "success": {"const": False},
                "error_code": {"type": "string", "enum": ["AUTH_INVALID"]},
                "message": {"type": "string"},
            },
        },
    }


def _submission_schemas() -> dict[str, Any]:
    return {
        "SubmissionAck": {
            "type": "object",
            "required": ["submission_id", "status", "message"],
            "properties": {
                "submission_id": UUID,
                "status": {"type": "string", "enum": ["accepted"]},
                "message": {"type": "string"},
            },
        },
        "SubmissionStatus": {
            "type": "object",
            "required": ["data"],
            "properties": {
                "data": {
                    "type": "object",
                    "required": ["submission_id", "role_id", "work_type", "status", "created_at"],
                    "properties": {
                        "submission_id": UUID,
                        "role_id": {"type": "string", "enum": list(ROLES)},
                        "work_type": {"type": "string"},
                        "status": {"type": "string", "enum": ["accepted", "processed", "rejected"]},
                        "reason": {"type": ["string", "null"]},
                        "results": {"type": "integer"},
                        "created_at": DATE_TIME,
                        "processed_at": {"anyOf": [DATE_TIME, {"type": "null"}]},
                    },
                }
            },
        },
    }


def _claim_schemas() -> dict[str, Any]:
    return {
        "Claim": {
            "type": "object",
            "required": ["claim_id", "text", "status", "created_at"],
            "properties": {
                "claim_id": {"type": "integer"},
                "text": {"type": "string"},
                "status": {"type": "string", "enum": ["pending_evidence", "ready_for_verdict", "verdict_issued"]},
                "created_at": DATE_TIME,
            },
        },
        "ClaimList": {
            "type": "object",
            "required": ["data"],
            "properties": {"data": {"type": "array", "items": ref("Claim")}},
        },
        "Artifact": {
            "type": "object",
            "required": [
                "artifact_id",
                "claim_id",
                "role_id",
                "agent_id",
                "submission_id",
                "work_type",
                "content",
                "created_at",
            ],
            "properties": {
                "artifact_id": {"type": "integer"},
                "claim_id": {"type": "integer"},
                "role_id": {"type": "string", "enum": list(ROLES)},
                "agent_id": UUID,
                "submission_id": UUID,
                "work_type": {"type": "string"},
                "content": {"type": "object", "description": "the result item as submitted"},
                "created_at": DATE_TIME,
            },
        },
        "ArtifactList": {
            "type": "object",
            "required": ["data"],
            "properties": {"data": {"type": "array", "items": ref("Artifact")}},
        },
    }


def _document_paths() -> dict[str, Any]:
    """The manifest, this description and the public keys."""
    return {
        "/agents/manifest.json": {
            "get": {
                "summary": "Discovery document",
                "security": [],
                "responses": {"200": json_response({"type": "object"}, "The manifest.")},
            }
        },
        "/agents/openapi.json": {
            "get": {
                "summary": "This description",
                "security": [],
                "responses": {"200": json_response({"type": "object"}, "OpenAPI 3.1 document.")},
            }
        },
        "/.well-known/jwks.json": {
            "get": {
                "summary": "Public keys that verify identity tokens (JWKS, Ed25519)",
                "security": [],
                "responses": {
                    "200": json_response(
                        {"type": "object", "required": ["keys"], "properties": {"keys": {"type": "array"}}},
                        "The key set.",
                    )
                },
            }
        },
    }


def _token_paths() -> dict[str, Any]:
    return {
        "/agents/access-core/me/identity-token": {
            "post": {
                "summary": "Mint an identity token",
                "security": [{"AgentApiKey": []}],
                "requestBody": {
                    "required": False,
                    "content": {"application/json": {"schema": ref("IdentityTokenRequest")}},
                },
                "responses": {
                    "201": json_response(ref("IdentityToken"), "The token."),
                    "401": problem_response("Missing or invalid agent API key (error_code UNAUTHORIZED)."),
                    "422": problem_response("Invalid parameters; `errors` names them."),
                    "429": problem_response("Too many failed credential attempts from this client.", RETRY_AFTER),
                    **COMMON_ERRORS,
                },
            }
        },
        "/agents/access-core/verify-identity": {
            "post": {
                "summary": "Verify an identity token",
                "description": "Checks signature, times, audience (this app's id), revocation and agent status.",
                "security": [{"AppKey": []}],
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": ref("VerifyRequest")}},
                },
                "responses": {
                    "200": json_response(
                        {"oneOf": [ref("VerificationSuccess"), ref("VerificationFailure")]},
                        "The verification result, valid or not.",
                    ),
                    "401": problem_response("Missing or invalid application key."),
                    "422": problem_response("Invalid body; `errors` names the field."),
                    "429": problem_response("Too many failed credential attempts from this client.", RETRY_AFTER),
                    **COMMON_ERRORS,
                },
            }
        },
    }


def _submission_paths(identity_401: dict[str, Any]) -> dict[str, Any]:
    return {
        # One path per role for submitting (each with its role's result items), and the status of a submission
        # under the same prefix: OpenAPI allows one template per path shape, and these are not the same parameter.
        **{f"/agents/access-core/submissions/{role}": _submit(role, identity_401) for role in ROLES},
        "/agents/access-core/submissions/{submission_id}": {
            "get": {
                "summary": "Status of one of the agent's submissions",
                "security": IDENTITY,
                "parameters": [
                    {
                        "name": "submission_id",
                        "in": "path",
                        "required": True,
                        "schema": UUID,
                        "description": "the submission_id returned by the 202 of the submission",
                    }
                ],
                "responses": {
                    "200": json_response(ref("SubmissionStatus"), "accepted, processed or rejected (with reason)."),
                    "401": identity_401,
                    "404": problem_response("No such submission of this agent."),
                    "500": COMMON_ERRORS["500"],
                },
            },
        },
    }


def _claim_paths(identity_401: dict[str, Any]) -> dict[str, Any]:
    return {
        "/agents/access-core/claims/pending": _queue(
            "Claims needing evidence", "evidence_seeker and methodology_critic (each sees claims it has not worked on)"
        ),
        "/agents/access-core/claims/ready_for_verdict": _queue("Claims ready for judicial review", "judge"),
        "/agents/access-core/claims/{claim_id}/artifacts": {
            "get": {
                "summary": "Accepted artifacts of a claim",
                "description": "Artifacts of processed submissions, oldest first. Readable by judge.",
                "security": IDENTITY,
                "parameters": [
                    {
                        "name": "claim_id",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "integer", "minimum": 1, "maximum": 2**63 - 1},
                    },
                    {
                        "name": "role_id",
                        "in": "query",
                        "required": False,
                        "schema": {"type": "string", "enum": list(ROLES)},
                        "description": "only artifacts produced by this role",
                    },
                ],
                "responses": {
                    "200": json_response(ref("ArtifactList"), "The artifacts."),
                    "401": identity_401,
                    "403": problem_response("The agent's role may not read artifacts."),
                    "404": problem_response("No such claim."),
                    "422": problem_response("Invalid claim_id or role_id."),
                    "500": COMMON_ERRORS["500"],
                },
            }
        },
    }


def manifest_document(service_version: str, interface_version: str) -> dict[str, Any]:
    base = "/agents/access-core"
    return {
        "name": "tahqiq agent access",
        "service_version": service_version,
        "interface_version": interface_version,
        "openapi": "/agents/openapi.json",
        "jwks_uri": "/.well-known/jwks.json",
        "roles": list(ROLES),
        "authentication": {
            "agent_api_key": {"header": "Authorization", "scheme": "Bearer", "prefix": "svc_agent_"},
            "identity_token": {
                "header": "X-Service-Agent-Identity",
                "alg": "EdDSA",
                "ttl_s": {"min": 60, "max": 3600, "default": 900},
            },
            "app_key": {"header": "X-Service-App-Key", "prefix": "svc_app_"},
        },
        "endpoints": {
            "mint": f"POST {base}/me/identity-token",
            "verify": f"POST {base}/verify-identity",
            "submit": f"POST {base}/submissions/{{role_id}}",
            "submission_status": f"GET {base}/submissions/{{submission_id}}",
            "pending": f"GET {base}/claims/pending",
            "ready_for_verdict": f"GET {base}/claims/ready_for_verdict",
            "artifacts": f"GET {base}/claims/{{claim_id}}/artifacts",
        },
        "idempotency": {"header": "Idempotency-Key", "format": "uuid-v4", "retention_s": 86400},
    }
