"""Identity tokens: EdDSA (Ed25519) JWTs with a `kid`, signed with keys every instance shares via the store.

Verification pins the algorithm, treats `kid` as untrusted input, checks `iss`, `exp`/`nbf`/`iat` with the
configured leeway and the claims tahqiq puts in. A verified token is remembered (bounded, per process) so that
the signature is checked once per token, not once per request; the checks that can change while a token lives
(revocation, agent status) are not cached: callers ask the store on every use.
"""

from __future__ import annotations

import asyncio
import base64
import time
import uuid
from dataclasses import dataclass
from typing import Any

import jwt
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat, PublicFormat

from tahqiq.access import ids
from tahqiq.access.coalesce import ReadCoalescer
from tahqiq.access.keys import decrypt_private_key, encrypt_private_key
from tahqiq.access.roles import ROLES, scopes_of
from tahqiq.store.protocol import Agent, Store

CONTRACT_VERSION = "v1"
MAX_TTL_S = 3600
_REQUIRED = ["exp", "iat", "nbf", "iss", "sub", "aud", "jti"]
_UNKNOWN_KID_REFRESH_S = 1.0  # at most one keyring reload per second when tokens name a kid we do not know
_KEYRING_REFRESH_S = 30.0  # picks up `tahqiq keys rotate` run elsewhere


class InvalidToken(Exception):
    """The token cannot be accepted; the message says why, in words fit for the client."""


@dataclass(frozen=True, slots=True)
class TokenClaims:
    agent_id: str
    role_id: str
    scopes: tuple[str, ...]
    audience: str
    jti: str
    issued_at: float
    expires_at: float
    contract_version: str


@dataclass(frozen=True, slots=True)
class MintedToken:
    token: str
    jti: str
    expires_at: float


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class Keyring:
    """The signing key (newest) and every public key that may still verify a live token."""

    def __init__(self, store: Store, secret_key: bytes, clock_skew_s: int) -> None:
        self._store = store
        self._secret_key = secret_key
        self._skew = clock_skew_s
        self._signing: tuple[str, Ed25519PrivateKey] | None = None
        self._public: dict[str, tuple[Ed25519PublicKey, float]] = {}  # kid -> (key, verifies until)
        self._jwks: dict[str, Any] = {"keys": []}
        self._loaded_at = 0.0
        self._lock = asyncio.Lock()
        # Every mint asks the store for the newest kid: concurrent mints share that read (no answer predates its mint).
        self._newest_kid: ReadCoalescer[None, str | None] = ReadCoalescer(self._read_newest_kid, "tahqiq-newest-kid")

    async def load(self, now: float) -> None:
        """Reads the keys from the store, creating the first one when there is none."""
        async with self._lock:
            keys = await self._store.signing_keys()
            if not keys:
                await rotate(self._store, self._secret_key, now)
                keys = await self._store.signing_keys()
            newest = keys[0]
            private = Ed25519PrivateKey.from_private_bytes(
                decrypt_private_key(self._secret_key, newest.kid, newest.private_key_enc)
            )
            public: dict[str, tuple[Ed25519PublicKey, float]] = {}
            for k in keys:
                until = float("inf") if k.retired_at is None else k.retired_at + MAX_TTL_S + self._skew
                if until >= now:
                    public[k.kid] = (Ed25519PublicKey.from_public_bytes(k.public_key), until)
            self._signing = (newest.kid, private)
            self._public = public
            self._jwks = {
                "keys": [
                    {
                        "kty": "OKP",
                        "crv": "Ed25519",
                        "alg": "EdDSA",
                        "use": "sig",
                        "kid": kid,
                        "x": _b64url(key.public_bytes(Encoding.Raw, PublicFormat.Raw)),
                    }
                    for kid, (key, _) in public.items()
                ]
            }
            self._loaded_at = time.monotonic()

    async def refresh_if_stale(self, now: float) -> None:
        """Reloads when a newer key was added (`tahqiq keys rotate`, here or elsewhere: one read) or the keyring
        is old enough for retired keys to have run out; so that the newest key signs from the moment it exists."""
        if time.monotonic() - self._loaded_at > _KEYRING_REFRESH_S:
            await self.load(now)
            return
        newest = await self._newest_kid.get(None)
        if newest is not None and (self._signing is None or newest != self._signing[0]):
            await self.load(now)

    async def _behind_the_store(self) -> bool:
        """The store's newest key is one this keyring has not loaded: two servers that start on an empty store both
        create a first key, and the one that loaded first knows only its own for a moment (one shared read of the
        newest kid, as a mint's, so that junk kids cost no reload)."""
        newest = await self._newest_kid.get(None)
        return newest is not None and newest not in self._public

    async def _read_newest_kid(self, _: None) -> str | None:
        keys = await self._store.signing_keys()
        return keys[0].kid if keys else None

    @property
    def signing(self) -> tuple[str, Ed25519PrivateKey]:
        if self._signing is None:
            raise RuntimeError("Keyring.load() has not run")
        return self._signing

    async def public_key(self, kid: str, now: float) -> Ed25519PublicKey | None:
        entry = self._public.get(kid)
        if entry is None and (
            time.monotonic() - self._loaded_at > _UNKNOWN_KID_REFRESH_S or await self._behind_the_store()
        ):
            await self.load(now)  # another instance may have rotated; bounded so junk kids cannot flood the store
            entry = self._public.get(kid)
        if entry is None or entry[1] < now:
            return None
        return entry[0]

    def jwks(self) -> dict[str, Any]:
        return self._jwks


async def rotate(store: Store, secret_key: bytes, now: float) -> str:
    """Adds a new signing key (the old ones keep verifying until their tokens have expired); returns its kid."""
    kid = str(uuid.uuid4())
    private = Ed25519PrivateKey.generate()
    raw = private.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
    public = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    await store.add_signing_key(kid, public, encrypt_private_key(secret_key, kid, raw), now)
    return kid


class TokenService:
    def __init__(self, keyring: Keyring, issuer: str, clock_skew_s: int, cache_size: int) -> None:
        self._keyring = keyring
        self._issuer = issuer
        self._skew = clock_skew_s
        self._cache_size = cache_size
        self._cache: dict[str, TokenClaims] = {}

    async def refresh_keys(self, now: float) -> None:
        """Picks up a signing-key rotation before minting (the keyring is otherwise loaded at start-up)."""
        await self._keyring.refresh_if_stale(now)

    def mint(self, agent: Agent, audience: str, ttl_s: int, now: float) -> MintedToken:
        kid, private = self._keyring.signing
        jti = ids.uuid4()
        issued = int(now)
        claims = {
            "iss": self._issuer,
            "sub": agent.agent_id,
            "aud": audience,
            "iat": issued,
            "nbf": issued,
            "exp": issued + ttl_s,
            "jti": jti,
            "role": agent.role_id,
            "scopes": list(scopes_of(agent.role_id)),
            "cv": CONTRACT_VERSION,
        }
        token = jwt.encode(claims, private, algorithm="EdDSA", headers={"kid": kid, "typ": "JWT"})
        return MintedToken(token=token, jti=jti, expires_at=float(issued + ttl_s))

    async def verify(self, token: str, now: float) -> TokenClaims:
        """The token's claims when its signature, algorithm, issuer and times are right; else InvalidToken.
        Audience, revocation and agent status are the caller's to check."""
        cached = self._cache.get(token)
        if cached is not None:
            if cached.expires_at + self._skew < now:
                del self._cache[token]
                raise InvalidToken("the token has expired; mint a new one")
            return cached
        claims = await self._verify_signature(token, now)
        if self._cache_size:
            if len(self._cache) >= self._cache_size:
                # Drop the oldest entry (dicts keep insertion order): a bounded, O(1) eviction.
                del self._cache[next(iter(self._cache))]
            self._cache[token] = claims
        return claims

    async def _verify_signature(self, token: str, now: float) -> TokenClaims:
        try:
            header = jwt.get_unverified_header(token)
        except jwt.PyJWTError:
            raise InvalidToken("the token is not a well-formed JWT; mint a new one") from None
        if header.get("alg") != "EdDSA":
            raise InvalidToken("the token's algorithm is not EdDSA; mint a new one")
        kid = header.get("kid")
        if not isinstance(kid, str) or not 0 < len(kid) <= 64:
            raise InvalidToken("the token has no valid key id; mint a new one")
        key = await self._keyring.public_key(kid, now)
        if key is None:
            raise InvalidToken("the token was signed with an unknown or retired key; mint a new one")
        try:
            payload = jwt.decode(
                token,
                key,
                algorithms=["EdDSA"],
                issuer=self._issuer,
                # The times are checked below against `now`, the clock every other check uses (PyJWT reads the
                # wall clock itself, which made the first verification and the cached ones disagree).
                options={
                    "require": _REQUIRED,
                    "verify_aud": False,
                    "verify_exp": False,
                    "verify_nbf": False,
                    "verify_iat": False,
                },
            )
        except jwt.InvalidSignatureError:
            raise InvalidToken("the token's signature is invalid; mint a new one") from None
        except jwt.PyJWTError as exc:
            raise InvalidToken(f"the token is invalid ({exc}); mint a new one") from None
        times: list[Any] = [payload.get(k) for k in ("exp", "nbf", "iat")]
        if not all(isinstance(t, int | float) and not isinstance(t, bool) for t in times):
            raise InvalidToken("the token's exp, nbf and iat must be numbers; mint a new one")
        exp, nbf, iat = (float(t) for t in times)
        if exp + self._skew < now:
            raise InvalidToken("the token has expired; mint a new one")
        if max(nbf, iat) - self._skew > now:
            raise InvalidToken("the token is not valid yet; check the clock, or mint a new one")
        role, scopes, aud, sub, jti = (payload.get(k) for k in ("role", "scopes", "aud", "sub", "jti"))
        if (
            role not in ROLES
            or not isinstance(scopes, list)
            or not all(isinstance(s, str) for s in scopes)
            or not isinstance(aud, str)
            or not isinstance(sub, str)
            or not isinstance(jti, str)
        ):
            raise InvalidToken("the token lacks the claims of a tahqiq identity token; mint a new one")
        return TokenClaims(
            agent_id=sub,
            role_id=role,
            scopes=tuple(scopes),
            audience=aud,
            jti=jti,
            issued_at=iat,
            expires_at=exp,
            contract_version=str(payload.get("cv", CONTRACT_VERSION)),
        )
