"""Each request's id, its access line and its count in the metrics.

Every route's handler runs inside `traced`: it takes the client's `X-Request-ID` (1 to 200 visible ASCII
characters; anything else is replaced) or makes a UUID, sets it for the request's log lines (`tahqiq.logs`),
echoes it on the answer, and, with `TAHQIQ_ACCESS_LOG`, logs one line when the answer is ready: method, route
template, path, status, latency, client, request id and agent id. It is a plain wrapper around the handler, not a
BlackSheep middleware: one coroutine per request, not two.
"""

from __future__ import annotations

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


# A request id needs to be unique, not secret: a UUID v4 from this process's own generator (seeded from the
# system's randomness when the worker creates it, after the fork) costs a quarter of `uuid.uuid4()`, which asks
# the kernel each time.
_V4_MASK = ~((0xF << 76) | (0x3 << 62)) & ((1 << 128) - 1)
_V4_BITS = (0x4 << 76) | (0x2 << 62)


class RequestIds:
    def __init__(self) -> None:
        self._bits = random.Random().getrandbits

    def new(self) -> str:
        h = f"{(self._bits(128) & _V4_MASK) | _V4_BITS:032x}"
        return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"

    def of(self, request: Request) -> str:
        """The client's id when it is one we can echo and log safely, else a new one."""
        given = request.get_first_header(REQUEST_ID_HEADER)
        if given is not None and _GIVEN_ID.fullmatch(given):
            return given.decode("ascii")
        return self.new()


def traced(handler: Handler, route: str, log_access: bool, metrics: Metrics, ids: RequestIds) -> Handler:
    async def run(request: Request) -> Response:
        started = time.perf_counter()
        rid = ids.of(request)
        REQUEST_ID.set(rid)  # each request runs in a task of its own: this is its context alone
        AGENT_ID.set(None)
        response = await handler(request)
        response.add_header(REQUEST_ID_HEADER, rid.encode("ascii"))
        seconds = time.perf_counter() - started
        metrics.observe_request(route, request.method, response.status, seconds)
        if log_access:
            _log(request, route, response.status, seconds, rid)
        return response

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
