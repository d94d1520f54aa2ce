"""The service's description and its interactive page: `GET /openapi.json`, `GET /docs` and the page's files.

The page is Swagger UI from the installed `swagger-ui-py` package (its static files, read in place; nothing is
copied into this repository and nothing is fetched from a CDN), around this server's own `/openapi.json`.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import TYPE_CHECKING

import orjson
from blacksheep import Content, Request, Response
from blacksheep.server.routing import Router

from tahqiq.problems import Problem
from tahqiq.reply import Reply
from tahqiq.web.body import route_value
from tahqiq.web.openapi import DOCS_ASSETS, service_document

if TYPE_CHECKING:
    from tahqiq.web.service import Service

PAGE_DIR = Path(__file__).with_name("docs_page")
MEDIA_TYPES = {".js": b"text/javascript; charset=utf-8", ".css": b"text/css; charset=utf-8", ".png": b"image/png"}


def swagger_ui_dir() -> Path:
    """The static files of the installed swagger-ui-py, found without importing it (its package imports jinja2)."""
    spec = importlib.util.find_spec("swagger_ui")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the swagger-ui-py package is not installed: pip install swagger-ui-py")
    return Path(next(iter(spec.submodule_search_locations))) / "static"


class DocsRoutes:
    def __init__(self, service: Service) -> None:
        self.service = service
        self._documents: dict[tuple[str, ...], bytes] = {}
        self._files: dict[str, bytes] = {}

    def _corpora(self) -> tuple[str, ...]:
        """The dialect corpora the analysis workers reported when they loaded (none before)."""
        analysis = self.service.analysis
        return tuple(analysis.sizes.get("corpora", {})) if analysis is not None else ()

    async def openapi(self, _request: Request) -> Reply:
        corpora = self._corpora()
        body = self._documents.get(corpora)
        if body is None:
            body = orjson.dumps(service_document(self.service.settings, self.service.interface_version, corpora))
            self._documents[corpora] = body
        return Reply(200, body)

    async def page(self, _request: Request) -> Response:
        return Response(200, None, Content(b"text/html; charset=utf-8", self._file("index.html", PAGE_DIR)))

    async def asset(self, request: Request) -> Response:
        name = route_value(request, "asset")
        if name not in DOCS_ASSETS:
            return self.service.problem(request, Problem("not-found", f"the docs page has no file {name!r}"))
        folder = PAGE_DIR if (PAGE_DIR / name).is_file() else swagger_ui_dir()
        media = MEDIA_TYPES[Path(name).suffix]
        return Response(200, [(b"cache-control", b"public, max-age=3600")], Content(media, self._file(name, folder)))

    def _file(self, name: str, folder: Path) -> bytes:
        data = self._files.get(name)
        if data is None:
            data = self._files[name] = (folder / name).read_bytes()
        return data


def register(service: Service, route: Router) -> None:
    routes = DocsRoutes(service)
    route.add_get("/openapi.json", service.guarded(routes.openapi, "/openapi.json"))
    route.add_get("/docs", service.raw(routes.page, "/docs"))
    route.add_get("/docs/assets/{asset}", service.raw(routes.asset, "/docs/assets/{asset}"))
