"""Area C's routes: each analysis operation as GET (query string) and POST (JSON body), and the lemma and sense
entries. The parameters are parsed here; the operation runs on the analysis workers, never on the event loop."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from blacksheep import Request
from blacksheep.server.routing import Router

from tahqiq.analysis.params import OPERATION_FIELDS, Params
from tahqiq.analysis.runner import AnalysisCall, AnalysisRunner, Operation
from tahqiq.reply import Reply
from tahqiq.web.body import header, query_lists, route_value

if TYPE_CHECKING:
    from tahqiq.web.service import Service


class AnalysisRoutes:
    def __init__(self, service: Service, runner: AnalysisRunner) -> None:
        self.service = service
        self.runner = runner

    async def _analyze(self, request: Request, operation: Operation, allowed: frozenset[str], key: str = "") -> Reply:
        service = self.service
        if service.settings.require_app_key:
            await service.access.app_for_key(header(request, b"x-service-app-key"), request.client_ip, time.time())
        if request.method == "GET":
            params = Params.from_query(query_lists(request), allowed)
        else:
            params = Params.from_json(await service.body(request), allowed)
        call = AnalysisCall(operation, params, service.base_url(request), key, fallbacks=request.method == "GET")
        return Reply(200, await self.runner.perform(call))

    async def dialect_lookup(self, request: Request) -> Reply:
        return await self._analyze(request, "lookup", OPERATION_FIELDS["lookup"])

    async def dialect_glossary(self, request: Request) -> Reply:
        return await self._analyze(request, "glossary", OPERATION_FIELDS["glossary"])

    async def morph(self, request: Request) -> Reply:
        return await self._analyze(request, "morph", OPERATION_FIELDS["morph"])

    async def ner(self, request: Request) -> Reply:
        return await self._analyze(request, "ner", OPERATION_FIELDS["ner"])

    async def wsd(self, request: Request) -> Reply:
        return await self._analyze(request, "wsd", OPERATION_FIELDS["wsd"])

    async def relations(self, request: Request) -> Reply:
        return await self._analyze(request, "re", OPERATION_FIELDS["re"])

    async def lemma(self, request: Request) -> Reply:
        return await self._analyze(request, "lemma", frozenset(), route_value(request, "lemma_id"))

    async def sense(self, request: Request) -> Reply:
        return await self._analyze(request, "sense", frozenset(), route_value(request, "sense_id"))


def register(service: Service, route: Router) -> None:
    assert service.analysis is not None
    routes = AnalysisRoutes(service, service.analysis)
    guarded = service.guarded
    for path, handler in (
        ("/dialect/corpus", routes.dialect_lookup),
        ("/dialect/corpus/glossary", routes.dialect_glossary),
        ("/morph", routes.morph),
        ("/ner", routes.ner),
        ("/wsd", routes.wsd),
        ("/re", routes.relations),
    ):
        route.add_get(path, guarded(handler, path))
        route.add_post(path, guarded(handler, path))
    for path, entry in (("/lexicon/lemmas/{lemma_id}", routes.lemma), ("/lexicon/senses/{sense_id}", routes.sense)):
        route.add_get(path, guarded(entry, path))
