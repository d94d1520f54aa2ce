"""The building blocks of the service's OpenAPI 3.1 description, shared by the areas' parts
(`tahqiq.access.openapi`, `tahqiq.summarize.openapi`, `tahqiq.analysis.openapi`), which `tahqiq.web.openapi`
composes into `GET /openapi.json`.

An area's part is a `Part`: its paths, its component schemas and its security schemes. Schemathesis checks the
composed document against the live service in CI (tests/service/test_openapi_service.py and
tests/access/test_openapi_live.py): every answer must be one the document describes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

UUID = {"type": "string", "format": "uuid"}
DATE_TIME = {"type": "string", "format": "date-time"}
# The white space of Python's str.strip() (every code point whose str.isspace() is true), which the server uses to
# call a string blank; ECMA-262's \s differs (it leaves out U+001C-U+001F and U+0085, and takes U+FEFF).
PYTHON_SPACE = "\\t-\\r\\u001c-\\u0020\\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000"
# Not blank, and no NUL (U+0000, which the store cannot keep): what the server asks of work_type, text and verdict.
NON_BLANK_PATTERN = f"^[^\\u0000]*[^\\u0000{PYTHON_SPACE}][^\\u0000]*$"
NON_BLANK = {"type": "string", "pattern": NON_BLANK_PATTERN}
# Not blank, NUL allowed: a text that is analysed or summarized, never stored.
TEXT_PATTERN = f"[^{PYTHON_SPACE}]"

_INT_HEADER = {"schema": {"type": "integer", "minimum": 0}}
RATE_HEADERS = {
    "X-RateLimit-Limit": {**_INT_HEADER, "description": "requests allowed per window"},
    "X-RateLimit-Remaining": {**_INT_HEADER, "description": "requests left in the current window"},
    "RateLimit-Policy": {"schema": {"type": "string"}, "description": 'IETF form, e.g. "default";q=120;w=60'},
    "RateLimit": {"schema": {"type": "string"}, "description": 'IETF form, e.g. "default";r=57;t=31'},
}
RETRY_AFTER = {"Retry-After": {**_INT_HEADER, "description": "seconds to wait before retrying"}}

PROBLEM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "RFC 9457 problem details; `type` links to a page about the problem (`/problems/{slug}`).",
    "required": ["type", "title", "status", "detail", "instance"],
    "properties": {
        "type": {"type": "string", "format": "uri"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
        "instance": {"type": "string"},
        "error_code": {"type": "string", "description": "Areas A and C; summarization's problems leave it out"},
        "request_id": {"type": "string", "description": "the request's id, as in its X-Request-ID header and logs"},
        "errors": {
            "type": "object",
            "description": "validation problems: each field and what is wrong with it",
            "additionalProperties": {"type": "array", "items": {"type": "string"}},
        },
    },
}


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def json_response(schema: dict[str, Any], description: str, headers: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"description": description, "content": {"application/json": {"schema": schema}}}
    if headers:
        out["headers"] = headers
    return out


def problem_response(description: str, headers: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "description": description,
        "content": {"application/problem+json": {"schema": ref("Problem")}},
    }
    if headers:
        out["headers"] = headers
    return out


COMMON_ERRORS = {
    "413": problem_response("The body is larger than the service accepts."),
    "500": problem_response("Unexpected failure; nothing partial was stored."),
}


@dataclass
class Part:
    """One area's share of the document."""

    paths: dict[str, Any]
    schemas: dict[str, Any] = field(default_factory=dict)
    security_schemes: dict[str, Any] = field(default_factory=dict)
    tag: str = ""
    """The heading its operations are listed under on /docs."""
    tag_description: str = ""


def document(title: str, version: str, description: str, parts: list[Part]) -> dict[str, Any]:
    """An OpenAPI 3.1 document of `parts`, with the Problem schema they all use."""
    paths: dict[str, Any] = {}
    schemas: dict[str, Any] = {"Problem": PROBLEM_SCHEMA}
    security: dict[str, Any] = {}
    tags = [{"name": part.tag, "description": part.tag_description} for part in parts if part.tag]
    for part in parts:
        for name, taken in (("path", paths), ("schema", schemas)):
            new = part.paths if name == "path" else part.schemas
            twice = set(new) & set(taken)
            if twice:
                raise ValueError(f"two parts describe the {name}s {sorted(twice)}")
        for path, operations in part.paths.items():
            paths[path] = {m: {"tags": [part.tag], **op} if part.tag else op for m, op in operations.items()}
        schemas |= part.schemas
        security |= part.security_schemes
    components: dict[str, Any] = {"schemas": schemas}
    if security:
        components["securitySchemes"] = security
    return {
        "openapi": "3.1.0",
        "info": {
            "title": title,
            "version": version,
            "description": description,
            "license": {"name": "GPL-3.0-or-later", "identifier": "GPL-3.0-or-later"},
        },
        "tags": tags,
        "paths": paths,
        "components": components,
    }
