"""The client library and `tahqiq agent` against a real `tahqiq serve`: every role's work through the clients, a
revoked token replaced under the caller, verification by an app, and the shell commands with their mistakes."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tahqiq.client import AgentClient, AppClient, AsyncAgentClient, ClientError

from tests.support.e2e_support import Stack


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    folder = tmp_path_factory.mktemp("client")
    with Stack(f"sqlite:///{folder / 'tahqiq.db'}", TAHQIQ_SUBMISSION_RATE="10000/60s") as running:
        yield running


def client(stack: Stack, role: str) -> AgentClient:
    return AgentClient(stack.server.url, stack.agents[role]["api_key"])


def claims_with(claims: list[Any], text: str) -> list[int]:
    return [c["claim_id"] for c in claims if c["text"] == text]


def test_every_role_through_the_client(stack: Stack) -> None:
    text = "the earth is flat (client flow)"
    with (
        client(stack, "claim_splitter") as splitter,
        client(stack, "evidence_seeker") as seeker,
        client(stack, "methodology_critic") as critic,
        client(stack, "judge") as judge,
        AppClient(stack.server.url, stack.app["app_key"]) as app,
    ):
        split = splitter.submit("split", [{"text": text}], metadata={"source": "test"})
        assert split.status == "accepted" and not split.replayed
        assert splitter.wait(split.submission_id).status == "processed"

        [claim_id] = claims_with(seeker.pending(limit=500), text)
        assert claims_with(critic.pending(limit=500), text) == [claim_id]
        evidence = seeker.submit("evidence", [{"claim_id": claim_id, "source": "an atlas"}])
        critique = critic.submit("critique", [{"claim_id": claim_id, "note": "sound"}])
        for done in (seeker.wait(evidence.submission_id), critic.wait(critique.submission_id)):
            assert done.status == "processed"

        assert claims_with(judge.ready_for_verdict(limit=500), text) == [claim_id]
        roles = {a["role_id"] for a in judge.artifacts(claim_id)}
        assert roles == {"claim_splitter", "evidence_seeker", "methodology_critic"}
        [only] = judge.artifacts(claim_id, role_id="evidence_seeker")
        assert only["content"]["source"] == "an atlas"
        verdict = judge.submit("verdict", [{"claim_id": claim_id, "verdict": "false"}])
        assert judge.wait(verdict.submission_id).status == "processed"
        assert claims_with(judge.ready_for_verdict(limit=500), text) == []

        # a second verdict on a judged claim (no longer ready) is rejected, with the reason
        late = judge.submit("verdict", [{"claim_id": claim_id, "verdict": "true"}])
        rejected = judge.wait(late.submission_id)
        assert rejected.status == "rejected" and rejected.reason

        # the app verifies an agent's token
        checked = app.verify(judge.token())
        assert checked.valid and checked.role_id == "judge" and checked.agent_id == stack.agents["judge"]["agent_id"]
        assert checked.token_expiry is not None and checked.status == "active"
        refused = app.verify("not.a.token")
        assert not refused.valid and refused.error_code == "AUTH_INVALID" and refused.message


def test_the_wrong_role_and_an_unknown_submission_raise_client_errors(stack: Stack) -> None:
    with client(stack, "claim_splitter") as splitter:
        with pytest.raises(ClientError) as caught:
            splitter.pending()
        assert caught.value.status == 403 and caught.value.error_code == "FORBIDDEN"
        with pytest.raises(ClientError) as caught:
            splitter.submission("7f1c7d1e-3c1b-4b7e-9a43-0a1a7e0f1b2c")
        assert caught.value.status == 404 and caught.value.type and caught.value.type.endswith("/not-found")
        with pytest.raises(ClientError) as caught:
            splitter.submit("split", [{"no_text": 1}])
        assert caught.value.status == 400 and caught.value.errors


def jti_of(token: str) -> str:
    payload = token.split(".")[1]
    return str(json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))["jti"])


def test_a_revoked_token_is_replaced_once_and_the_call_succeeds(stack: Stack) -> None:
    with client(stack, "claim_splitter") as splitter:
        first = splitter.token()
        stack.cli("tokens", "revoke", jti_of(first))
        done = splitter.submit("split", [{"text": "after a revocation"}])
        assert done.status == "accepted"
        assert splitter.token() != first


def test_the_asyncio_client_submits_and_waits(stack: Stack) -> None:
    async def go() -> tuple[str, bool]:
        async with AsyncAgentClient(stack.server.url, stack.agents["claim_splitter"]["api_key"]) as splitter:
            key = "0b0a7f43-2c1e-4c39-9d7e-5c5f1f0e9a11"
            first = await splitter.submit("split", [{"text": "async claim"}], idempotency_key=key)
            again = await splitter.submit("split", [{"text": "async claim"}], idempotency_key=key)
            assert again.replayed and again.submission_id == first.submission_id
            return (await splitter.wait(first.submission_id)).status, first.replayed

    assert asyncio.run(go()) == ("processed", False)


def agent_cli(stack: Stack, role: str | None, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAHQIQ_")}
    env["TAHQIQ_URL"] = stack.server.url
    if role is not None:
        env["TAHQIQ_AGENT_KEY"] = stack.agents[role]["api_key"]
    return subprocess.run(
        [sys.executable, "-m", "tahqiq", "agent", *args],
        input=stdin,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_the_agent_command(stack: Stack, tmp_path: Path) -> None:
    token = agent_cli(stack, "claim_splitter", "token")
    assert token.returncode == 0 and json.loads(token.stdout)["token"].count(".") == 2

    results = json.dumps([{"text": "a claim from the shell"}])
    sent = agent_cli(stack, "claim_splitter", "submit", "--work-type", "split", "--results", "-", stdin=results)
    assert sent.returncode == 0, sent.stderr
    accepted = json.loads(sent.stdout)
    assert accepted["status"] == "accepted" and accepted["replayed"] is False

    status = agent_cli(stack, "claim_splitter", "status", accepted["submission_id"], "--wait")
    assert status.returncode == 0 and json.loads(status.stdout)["status"] == "processed"

    pending = agent_cli(stack, "evidence_seeker", "pending", "--limit", "500")
    assert pending.returncode == 0
    assert "a claim from the shell" in [c["text"] for c in json.loads(pending.stdout)]

    file = tmp_path / "results.json"
    file.write_text(results, encoding="utf-8")
    waited = agent_cli(stack, "claim_splitter", "submit", "--work-type", "split", "--results", str(file), "--wait")
    assert waited.returncode == 0 and json.loads(waited.stdout)["status"] == "processed"


@pytest.mark.parametrize(
    ("role", "args", "stdin", "says"),
    [
        (None, ["token"], "", "set TAHQIQ_AGENT_KEY"),
        ("claim_splitter", ["submit", "--work-type", "w", "--results", "-"], "[{", "--results: not JSON"),
        ("claim_splitter", ["submit", "--work-type", "w", "--results", "-"], "{}", "must hold a JSON array"),
        ("claim_splitter", ["submit", "--work-type", "w", "--results", "/no/such/file"], "", "cannot read"),
        ("claim_splitter", ["pending"], "", "403"),
    ],
)
def test_agent_command_mistakes_are_one_line(
    stack: Stack, role: str | None, args: list[str], stdin: str, says: str
) -> None:
    done = agent_cli(stack, role, *args, stdin=stdin)
    assert done.returncode != 0 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and says in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_a_wrong_key_is_one_line(stack: Stack) -> None:
    env_role = "claim_splitter"
    stack.agents["_wrong"] = {**stack.agents[env_role], "api_key": "svc_agent_" + "0" * 43}
    try:
        done = agent_cli(stack, "_wrong", "token")
    finally:
        del stack.agents["_wrong"]
    assert done.returncode == 1 and done.stderr.count("\n") == 1 and "401" in done.stderr
