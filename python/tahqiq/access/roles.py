"""The four agent roles: their scopes, what their result items must look like, and how a claim moves on."""

from __future__ import annotations

from typing import Any

ROLES = ("claim_splitter", "evidence_seeker", "methodology_critic", "judge")

_SCOPES: dict[str, tuple[str, ...]] = {
    "claim_splitter": ("submissions:claim_splitter",),
    "evidence_seeker": ("claims:pending:read", "submissions:evidence_seeker"),
    "methodology_critic": ("claims:pending:read", "submissions:methodology_critic"),
    "judge": ("claims:ready_for_verdict:read", "claims:artifacts:read", "submissions:judge"),
}

PENDING_READERS = ("evidence_seeker", "methodology_critic")
EVIDENCE_ROLES = frozenset(PENDING_READERS)  # a claim is ready for a verdict once it has an artifact of each


def scopes_of(role_id: str) -> tuple[str, ...]:
    return _SCOPES[role_id]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def result_item_errors(role_id: str, index: int, item: Any) -> list[str]:
    """What is wrong with one result item for this role (empty when it is fine)."""
    where = f"results[{index}]"
    if not isinstance(item, dict):
        return [f"{where} must be an object"]
    errors = []
    if role_id == "claim_splitter":
        text = item.get("text")
        if not isinstance(text, str) or not text.strip():
            errors.append(f"{where}.text must be a non-empty string (the claim's text)")
    else:
        claim_id: Any = item.get("claim_id")
        if not (_is_int(claim_id) and 1 <= claim_id <= 2**63 - 1):
            errors.append(f"{where}.claim_id must be a positive integer naming a claim")
        if role_id == "judge":
            verdict = item.get("verdict")
            if not isinstance(verdict, str) or not verdict.strip():
                errors.append(f"{where}.verdict must be a non-empty string")
    return errors
