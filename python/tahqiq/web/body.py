"""Reading requests: the body (bounded in size and time), headers, route values and query parameters.

The one reader of request bodies in the service; the JSON in them is parsed by `tahqiq.json_body`.
"""

from __future__ import annotations

import logging
from urllib.parse import parse_qs

from blacksheep import Request, Response
from blacksheep.contents import ASGIContent
from blacksheep.exceptions import MessageAborted

from tahqiq.problems import Problem
from tahqiq.web.deadlines import Deadlines

log = logging.getLogger("tahqiq")

CLIENT_CLOSED_REQUEST = 499
"""The status (nginx's) of a request whose client left before sending its whole body: nobody receives the answer,
but the access log shows it, as a client's doing and not a failure of the service."""


async def read_body(request: Request, limit: int, deadlines: Deadlines) -> bytes:
    """The request body, refusing (413) anything over `limit` bytes before reading it all, and (408) a body not
    complete `deadlines.timeout_s` seconds after this began reading it. A client that goes away raises
    `MessageAborted`.

    Reads the ASGI messages itself and stops once the declared Content-Length has arrived: granian sends a
    small body as one message marked `more_body` and then an empty last message, and waiting for that one
    (as `Request.read()` does) costs another hand-off between granian's runtime thread and the event loop, a
    sizeable share of a small POST's time (see docs/benchmarks.md, "Reading request bodies").
    """
    declared = request.get_first_header(b"content-length")
    expected = -1
    if declared is not None and declared.isdigit():
        expected = int(declared)
        if expected > limit:
            raise Problem("payload-too-large", f"the body is {expected} bytes; the limit is {limit} bytes")
        if expected == 0:
            return b""
    content = request.content
    if not isinstance(content, ASGIContent):  # a body BlackSheep already holds (not from a server)
        body = await request.read() or b""
        if len(body) > limit:
            raise Problem("payload-too-large", f"the body exceeds the limit of {limit} bytes")
        return body
    receive = content.receive
    chunks = []
    size = 0
    try:
        # Without a deadline a client that stops sending holds its connection, and a stopping server, for ever.
        with deadlines:
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":  # the client went away
                    # BlackSheep's own error for this (its stub has no __init__).
                    raise MessageAborted()  # type: ignore[no-untyped-call]
                chunk = message.get("body", b"")
                size += len(chunk)
                if size > limit:
                    raise Problem("payload-too-large", f"the body exceeds the limit of {limit} bytes")
                chunks.append(chunk)
                if size == expected or not message.get("more_body"):
                    return chunks[0] if len(chunks) == 1 else b"".join(chunks)
    except TimeoutError:
        # The rest of the body may still come: the connection cannot carry another request, so it is closed.
        detail = f"the body did not arrive in full within {deadlines.timeout_s:g} s ({size} bytes came)"
        raise Problem("request-timeout", detail, headers={"Connection": "close"}) from None


def header(request: Request, name: bytes) -> str | None:
    value = request.get_first_header(name)
    return value.decode("latin-1") if value is not None else None


def route_value(request: Request, name: str) -> str:
    return str(request.route_values[name])


def client_gone(request: Request) -> Response:
    """The answer to a request whose client went away: normal on the Internet, so one debug line, no traceback."""
    log.debug("client went away before sending the whole body of %s %s", request.method, request.path)
    return Response(CLIENT_CLOSED_REQUEST, None, None)


def query_value(request: Request, name: str) -> str | None:
    """A query parameter given at most once (422 when given twice), or None."""
    values = request.query.get(name)
    if not values:
        return None
    if len(values) > 1:
        raise Problem("validation-error", f"{name}: give it once", errors={name: ["given more than once"]})
    return values[0]


def query_lists(request: Request) -> dict[str, list[str]]:
    """Every query parameter with all its values, blank ones kept: `?mode=` is a mode given as "" (and refused as
    such), not a mode left out. (BlackSheep's `request.query` drops blank values.)"""
    return parse_qs(request.url.query.decode("utf-8", "replace"), keep_blank_values=True) if request.url.query else {}
