"""Versioned schema migrations, one directory per dialect (`NNNN_name.sql`), applied in order."""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


def load(dialect: str) -> list[Migration]:
    """The migrations of `dialect` ("sqlite" or "postgres"), oldest first."""
    found: list[Migration] = []
    for entry in resources.files(__name__).joinpath(dialect).iterdir():
        match = _NAME.match(entry.name)
        if match is None:
            continue
        found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if not found or len(set(versions)) != len(versions):
        raise RuntimeError(f"bad {dialect} migrations: versions {versions}")
    return found
