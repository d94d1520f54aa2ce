"""README.md documents every setting, CLI command and endpoint that the code has."""

from __future__ import annotations

import argparse
from pathlib import Path

from tahqiq.cli import build_parser
from tahqiq.config import Settings, describe
from tahqiq.web.app import create_app

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def test_every_setting_is_documented() -> None:
    for env, _default, _help in describe():
        assert f"`{env}`" in README, f"{env} is missing from README.md"


def test_every_cli_command_is_documented() -> None:
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, sub in commands.choices.items():
        actions = [a for a in sub._actions if isinstance(a, argparse._SubParsersAction)]
        if actions:
            for action in actions[0].choices:
                assert f"tahqiq {name} {action}" in README, f"`tahqiq {name} {action}` is missing from README.md"
        else:
            assert f"tahqiq {name}" in README, f"`tahqiq {name}` is missing from README.md"


def test_every_route_is_documented() -> None:
    app = create_app(Settings(database_url="sqlite:///:memory:", secret_key=b"k" * 32))
    app.router.apply_routes()  # BlackSheep registers routes lazily, at start
    assert sum(len(routes) for routes in app.router.routes.values()) >= 15
    for method, routes in app.router.routes.items():
        for route in routes:
            pattern = route.pattern.decode()
            assert f"{method.decode()} {pattern}`" in README or f"{pattern}`" in README, (
                f"{method.decode()} {pattern} is missing from README.md"
            )
