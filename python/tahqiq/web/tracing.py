"""Each request's id and its access line.

Every route's handler runs inside `traced`: it takes the client's `X-Request-ID` (1 to 200 visible ASCII
characters; anything else is replaced) or makes a UUID, sets it for the request's log lines (`tahqiq.logs`),
echoes it on the answer, and, with `TAHQIQ_ACCESS_LOG`, logs one line when the answer is ready: method, route
template, path, status, latency, client, request id and agent id. It is a plain wrapper around the handler, not a
BlackSheep middleware: one coroutine per request, not two.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Awaitable, Callable

from blacksheep import Request, Response

from tahqiq.logs import ACCESS_LOGGER, AGENT_ID, REQUEST_ID

Handler = Callable[[Request], Awaitable[Response]]
access_log = logging.getLogger(ACCESS_LOGGER)

REQUEST_ID_HEADER = b"x-request-id"
_GIVEN_ID = re.compile(rb"[!-~]{1,200}")


def request_id(request: Request) -> str:
    """The client's id when it is one we can echo and log safely, else a new UUID."""
    given = request.get_first_header(REQUEST_ID_HEADER)
    if given is not None and _GIVEN_ID.fullmatch(given):
        return given.decode("ascii")
    return str(uuid.uuid4())


def traced(handler: Handler, route: str, log_access: bool) -> Handler:
    async def run(request: Request) -> Response:
        started = time.perf_counter()
        rid = request_id(request)
        REQUEST_ID.set(rid)  # each request runs in a task of its own: this is its context alone
        AGENT_ID.set(None)
        response = await handler(request)
        response.add_header(REQUEST_ID_HEADER, rid.encode("ascii"))
        if log_access:
            _log(request, route, response.status, time.perf_counter() - started, rid)
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
