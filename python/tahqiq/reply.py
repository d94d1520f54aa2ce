"""A successful answer of a domain function, before app.py renders it: every area returns this shape."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Reply:
    status: int
    body: bytes  # JSON
    headers: dict[str, str] = field(default_factory=dict)
