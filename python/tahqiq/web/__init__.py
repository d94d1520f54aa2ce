"""The HTTP face of tahqiq: BlackSheep routes over the areas (access, summarize, analysis).

`app.py` composes the service (settings, store, areas) and its routes; one module of routes per area
(`routes_access`, `routes_summarize`, `routes_analysis`) parses each request, calls a domain function and renders
its reply or its `Problem`; `body.py` is the one reader of request bodies and headers. Nothing below this package
imports BlackSheep or reads the environment.
"""
