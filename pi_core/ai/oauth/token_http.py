"""The few HTTP calls OAuth needs (token exchange, refresh, device code), synchronous and short."""

from __future__ import annotations

import json
from typing import Any

from pi_core.ai.oauth.errors import OAuthError

TIMEOUT_SECONDS = 30.0


def request_json(
    method: str,
    url: str,
    *,
    json_body: dict[str, Any] | None = None,
    form: dict[str, str] | None = None,
    headers: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Send one request and return its JSON object; any failure raises OAuthError."""
    import httpx

    sent = {"Accept": "application/json", **(headers or {})}
    try:
        response = httpx.request(
            method, url, json=json_body, data=form, headers=sent, timeout=TIMEOUT_SECONDS
        )
    except httpx.HTTPError as error:
        raise OAuthError(f"{method} {url} failed: {error}") from error
    if response.status_code >= 400:
        raise OAuthError(f"{method} {url}: HTTP {response.status_code}: {response.text[:500]}")
    try:
        data = response.json()
    except json.JSONDecodeError as error:
        raise OAuthError(f"{method} {url}: invalid JSON: {response.text[:200]}") from error
    if not isinstance(data, dict):
        raise OAuthError(f"{method} {url}: expected a JSON object")
    return data
