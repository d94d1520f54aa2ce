"""Secrets: agent API keys, application keys and the signing keys' encryption at rest.

API and app keys are a fixed prefix and 256 random bits (base64url, 43 characters). They are shown once and
stored as their SHA-256 hex digest, which is also how they are looked up. Signing keys (Ed25519) are stored
encrypted with AES-256-GCM under the settings' secret key.
"""

from __future__ import annotations

import hashlib
import re
import secrets

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

AGENT_KEY_PREFIX = "svc_agent_"
APP_KEY_PREFIX = "svc_app_"
_SUFFIX = re.compile(r"^[A-Za-z0-9_-]{43}$")
DISPLAY_CHARS = 6  # characters of the secret part kept in `key_prefix`, for people to tell keys apart


def new_secret(prefix: str) -> str:
    """A new credential: the prefix and 32 random bytes in base64url without padding."""
    return prefix + secrets.token_urlsafe(32)


def is_well_formed(key: str, prefix: str) -> bool:
    """Whether `key` has the shape of a credential with this prefix (checked before any lookup)."""
    return key.startswith(prefix) and bool(_SUFFIX.match(key[len(prefix) :]))


def key_hash(key: str) -> str:
    """SHA-256 hex digest of a credential: what the store keeps and looks up."""
    return hashlib.sha256(key.encode()).hexdigest()


def display_prefix(key: str, prefix: str) -> str:
    """The recognisable, non-secret start of a key, e.g. `svc_agent_Ab12Cd…`."""
    return key[: len(prefix) + DISPLAY_CHARS] + "…"


def encrypt_private_key(secret_key: bytes, kid: str, raw: bytes) -> bytes:
    """AES-256-GCM of a raw private key, bound to its kid; nonce first."""
    nonce = secrets.token_bytes(12)
    return nonce + AESGCM(secret_key).encrypt(nonce, raw, kid.encode())


def decrypt_private_key(secret_key: bytes, kid: str, blob: bytes) -> bytes:
    """The raw private key; raises ValueError when the secret key is not the one that encrypted it."""
    try:
        return AESGCM(secret_key).decrypt(blob[:12], blob[12:], kid.encode())
    except Exception as exc:  # cryptography raises InvalidTag
        raise ValueError(
            f"signing key {kid} cannot be decrypted: TAHQIQ_SECRET_KEY differs from the one that created it"
        ) from exc
