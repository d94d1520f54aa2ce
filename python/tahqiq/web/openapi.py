"""The OpenAPI 3.1 description of the whole service (`GET /openapi.json`): each served area's part
(`tahqiq.access.openapi`, `tahqiq.summarize.openapi`, `tahqiq.analysis.openapi`) and the routes every server has."""

from __future__ import annotations

from typing import Any

from tahqiq.access import openapi as access_openapi
from tahqiq.analysis import openapi as analysis_openapi
from tahqiq.config import Settings
from tahqiq.openapi import Part, document, json_response, problem_response
from tahqiq.summarize import openapi as summarize_openapi

TITLE = "tahqiq"
DESCRIPTION = (
    "Fact-checking agents' access (tokens, claim queues, idempotent submissions), summaries in Arabic or English, "
    "and Arabic text analysis (named entities, word senses, morphology, relations, dialect corpus). "
    "The interactive page is at /docs."
)
DOCS_ASSETS = ("swagger-ui-bundle.js", "swagger-ui.css", "favicon-32x32.png", "favicon-16x16.png", "tahqiq-docs.js")
"""The files of the /docs page, served at /docs/assets/{asset}: the Swagger UI package's, and the page's own script."""


def _html(description: str) -> dict[str, Any]:
    return {"description": description, "content": {"text/html": {"schema": {"type": "string"}}}}


def _common(metrics: bool) -> Part:
    health = {
        "type": "object",
        "required": ["status", "service", "version", "interface_version", "uptime_s", "store", "areas"],
        "properties": {
            "status": {"const": "ok"},
            "service": {"const": "tahqiq"},
            "version": {"type": "string"},
            "interface_version": {"type": "string"},
            "uptime_s": {"type": "number", "minimum": 0},
            "store": {
                "type": "object",
                "required": ["kind", "schema_version"],
                "properties": {"kind": {"type": "string"}, "schema_version": {"type": "integer"}},
            },
            "areas": {"type": "array", "items": {"type": "string", "enum": ["agents", "summarize", "analysis"]}},
            "analysis": {
                "type": "object",
                "required": ["status"],
                "description": "with the analysis area: whether its data is loaded, and its sizes",
                "properties": {"status": {"type": "string", "enum": ["loading", "ready", "failed"]}},
            },
        },
    }
    health_op = {
        "get": {
            "summary": "Liveness, with version metadata",
            "responses": {"200": json_response({"$ref": "#/components/schemas/Health"}, "The service is up.")},
        }
    }
    paths = {
        "/health": health_op,
        "/healthz": {"get": {**health_op["get"], "summary": "Liveness (the same as /health)"}},
        "/openapi.json": {
            "get": {
                "summary": "This description",
                "responses": {"200": json_response({"type": "object"}, "OpenAPI 3.1 document.")},
            }
        },
        "/docs": {
            "get": {
                "summary": "Interactive documentation (Swagger UI, served from the installed package)",
                "responses": {"200": _html("The page.")},
            }
        },
        "/docs/assets/{asset}": {
            "get": {
                "summary": "A file of the documentation page",
                "parameters": [
                    {"name": "asset", "in": "path", "required": True, "schema": {"enum": list(DOCS_ASSETS)}}
                ],
                "responses": {
                    "200": {
                        "description": "The file.",
                        "content": {
                            "text/javascript": {"schema": {"type": "string"}},
                            "text/css": {"schema": {"type": "string"}},
                            "image/png": {"schema": {"type": "string", "contentMediaType": "image/png"}},
                        },
                    },
                    "404": problem_response("No such file."),
                },
            }
        },
        "/problems/{slug}": {
            "get": {
                "summary": "What a problem type means and what to do",
                "parameters": [{"name": "slug", "in": "path", "required": True, "schema": {"type": "string"}}],
                "responses": {"200": _html("The page."), "404": problem_response("No such problem type.")},
            }
        },
    }
    if metrics:
        paths["/metrics"] = {
            "get": {
                "summary": "Prometheus metrics (text format); meant for the internal network",
                "description": "Off with TAHQIQ_METRICS=0. docs/operations.md lists the metrics.",
                "responses": {
                    "200": {"description": "The metrics.", "content": {"text/plain": {"schema": {"type": "string"}}}}
                },
            }
        }
    return Part(paths, {"Health": health}, tag="service", tag_description="Health, this description, its page.")


def service_document(settings: Settings, version: str, corpora: tuple[str, ...]) -> dict[str, Any]:
    """The description of what a server of `settings` serves; `corpora`: the dialect corpora it knows by name."""
    parts = []
    if "agents" in settings.areas:
        parts.append(access_openapi.part())
    if "summarize" in settings.areas:
        parts.append(summarize_openapi.part(settings.summarize_max_chars))
    if "analysis" in settings.areas:
        parts.append(analysis_openapi.part(settings.analysis_max_chars, corpora))
    return document(TITLE, version, DESCRIPTION, [*parts, _common(settings.metrics)])
