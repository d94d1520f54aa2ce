"""Area B's share of the service's OpenAPI description: `POST /api/ai/summarize`. Written from the request parser
(`tahqiq.summarize.service.parse_request`, whose field lists it reads) and checked against the live service by
schemathesis (tests/service/test_openapi_service.py)."""

from __future__ import annotations

from typing import Any

from tahqiq.openapi import (
    COMMON_ERRORS,
    RATE_HEADERS,
    RETRY_AFTER,
    TEXT_PATTERN,
    Part,
    json_response,
    problem_response,
    ref,
)
from tahqiq.summarize.service import FORMATS, LENGTHS, LOCAL_MODEL, STRATEGY_HEADER, TARGET_LANGS

STRATEGIES = ("gateway", "gateway_fallback", "provider", "edge_fallback", "local")
_STRATEGY = {
    STRATEGY_HEADER: {
        "required": True,
        "schema": {"type": "string", "enum": list(STRATEGIES)},
        "description": "the route that answered, failed, or (before any upstream was tried) would have been used",
    }
}
_LANG = {"type": "string", "enum": list(TARGET_LANGS)}


def _choice(values: tuple[str, ...], default: str | None, description: str) -> dict[str, Any]:
    schema: dict[str, Any] = {"enum": [*values, None], "description": description}
    if default is not None:
        schema["default"] = default
    return schema


def part(max_chars: int) -> Part:
    """`max_chars`: the service's limit on a text (`TAHQIQ_SUMMARIZE_MAX_CHARS`)."""
    request = {
        "type": "object",
        "required": ["text"],
        "additionalProperties": False,
        "properties": {
            "text": {"type": "string", "pattern": TEXT_PATTERN, "maxLength": max_chars},
            "target_lang": _choice(TARGET_LANGS, None, "the summary's language; default the text's own"),
            "length": _choice(LENGTHS, "short", "how long a summary"),
            "format": _choice(FORMATS, "paragraph", "one paragraph, or one bullet per sentence"),
        },
        "examples": [{"text": "The sky is blue. Grass is green.", "target_lang": "en", "format": "bullets"}],
    }
    summary = {
        "type": "object",
        "required": ["data"],
        "properties": {
            "data": {
                "type": "object",
                "required": [
                    "summary",
                    "format",
                    "length",
                    "target_lang",
                    "source_lang",
                    "strategy",
                    "model",
                    "translated",
                ],
                "properties": {
                    "summary": {"type": "string"},
                    "bullets": {"type": "array", "items": {"type": "string"}, "description": "format bullets"},
                    "format": {"type": "string", "enum": list(FORMATS)},
                    "length": {"type": "string", "enum": list(LENGTHS)},
                    "target_lang": _LANG,
                    "source_lang": _LANG,
                    "strategy": {"type": "string", "enum": list(STRATEGIES)},
                    "model": {"type": "string", "description": f"the upstream's model, or {LOCAL_MODEL}"},
                    "translated": {"type": "boolean"},
                },
            }
        },
    }
    with_strategy = {**_STRATEGY, **RATE_HEADERS}
    paths = {
        "/api/ai/summarize": {
            "post": {
                "summary": "Summarize a text in Arabic or English",
                "description": "Through the LLM gateway or vendor when configured, else (and after an upstream's "
                "400, 401, 403 or 404) the in-process extractive summarizer. Counted against the client's rate "
                "limit (its app key, else its address).",
                "requestBody": {"required": True, "content": {"application/json": {"schema": ref("SummaryRequest")}}},
                "responses": {
                    "200": json_response(
                        ref("Summary"),
                        "The summary.",
                        {**with_strategy, "Content-Language": {"schema": _LANG}},
                    ),
                    "401": problem_response("With TAHQIQ_REQUIRE_APP_KEY: a missing or unknown app key.", _STRATEGY),
                    "408": problem_response("The body did not arrive in time.", with_strategy),
                    "413": {**COMMON_ERRORS["413"], "headers": with_strategy},
                    "422": problem_response("A field or Content-Type is invalid (see `errors`).", with_strategy),
                    "429": problem_response("Too many summaries from this client.", {**with_strategy, **RETRY_AFTER}),
                    "500": {**COMMON_ERRORS["500"], "headers": _STRATEGY},
                    "503": problem_response(
                        "The summarization backend is unavailable.", {**with_strategy, **RETRY_AFTER}
                    ),
                },
            }
        }
    }
    description = "Concise summaries in Arabic or English (Area B)."
    return Part(
        paths, {"SummaryRequest": request, "Summary": summary}, tag="summarization", tag_description=description
    )
