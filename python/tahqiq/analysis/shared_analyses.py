"""The morphological analyser's answers for forms outside the compiled table, kept on disk and shared.

The analyser (farahidi) takes 10-30 ms a form. Each process used to remember its answers in memory only, so every
worker of `tahqiq analyze --jobs N`, every server's analysis worker and every restart analysed the same rare forms
again. `SharedAnalyses` keeps each answer once per machine and package version, in a SQLite file in the cache
folder (WAL mode: readers and writers in many processes at once). An answer depends only on the form and the
package's version, so reading it back gives exactly what the analyser would: sharing never changes an answer. Any
error of the file (a read-only folder, a full disk, a damaged file) leaves the analyser to answer, as before.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from pathlib import Path

Analyses = list[tuple[str, str, str]]  # the analyser's (lemma, root, pos) readings of one form, unranked

SCHEMA = "CREATE TABLE IF NOT EXISTS analyses (form TEXT PRIMARY KEY, readings TEXT NOT NULL) WITHOUT ROWID"


class SharedAnalyses:
    """Form → the analyser's readings, in ``path``. Not thread-safe: its owner calls it under its own lock."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db: sqlite3.Connection | None = None
        self._broken = False

    def _connection(self) -> sqlite3.Connection | None:
        if self._db is None and not self._broken:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(self.path, timeout=5, isolation_level=None, check_same_thread=False)
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")  # a lost last answer is only analysed again
                db.execute(SCHEMA)
                self._db = db
            except (sqlite3.Error, OSError):
                self._broken = True
        return self._db

    def get(self, form: str) -> Analyses | None:
        db = self._connection()
        if db is None:
            return None
        try:
            row = db.execute("SELECT readings FROM analyses WHERE form = ?", (form,)).fetchone()
            return [(str(a), str(b), str(c)) for a, b, c in json.loads(row[0])] if row else None
        except (sqlite3.Error, ValueError, TypeError):
            self._fail()
            return None

    def put(self, form: str, readings: Analyses) -> None:
        db = self._connection()
        if db is None:
            return
        try:
            text = json.dumps(readings, ensure_ascii=False)
            db.execute("INSERT OR IGNORE INTO analyses (form, readings) VALUES (?, ?)", (form, text))
        except sqlite3.Error:
            self._fail()

    def _fail(self) -> None:
        """After an error the file is left alone for the rest of this process."""
        self._broken = True
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
            self._db = None
