"""The agents' and applications' client library (blocking and asyncio), on httpx.

    from tahqiq.client import AgentClient
    with AgentClient("http://127.0.0.1:8000", api_key) as agent:
        accepted = agent.submit("split", [{"text": "..."}])
        done = agent.wait(accepted.submission_id)

Every call retries what may succeed on a later attempt (connection errors, time-outs, 409 in flight, 429, 502, 503,
504; `Retry-After` honoured), with the same Idempotency-Key for every attempt of one submission, so that work is
stored exactly once. The reference is docs/api/client.md.
"""

from tahqiq.client._shared import Artifact, Claim, ClientError, Submission, Verification
from tahqiq.client.aio import AsyncAgentClient, AsyncAppClient
from tahqiq.client.sync import AgentClient, AppClient

__all__ = [
    "AgentClient",
    "AppClient",
    "Artifact",
    "AsyncAgentClient",
    "AsyncAppClient",
    "Claim",
    "ClientError",
    "Submission",
    "Verification",
]
