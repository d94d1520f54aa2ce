"""Area B's route: `POST /api/ai/summarize`."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from blacksheep import Request, Response
from blacksheep.exceptions import MessageAborted
from blacksheep.server.routing import Router

from tahqiq.problems import Problem
from tahqiq.summarize.service import STRATEGY_HEADER, SummarizeService
from tahqiq.web.body import client_gone, header

if TYPE_CHECKING:
    from tahqiq.web.service import Service

log = logging.getLogger("tahqiq")


class SummarizeRoutes:
    def __init__(self, service: Service, summarizer: SummarizeService) -> None:
        self.service = service
        self.summarizer = summarizer

    async def summarize(self, request: Request) -> Response:
        """Every answer names a strategy (the route that answered, failed, or would have been used) and, once
        the request is counted, carries the rate-limit headers; problems leave out `error_code`."""
        service, summarizer = self.service, self.summarizer
        headers = {STRATEGY_HEADER: summarizer.route}
        try:
            with service.in_flight:
                if service.settings.require_app_key:
                    key = header(request, b"x-service-app-key")
                    await service.access.app_for_key(key, request.client_ip, time.time())
                headers |= await summarizer.admit(header(request, b"x-service-app-key"), request.client_ip, time.time())
                body = await service.body(request)
                reply = await summarizer.summarize(summarizer.parse(header(request, b"content-type"), body))
        except Problem as problem:
            problem.headers = headers | problem.headers
            return service.problem(request, problem, error_code=False)
        except MessageAborted:
            return client_gone(request)
        except Exception:
            log.exception("unhandled error on %s %s", request.method, request.path)
            failure = Problem("internal-error", "the service failed; retry later", headers=headers)
            return service.problem(request, failure, error_code=False)
        reply.headers = headers | reply.headers
        return service.render(reply)


def register(service: Service, route: Router) -> None:
    assert service.summarizer is not None
    routes = SummarizeRoutes(service, service.summarizer)
    route.add_post("/api/ai/summarize", service.raw(routes.summarize, "/api/ai/summarize"))
