"""Log lines and the request they belong to.

The web layer sets `REQUEST_ID` for each request (the client's `X-Request-ID`, or a new UUID) and the access area
calls `note_agent` once it knows the agent; every line logged while the request is handled carries both.
`TAHQIQ_LOG_FORMAT` chooses the form: `text` (one human line) or `json` (one JSON object per line: time, level,
logger, message, pid, request_id, agent_id, and on the access log's lines method, route, path, status, latency_ms,
client). Nothing here writes a header or a body: the access line names the path without its query string.
"""

from __future__ import annotations

import logging
import sys
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

import orjson

REQUEST_ID: ContextVar[str | None] = ContextVar("tahqiq_request_id", default=None)
AGENT_ID: ContextVar[str | None] = ContextVar("tahqiq_agent_id", default=None)
FORMATS = ("text", "json")
ACCESS_LOGGER = "tahqiq.access"


def note_agent(agent_id: str) -> None:
    """The agent this request acts for, named in the request's later log lines and its access line."""
    AGENT_ID.set(agent_id)


class _Context(logging.Filter):
    """Adds the request's id and agent to every record (a handler's filter: records of every logger pass it)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = REQUEST_ID.get()
        if not hasattr(record, "agent_id"):
            record.agent_id = AGENT_ID.get()
        return True


class TextFormatter(logging.Formatter):
    """`time LEVEL logger: message request_id=… agent_id=…` (the ids when known)."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        if record.name == ACCESS_LOGGER:  # the access line names them itself
            return line
        context = "".join(
            f" {name}={value}"
            for name in ("request_id", "agent_id")
            if (value := getattr(record, name, None)) is not None
        )
        if not context:
            return line
        first, newline, rest = line.partition("\n")  # after the message, before a traceback
        return first + context + newline + rest


class JsonFormatter(logging.Formatter):
    """One JSON object per line; a traceback is the `exception` member (its newlines escaped)."""

    def format(self, record: logging.LogRecord) -> str:
        doc: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "pid": record.process,
        }
        for name in ("request_id", "agent_id"):
            if (value := getattr(record, name, None)) is not None:
                doc[name] = value
        access = getattr(record, "access", None)
        if isinstance(access, dict):
            doc.update(access)
        if record.exc_info:
            doc["exception"] = self.formatException(record.exc_info)
        return orjson.dumps(doc, default=str).decode()


def formatter(log_format: str) -> logging.Formatter:
    return JsonFormatter() if log_format == "json" else TextFormatter()


def configure(level: str, log_format: str) -> None:
    """The root logger of this process: `level`, in `log_format`, to standard error."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(formatter(log_format))
    handler.addFilter(_Context())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())


def granian_config(log_format: str) -> dict[str, Any] | None:
    """The logging configuration of granian's own loggers in `log_format` (None: granian's own, for text)."""
    if log_format != "json":
        return None
    handler = {"formatter": "json", "class": "logging.StreamHandler", "stream": "ext://sys.stdout"}
    return {
        "formatters": {"json": {"()": "tahqiq.logs.JsonFormatter"}},
        "handlers": {"console": handler, "access": handler},
        "loggers": {
            "_granian": {"handlers": ["console"], "level": "INFO", "propagate": False},
            "granian.access": {"handlers": ["access"], "level": "INFO", "propagate": False},
        },
    }
