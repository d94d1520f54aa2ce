"""A real local HTTP server speaking OpenAI-compatible chat completions, for the summarization tests.

It runs in a thread of the test process (stdlib ThreadingHTTPServer, HTTP/1.1 keep-alive). Each test scripts
how it answers (`script(...)`: one `Answer` per request, then the default) and reads what it received
(`requests`: path, headers, JSON body) to check the prompt, the model, the key and how many calls were made;
`connections` counts the connections it accepted (keep-alive reuse).
The default answer is a well-formed summary in the language and format the prompt asked for.
"""

from __future__ import annotations

import json
import ssl
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

ARABIC_SENTENCES = [
    "اجتمع المجلس اليوم لمناقشة الميزانية.",
    "وافق الأعضاء على الخطة الجديدة.",
    "تبدأ المرحلة الأولى الشهر المقبل.",
]
ENGLISH_SENTENCES = [
    "The council met today to discuss the budget.",
    "Members approved the new plan.",
    "Work starts next month.",
]


@dataclass
class Answer:
    """One scripted answer. `content` set: a completion with that text; `body` set: those bytes as they are."""

    status: int = 200
    content: str | None = None
    body: bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    model: str = "fake-model-1"


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    json: Any
    at: float


def completion(content: str, model: str = "fake-model-1") -> bytes:
    return json.dumps(
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        }
    ).encode()


def asked_summary(request: Any) -> str:
    """A summary in the language and the format the system prompt of `request` asks for."""
    system = request["messages"][0]["content"]
    sentences = ARABIC_SENTENCES if "in Arabic" in system else ENGLISH_SENTENCES
    if "bullet" in system:
        return "\n".join(f"- {s}" for s in sentences)
    return " ".join(sentences)


class FakeUpstream:
    def __init__(self, tls: ssl.SSLContext | None = None) -> None:
        self.requests: list[Received] = []
        self.connections = 0
        self._script: deque[Answer] = deque()
        self.default: Answer | None = None  # None: a summary as asked
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_args: Any) -> None:  # quiet
                pass

            def setup(self) -> None:
                with fake._lock:
                    fake.connections += 1
                super().setup()

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                try:
                    doc = json.loads(raw)
                except ValueError:
                    doc = None
                answer = fake._received(Received(self.path, dict(self.headers.items()), doc, time.monotonic()))
                if answer.delay_s:
                    time.sleep(answer.delay_s)
                if answer.body is not None:
                    body = answer.body
                elif answer.status == 200:
                    body = completion(
                        answer.content if answer.content is not None else asked_summary(doc), answer.model
                    )
                else:
                    body = json.dumps({"error": {"code": f"status_{answer.status}", "message": "scripted"}}).encode()
                try:
                    self.send_response(answer.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    for name, value in answer.headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(body)
                except OSError:  # the client gave up (time-out test)
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        if tls is not None:  # an https upstream: each accepted connection does the TLS handshake
            self.server.socket = tls.wrap_socket(self.server.socket, server_side=True)
        self.port = self.server.server_address[1]
        self.url = f"{'https' if tls else 'http'}://127.0.0.1:{self.port}/v1"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()

    def _received(self, request: Received) -> Answer:
        with self._lock:
            self.requests.append(request)
            if self._script:
                return self._script.popleft()
            return self.default or Answer()

    def script(self, *answers: Answer) -> None:
        """The next requests get these answers, in order; then the default. Forgets earlier requests."""
        with self._lock:
            self._script = deque(answers)
            self.requests = []

    def reset(self) -> None:
        with self._lock:
            self._script.clear()
            self.requests = []
            self.connections = 0
            self.default = None

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
