"""The docs document every setting, CLI command and endpoint that the code has; README.md stays short and starts
with the two commands. (mkdocs.yml's strict build, run by .ci/run, checks the links and anchors between pages.)"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from tahqiq.cli import build_parser
from tahqiq.config import Settings, describe
from tahqiq.web.app import create_app

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = ROOT / "docs"
OPERATIONS = (DOCS / "operations.md").read_text(encoding="utf-8")
CLI = (DOCS / "cli.md").read_text(encoding="utf-8")
API = {
    name: (DOCS / "api" / f"{name}.md").read_text(encoding="utf-8")
    for name in ("access", "summarize", "analysis", "openapi")
}


def _settings_table() -> dict[str, tuple[str, str]]:
    """The rows of the settings table in docs/operations.md: variable -> (default cell, meaning cell)."""
    section = OPERATIONS.split("\n## Settings\n", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, tuple[str, str]] = {}
    for line in section.splitlines():
        match = re.fullmatch(r"\| `([A-Z_]+)` \| (.*?) \| (.*) \|", line)
        if match:
            assert match[1] not in rows, f"{match[1]} is in the settings table twice"
            rows[match[1]] = (match[2], match[3])
    return rows


def test_every_setting_is_documented() -> None:
    """The table in docs/operations.md has one row per setting of config.py, no other, with its default and help
    as `describe()` gives them (a `|` of the help written `/`, since it would end the table cell)."""
    rows = _settings_table()
    settings = list(describe())
    for env, default, help_ in settings:
        assert env in rows, f"{env} is missing from the settings table in docs/operations.md"
        want = (f"`{default}`" if default else "(empty)", help_.replace("|", "/"))
        assert rows[env] == want, f"{env}: docs/operations.md says {rows[env]}, config.py says {want}"
    extra = set(rows) - {env for env, _default, _help in settings}
    assert not extra, f"docs/operations.md documents settings config.py does not have: {sorted(extra)}"


def test_every_cli_command_is_documented() -> None:
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, sub in commands.choices.items():
        actions = [a for a in sub._actions if isinstance(a, argparse._SubParsersAction)]
        if actions:
            for action in actions[0].choices:
                assert f"`tahqiq {name} {action}" in CLI, f"`tahqiq {name} {action}` is missing from docs/cli.md"
        else:
            assert f"`tahqiq {name}" in CLI, f"`tahqiq {name}` is missing from docs/cli.md"


def test_every_route_is_documented() -> None:
    app = create_app(Settings(database_url="sqlite:///:memory:", secret_key=b"k" * 32))
    app.router.apply_routes()  # BlackSheep registers routes lazily, at start
    assert sum(len(routes) for routes in app.router.routes.values()) >= 15
    api = "\n".join(API.values())
    for method, routes in app.router.routes.items():
        for route in routes:
            pattern = route.pattern.decode()
            assert f"{method.decode()} {pattern}`" in api or f"{pattern}`" in api, (
                f"{method.decode()} {pattern} is missing from docs/api/"
            )


def test_readme_is_short_and_starts_with_the_two_commands() -> None:
    lines = README.splitlines()
    assert len(lines) <= 250, f"README.md has {len(lines)} lines; the reference belongs in docs/"
    first_block = re.search(r"^```[a-z]*\n(.*?)^```", README, re.S | re.M)
    assert first_block is not None, "README.md has no code block"
    commands = [line.split("#", 1)[0].strip() for line in first_block[1].splitlines()]
    assert commands[:2] == ["pip install . && tahqiq serve", ".ci/run"], commands


def test_readme_links_into_docs() -> None:
    """Every docs/ page README.md links to exists, and every page under docs/ is linked from README.md or the index."""
    linked = set(re.findall(r"\]\((docs/[^)#\s]+)", README))
    assert linked, "README.md links to no page of docs/"
    for target in linked:
        assert (ROOT / target).is_file(), f"README.md links to {target}, which does not exist"
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    for page in DOCS.rglob("*.md"):
        rel = page.relative_to(DOCS).as_posix()
        assert f"docs/{rel}" in linked or f"]({rel}" in index or rel == "index.md", f"docs/{rel} is linked from nowhere"


def test_notes_moved_out_of_the_package() -> None:
    """NER.md and MORPHOLOGY.md are docs/design/ner.md and morphology.md now; the wheel carries no docs."""
    analysis = ROOT / "python" / "tahqiq" / "analysis"
    assert not (analysis / "NER.md").exists() and not (analysis / "MORPHOLOGY.md").exists()
    for name in ("ner", "relations", "morphology", "wsd", "summaries"):
        assert (DOCS / "design" / f"{name}.md").is_file()
