"""Each request's id, its access line and its count in the metrics.

Every route's handler runs inside `traced`: it takes the client's `X-Request-ID` (1 to 200 visible ASCII
characters; anything else is replaced) or makes a UUID, sets it for the request's log lines (`tahqiq.logs`),
echoes it on the answer, and, with `TAHQIQ_ACCESS_LOG`, logs one line when the answer is ready: method, route
template, path, status, latency, client, request id and agent id. It is a plain wrapper around the handler, not a
BlackSheep middleware: one coroutine per request, not two.
"""

from __future__ import annotations

import itertools
import logging
import random
import re
import time
from collections.abc import Awaitable, Callable

from blacksheep import Request, Response

from tahqiq.logs import ACCESS_LOGGER, AGENT_ID, REQUEST_ID
from tahqiq.metrics import Metrics

Handler = Callable[[Request], Awaitable[Response]]
access_log = logging.getLogger(ACCESS_LOGGER)

REQUEST_ID_HEADER = b"x-request-id"
_GIVEN_ID = re.compile(rb"[!-~]{1,200}")


class RequestIds:
    """New request ids: UUID v4 strings, unique, not secret. Each worker draws 74 random bits once (its generator is
    seeded from the system when the worker creates this, after the fork) and counts in the last 48: a quarter of
    the cost of `uuid.uuid4()`, which asks the kernel for 16 bytes each time."""

    def __init__(self) -> None:
        bits = random.Random().getrandbits(80)
        # the 20 hex digits before the counter: digit 12 is the version (4), digit 16 starts with the variant (10)
        h = f"{(bits & ~(0xF << 28 | 0x3 << 14)) | (0x4 << 28 | 0x2 << 14):020x}"
        self._prefix = f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-"
        self._next = itertools.count(random.Random().getrandbits(47)).__next__

    def new(self) -> str:
        return f"{self._prefix}{self._next() & 0xFFFFFFFFFFFF:012x}"

    def of(self, request: Request) -> str:
        """The client's id when it is one we can echo and log safely, else a new one."""
        given = request.get_first_header(REQUEST_ID_HEADER)
        if given is not None and _GIVEN_ID.fullmatch(given):
            return given.decode("ascii")
        return self.new()


class Tracer:
    """What every handler does around its work: `begin` (the id, set for the request's log lines) and `end` (the
    id on the answer, the count and latency, the access line). Plain functions, called from the handler's own
    coroutine: a wrapping coroutine would cost more than all of this."""

    def __init__(self, metrics: Metrics, log_access: bool) -> None:
        self.metrics = metrics
        self.log_access = log_access
        self.ids = RequestIds()

    def begin(self, request: Request) -> str:
        rid = self.ids.of(request)
        REQUEST_ID.set(rid)  # each request runs in a task of its own: this is its context alone
        AGENT_ID.set(None)
        return rid

    def end(self, request: Request, response: Response, route: str, rid: str, started: float) -> Response:
        response.add_header(REQUEST_ID_HEADER, rid.encode("ascii"))
        seconds = time.perf_counter() - started
        self.metrics.observe_request(route, request.method, response.status, seconds)
        if self.log_access:
            _log(request, route, response.status, seconds, rid)
        return response

    def around(self, handler: Handler, route: str) -> Handler:
        """`handler` (which makes its own Response) with the request's id, count and access line."""

        async def run(request: Request) -> Response:
            started = time.perf_counter()
            rid = self.begin(request)
            return self.end(request, await handler(request), route, rid, started)

        return run


def _log(request: Request, route: str, status: int, seconds: float, rid: str) -> None:
    agent = AGENT_ID.get()
    fields = {
        "method": request.method,
        "route": route,
        "path": request.path,
        "status": status,
        "latency_ms": round(seconds * 1000, 3),
        "client": request.client_ip,
    }
    access_log.info(
        '%s - "%s %s HTTP/1.1" %d %.3f route=%s request_id=%s%s',
        request.client_ip,
        request.method,
        request.path,
        status,
        seconds * 1000,
        route,
        rid,
        f" agent_id={agent}" if agent else "",
        extra={"access": fields},
    )
