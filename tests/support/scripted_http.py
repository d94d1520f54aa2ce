"""A real local HTTP server that answers from a script, for the client library's retry tests: each request takes
the next answer (status, headers, JSON body) and is recorded (method, path, headers, body)."""

from __future__ import annotations

import json
import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Answer:
    status: int
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    body: Any


class ScriptedServer:
    """`answers` are given in order; past the end, every request gets `default`."""

    def __init__(self, answers: list[Answer], default: Answer | None = None) -> None:
        self.answers = deque(answers)
        self.default = default or Answer(500, {"detail": "the script ran out"})
        self.seen: list[Seen] = []
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                with server._lock:
                    server.seen.append(
                        Seen(
                            self.command,
                            self.path,
                            {k.lower(): v for k, v in self.headers.items()},
                            json.loads(raw) if raw else None,
                        )
                    )
                    answer = server.answers.popleft() if server.answers else server.default
                payload = json.dumps(answer.body).encode() if answer.body is not None else b""
                self.send_response(answer.status)
                content_type = "application/problem+json" if answer.status >= 400 else "application/json"
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(payload)))
                for name, value in answer.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = _answer

            def log_message(self, *_args: Any) -> None:
                pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}"
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    def __enter__(self) -> ScriptedServer:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
