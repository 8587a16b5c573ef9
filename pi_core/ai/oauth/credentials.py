"""The subscription credential as pi stores it in auth.json.

`{"type": "oauth", "refresh": …, "access": …, "expires": <ms since the epoch>, …}`; a provider may
add fields (`accountId` for OpenAI Codex, `enterpriseUrl` for GitHub Copilot), kept as written.
"""

from __future__ import annotations

import time
from typing import Any

OAuthCredentials = dict[str, Any]
"""`refresh`, `access`, `expires` (ms) and any provider fields, without `type`."""


def now_ms() -> int:
    """Return the time in milliseconds since the epoch, pi's unit for `expires`."""
    return int(time.time() * 1000)


def is_oauth_entry(entry: object) -> bool:
    """Return whether an auth.json entry is a subscription login."""
    return isinstance(entry, dict) and entry.get("type") == "oauth"


def is_expired(entry: dict[str, Any], now: int | None = None) -> bool:
    """Return whether the entry's access token has expired (pi's test: now >= expires)."""
    expires = entry.get("expires")
    if not isinstance(expires, int | float):
        return True
    return (now if now is not None else now_ms()) >= expires


def to_entry(credentials: OAuthCredentials) -> dict[str, Any]:
    """Return the auth.json entry for `credentials`; unset (None) fields are left out, as
    JSON.stringify leaves out undefined ones."""
    fields = {k: v for k, v in credentials.items() if k != "type" and v is not None}
    return {"type": "oauth", **fields}
