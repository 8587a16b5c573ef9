"""PKCE (RFC 7636): a random verifier and its S256 challenge, base64url without padding."""

from __future__ import annotations

import base64
import hashlib
import secrets
from dataclasses import dataclass


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


@dataclass(frozen=True)
class Pkce:
    """A code verifier and the challenge sent in the authorisation URL."""

    verifier: str
    challenge: str


def s256_challenge(verifier: str) -> str:
    """Return the S256 code challenge of `verifier`."""
    return _b64url(hashlib.sha256(verifier.encode("ascii")).digest())


def generate_pkce() -> Pkce:
    """Return a fresh verifier (32 random bytes, as pi draws) and its challenge."""
    verifier = _b64url(secrets.token_bytes(32))
    return Pkce(verifier, s256_challenge(verifier))
