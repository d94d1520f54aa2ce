"""Area C's share of the service's OpenAPI description.

The parameters (query parameters of each GET, the JSON body of each POST) are generated from
`tahqiq.analysis.params.OPERATIONS`, the same definition the service reads requests with, so the two cannot drift.
The answers' schemas are written here from `docs/api/analysis.md`, and schemathesis checks every answer of the live
service against them (tests/service/test_openapi_service.py).
"""

from __future__ import annotations

from typing import Any

from tahqiq.analysis.params import FLAGS, ONE_OF_REQUIRED, OPERATIONS, TASKS, Field
from tahqiq.openapi import COMMON_ERRORS, RETRY_AFTER, TEXT_PATTERN, Part, json_response, problem_response, ref

# path -> (operation, summary, answer schema)
ROUTES: dict[str, tuple[str, str, str]] = {
    "/ner": ("ner", "Named entities (nested or flat BIO tags)", "NerAnswer"),
    "/wsd": ("wsd", "The sense of each noun and verb", "WsdAnswer"),
    "/morph": ("morph", "Morphology: lemma, root, POS, chosen in context", "MorphAnswer"),
    "/dialect/corpus": ("lookup", "An annotated dialect sentence, by id or text", "LookupAnswer"),
    "/dialect/corpus/glossary": ("glossary", "Dialect glosses for each word of a text", "GlossaryAnswer"),
    "/re": ("re", "Relations between the entities of each sentence", "RelationsAnswer"),
}
TAG = "text analysis"


def _string(*, nullable: bool = False) -> dict[str, Any]:
    return {"type": ["string", "null"]} if nullable else {"type": "string"}


def _object(required: list[str], properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "required": required, "properties": properties}


_INT = {"type": "integer"}
_NUMBER = {"type": "number"}
_OFFSET = {"type": "integer", "minimum": 0}


def field_schema(f: Field, *, max_chars: int, in_query: bool, more_choices: tuple[str, ...] = ()) -> dict[str, Any]:
    """The JSON Schema of one parameter, as the service reads it (`Params.read`)."""
    schema: dict[str, Any]
    if f.kind == "text":
        schema = {"type": "string", "pattern": TEXT_PATTERN, "maxLength": max_chars}
    elif f.kind == "integer":
        schema = {"type": "integer", "minimum": f.low, "maximum": f.high}
    elif f.kind == "number":
        schema = {"type": "number", "minimum": f.low, "maximum": f.high}
    elif f.kind == "boolean":
        schema = {"type": "boolean"}
    else:
        choices = list(f.choices + more_choices if f.open_choices else f.choices)
        schema = {"enum": choices if in_query else [*choices, *f.aliases]}
    if not in_query and not f.required:  # a JSON null is the parameter left out
        schema = {"anyOf": [schema, {"type": "null"}]}
    if f.default is not None:
        schema["default"] = f.default
    schema["description"] = f.description
    return schema


def _parameters(operation: str, max_chars: int, corpora: tuple[str, ...]) -> list[dict[str, Any]]:
    return [
        {
            "name": f.name,
            "in": "query",
            "required": f.required,
            "schema": field_schema(f, max_chars=max_chars, in_query=True, more_choices=corpora),
        }
        for f in OPERATIONS[operation]
    ]


def _body(operation: str, max_chars: int, corpora: tuple[str, ...]) -> dict[str, Any]:
    fields = OPERATIONS[operation]
    schema: dict[str, Any] = {
        "type": "object",
        "additionalProperties": False,
        "required": [f.name for f in fields if f.required],
        "properties": {
            f.name: field_schema(f, max_chars=max_chars, in_query=False, more_choices=corpora) for f in fields
        },
    }
    if operation in ONE_OF_REQUIRED:  # one of them, and not null
        schema["anyOf"] = [
            {"required": [name], "properties": {name: {"not": {"type": "null"}}}} for name in ONE_OF_REQUIRED[operation]
        ]
    return schema


def _errors(operation: str) -> dict[str, Any]:
    unavailable = problem_response(
        "The language data is loading, or the analysis queue is full; retry after Retry-After seconds.", RETRY_AFTER
    )
    errors: dict[str, Any] = {
        "401": problem_response("With TAHQIQ_REQUIRE_APP_KEY: a missing or unknown X-Service-App-Key."),
        "422": problem_response("A parameter is missing, invalid or unknown; `errors` names each one."),
        "500": COMMON_ERRORS["500"],
        "503": unavailable,
    }
    if operation == "lookup":
        errors["400"] = problem_response("sentence_id and text name different sentences.")
        errors["404"] = problem_response(
            "No sentence matches at or above the threshold; `suggestion` is the closest one (or null)."
        )
    return errors


def _operations(path: str, max_chars: int, corpora: tuple[str, ...]) -> dict[str, Any]:
    operation, summary, answer = ROUTES[path]
    ok = json_response(ref(answer), "The analysis.")
    errors = _errors(operation)
    get: dict[str, Any] = {
        "summary": summary,
        "parameters": _parameters(operation, max_chars, corpora),
        "responses": {"200": ok, **errors},
    }
    if operation == "lookup":
        get["description"] = "Give sentence_id or text (or both). GET also tries substrings and fuzzy matches."
    post = {
        "summary": summary,
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": _body(operation, max_chars, corpora)}},
        },
        "responses": {
            "200": ok,
            "408": problem_response("The body did not arrive in time."),
            "413": COMMON_ERRORS["413"],
            **errors,
        },
    }
    return {"get": get, "post": post}


def _entry(kind: str, name: str) -> dict[str, Any]:
    return {
        "get": {
            "summary": f"One {kind} entry, by the id /{'morph' if kind == 'lemma' else 'wsd'} answers give",
            "parameters": [{"name": name, "in": "path", "required": True, "schema": {"type": "string"}}],
            "responses": {
                "200": json_response(ref("Lemma" if kind == "lemma" else "Sense"), f"The {kind}."),
                "401": problem_response("With TAHQIQ_REQUIRE_APP_KEY: a missing or unknown X-Service-App-Key."),
                "404": problem_response(f"No {kind} has this id."),
                "500": COMMON_ERRORS["500"],
                "503": problem_response("The language data is loading; retry after Retry-After seconds.", RETRY_AFTER),
            },
        }
    }


def part(max_chars: int, corpora: tuple[str, ...]) -> Part:
    """`max_chars`: the service's limit on a text; `corpora`: the names a `source` may give besides `all`."""
    paths = {path: _operations(path, max_chars, corpora) for path in ROUTES}
    paths["/lexicon/lemmas/{lemma_id}"] = _entry("lemma", "lemma_id")
    paths["/lexicon/senses/{sense_id}"] = _entry("sense", "sense_id")
    description = "Arabic named entities, word senses, morphology, relations and the dialect corpus (Area C)."
    return Part(paths, ANSWERS, tag=TAG, tag_description=description)


# The answers' schemas, from docs/api/analysis.md
_MORPH_FIELDS = {
    "lemma": _string(),
    "lemma_id": _string(),
    "root": {"type": "string", "description": "spaced letters (ك ت ب), or empty"},
    "pos": _string(),
    "frequency": _INT,
    "lemma_url": _string(),
    "lemma_forms": {"type": "array", "items": _string()},
}
_SPAN = _object(
    ["text", "type", "start", "end"], {"text": _string(), "type": _string(), "start": _OFFSET, "end": _OFFSET}
)
ANSWERS: dict[str, Any] = {
    "NerAnswer": _object(
        ["tokens", "entities"],
        {
            "tokens": {
                "type": "array",
                "items": _object(
                    ["token", "tags"],
                    {
                        "token": _string(),
                        "tags": {
                            "type": "array",
                            "items": {"type": "string", "pattern": "^(O|[BI]-[A-Z]+)$"},
                            "description": "BIO tags, outermost first",
                        },
                        "start": _OFFSET,
                        "end": _OFFSET,
                    },
                ),
            },
            "entities": {
                "type": "array",
                "items": _object(
                    ["type", "text", "start", "end", "depth"],
                    {
                        "type": _string(),
                        "text": _string(),
                        "start": _OFFSET,
                        "end": _OFFSET,
                        "depth": {"type": "integer", "minimum": 0},
                    },
                ),
            },
        },
    ),
    "WsdAnswer": _object(
        ["tokens"],
        {
            "tokens": {
                "type": "array",
                "items": _object(
                    ["token", "sense_id", "sense_url"],
                    {
                        "token": _string(),
                        "lemma": _string(nullable=True),
                        "sense_id": {
                            "type": ["string", "null"],
                            "description": "a sense, `entity:TYPE` for an entity, or null",
                        },
                        "sense_url": _string(nullable=True),
                        "gloss": _string(nullable=True),
                    },
                ),
            }
        },
    ),
    "MorphAnswer": _object(
        ["task", "flag", "language", "tokens"],
        {
            "task": {"type": "string", "enum": list(TASKS)},
            "flag": {"type": "string", "enum": list(FLAGS)},
            "language": {"const": "MSA"},
            "tokens": {
                "type": "array",
                "description": "flag 1: the chosen analysis's fields (the task's subset); flag *: `analyses`, "
                "the chosen one first, each with its `score`",
                "items": _object(
                    ["token"],
                    {
                        "token": _string(),
                        **_MORPH_FIELDS,
                        "analyses": {
                            "type": "array",
                            "items": _object(["score"], {**_MORPH_FIELDS, "score": _NUMBER}),
                        },
                    },
                ),
            },
        },
    ),
    "Lemma": _object(
        ["lemma", "lemma_id", "root", "pos", "frequency", "forms", "package"],
        {
            "lemma": _string(),
            "lemma_id": _string(),
            "root": _string(),
            "pos": _string(),
            "frequency": _INT,
            "forms": {"type": "array", "items": _string()},
            "package": _string(),
        },
    ),
    "Sense": _object(
        ["sense_id"],
        {
            "sense_id": _string(),
            "headword": _string(),
            "sense_number": _INT,
            "pos": _string(),
            "gloss": _string(),
            "headword_frequency": _INT,
            "source": _string(),
        },
    ),
    "RelationsAnswer": _object(
        ["relations"],
        {
            "relations": {
                "type": "array",
                "items": _object(
                    ["predicate", "subject", "object", "confidence"],
                    {
                        "predicate": _string(),
                        "subject": _SPAN,
                        "object": _SPAN,
                        "confidence": {"type": "number", "minimum": 0, "maximum": 1},
                    },
                ),
            }
        },
    ),
    "LookupAnswer": _object(
        ["match_type", "match_score", "sentence", "tokens"],
        {
            "match_type": {"type": "string", "enum": ["id", "exact", "substring", "fuzzy"]},
            "match_score": {"type": "number", "minimum": 0, "maximum": 1},
            "sentence": _object(
                ["sentence_id", "text", "corpus"],
                {
                    "sentence_id": _INT,
                    "text": _string(),
                    "dialect": _string(nullable=True),
                    "source": _string(nullable=True),
                    "translation": _string(nullable=True),
                    "corpus": _string(),
                },
            ),
            "tokens": {"type": "array", "items": _object(["token"], {"token": _string()})},
        },
    ),
    "GlossaryAnswer": _object(
        ["tokens"],
        {
            "tokens": {
                "type": "array",
                "items": _object(
                    ["token", "normalized", "matches"],
                    {
                        "token": _string(),
                        "normalized": _string(),
                        "start": _OFFSET,
                        "end": _OFFSET,
                        "matches": {
                            "type": "array",
                            "items": _object(
                                ["form", "score", "match_type", "refs"],
                                {
                                    "form": _string(),
                                    "score": {"type": "number", "minimum": 0, "maximum": 1},
                                    "match_type": {
                                        "type": "string",
                                        "enum": ["exact", "normalized", "clitic", "fuzzy"],
                                    },
                                    "refs": {
                                        "type": "array",
                                        "items": _object(
                                            ["sentence_id", "token_index", "corpus"],
                                            {"sentence_id": _INT, "token_index": _INT, "corpus": _string()},
                                        ),
                                    },
                                },
                            ),
                        },
                    },
                ),
            }
        },
    ),
}
