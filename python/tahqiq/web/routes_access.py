"""Area A's routes: minting, verification, submissions, claim queues, artifacts, and the documents that describe
them (manifest, OpenAPI, JWKS)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import orjson
from blacksheep import Request
from blacksheep.server.routing import Router

from tahqiq import __version__
from tahqiq.access.openapi import manifest_document, openapi_document
from tahqiq.access.service import submission_path_methods
from tahqiq.reply import Reply
from tahqiq.web.body import header, query_value, route_value

if TYPE_CHECKING:
    from tahqiq.web.service import Service


class AccessRoutes:
    def __init__(self, service: Service) -> None:
        self.service = service
        self.access = service.access
        self.keyring = service.keyring
        self._openapi = orjson.dumps(openapi_document(service.interface_version))
        self._manifest = orjson.dumps(manifest_document(__version__, service.interface_version))

    async def mint(self, request: Request) -> Reply:
        body = await self.service.body(request)
        return await self.access.mint(header(request, b"authorization"), body, request.client_ip, time.time())

    async def verify(self, request: Request) -> Reply:
        body = await self.service.body(request)
        return await self.access.verify(header(request, b"x-service-app-key"), body, request.client_ip, time.time())

    async def submit(self, request: Request) -> Reply:
        if "POST" not in submission_path_methods(route_value(request, "role_id")):
            raise self.service.method_not_allowed(request)
        body = await self.service.body(request)
        now = time.time()
        claims = await self.access.identify(header(request, b"x-service-agent-identity"), now)
        return await self.access.submit(
            claims,
            route_value(request, "role_id"),
            request.path,
            header(request, b"idempotency-key"),
            body,
            now,
        )

    async def _identified(self, request: Request) -> Any:
        return await self.access.identify(header(request, b"x-service-agent-identity"), time.time())

    async def submission_status(self, request: Request) -> Reply:
        if "GET" not in submission_path_methods(route_value(request, "submission_id")):
            raise self.service.method_not_allowed(request)
        claims = await self._identified(request)
        return await self.access.submission_status(claims, route_value(request, "submission_id"))

    async def pending(self, request: Request) -> Reply:
        claims = await self._identified(request)
        return await self.access.pending(claims, query_value(request, "limit"))

    async def ready(self, request: Request) -> Reply:
        claims = await self._identified(request)
        return await self.access.ready(claims, query_value(request, "limit"))

    async def artifacts(self, request: Request) -> Reply:
        claims = await self._identified(request)
        return await self.access.artifacts(claims, route_value(request, "claim_id"), query_value(request, "role_id"))

    async def openapi(self, _request: Request) -> Reply:
        return Reply(200, self._openapi)

    async def manifest(self, _request: Request) -> Reply:
        return Reply(200, self._manifest)

    async def jwks(self, _request: Request) -> Reply:
        await self.keyring.refresh_if_stale(time.time())
        return Reply(200, orjson.dumps(self.keyring.jwks()), {"Cache-Control": "public, max-age=60"})


def register(service: Service, route: Router) -> None:
    routes = AccessRoutes(service)
    core = "/agents/access-core"
    for method, path, handler in (
        ("GET", "/agents/manifest.json", routes.manifest),
        ("GET", "/agents/openapi.json", routes.openapi),
        ("POST", f"{core}/me/identity-token", routes.mint),
        ("POST", f"{core}/verify-identity", routes.verify),
        ("POST", f"{core}/submissions/{{role_id}}", routes.submit),
        ("GET", f"{core}/submissions/{{submission_id}}", routes.submission_status),
        ("GET", f"{core}/claims/pending", routes.pending),
        ("GET", f"{core}/claims/ready_for_verdict", routes.ready),
        ("GET", f"{core}/claims/{{claim_id}}/artifacts", routes.artifacts),
        ("GET", "/.well-known/jwks.json", routes.jwks),
    ):
        route.add(method, path, service.guarded(handler, path))
