"""Application-default credentials for Vertex AI: an access token, cached until it expires.

The credentials file is `$GOOGLE_APPLICATION_CREDENTIALS`, else gcloud's
`~/.config/gcloud/application_default_credentials.json`. An `authorized_user` file (what
`gcloud auth application-default login` writes) is exchanged here, over plain HTTP, at the
file's `token_uri` (Google's token endpoint when the file names none). A `service_account` key
needs a signed JWT: that goes through the `google-auth` library, from the optional extra
`pi-plugin-google[vertex]`.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from pi_core.abort import AbortSignal

TOKEN_URI = "https://oauth2.googleapis.com/token"
SCOPE = "https://www.googleapis.com/auth/cloud-platform"
_EARLY = 60.0
"""A token is renewed this many seconds before it expires."""


class CredentialsError(Exception):
    """The application-default credentials are missing, unreadable or refused."""


@dataclass
class AccessToken:
    """A bearer token, when it stops being usable, and the project its use is billed to."""

    token: str
    expires_at: float
    quota_project: str | None = None


_cache: dict[tuple[str, float], AccessToken] = {}


def credentials_path() -> Path:
    """Where the credentials are read from (the file may not exist)."""
    explicit = os.environ.get("GOOGLE_APPLICATION_CREDENTIALS")
    if explicit:
        return Path(explicit)
    return Path.home() / ".config" / "gcloud" / "application_default_credentials.json"


def _read(path: Path) -> dict[str, Any]:
    try:
        info = json.loads(path.read_text())
    except FileNotFoundError:
        raise CredentialsError(
            f"No application-default credentials at {path}: run `gcloud auth "
            "application-default login`, set GOOGLE_APPLICATION_CREDENTIALS, or set "
            "GOOGLE_CLOUD_API_KEY"
        ) from None
    except (OSError, ValueError) as error:
        raise CredentialsError(f"Cannot read the credentials file {path}: {error}") from None
    if not isinstance(info, dict):
        raise CredentialsError(f"The credentials file {path} is not a JSON object")
    return info


async def _refresh_user(info: dict[str, Any], signal: AbortSignal | None) -> AccessToken:
    """Exchange an `authorized_user` refresh token for an access token."""
    from pi_core.ai.http import ProviderHTTPError, open_stream, read_json

    missing = [k for k in ("client_id", "client_secret", "refresh_token") if not info.get(k)]
    if missing:
        raise CredentialsError(f"The credentials file lacks {', '.join(missing)}")
    form = {
        "grant_type": "refresh_token",
        "client_id": info["client_id"],
        "client_secret": info["client_secret"],
        "refresh_token": info["refresh_token"],
    }
    headers = {"content-type": "application/x-www-form-urlencoded", "accept": "application/json"}
    uri = str(info.get("token_uri") or TOKEN_URI)
    scheme, _, location = uri.partition("://")
    host, _, path = location.partition("/")
    try:
        async with open_stream(
            f"{scheme}://{host}", path, urlencode(form).encode(), headers, signal
        ) as resp:
            body = await read_json(resp)
    except ProviderHTTPError as error:
        raise CredentialsError(f"The token endpoint refused the refresh token: {error}") from None
    token = body.get("access_token") if isinstance(body, dict) else None
    if not isinstance(token, str) or not token:
        raise CredentialsError(f"The token endpoint sent no access_token: {body!r:.200}")
    lifetime = float(body.get("expires_in") or 3600)
    return AccessToken(token, time.time() + lifetime, info.get("quota_project_id"))


def _service_account_token(info: dict[str, Any]) -> AccessToken:
    """Sign a JWT for a service-account key with google-auth and exchange it (blocking)."""
    try:
        from google.auth.transport.requests import Request  # type: ignore[import-not-found]
        from google.oauth2 import service_account  # type: ignore[import-not-found]
    except ImportError:
        raise CredentialsError(
            "A service-account key needs the google-auth library: "
            "pip install 'pi-plugin-google[vertex]'"
        ) from None
    credentials = service_account.Credentials.from_service_account_info(info, scopes=[SCOPE])
    credentials.refresh(Request())
    expiry = credentials.expiry.timestamp() if credentials.expiry else time.time() + 3600
    return AccessToken(credentials.token, expiry, info.get("quota_project_id"))


async def access_token(signal: AbortSignal | None = None) -> AccessToken:
    """A valid access token from the application-default credentials (cached per file)."""
    path = credentials_path()
    try:
        stamp = path.stat().st_mtime
    except OSError:
        stamp = 0.0
    cached = _cache.get((str(path), stamp))
    if cached is not None and cached.expires_at - _EARLY > time.time():
        return cached
    info = _read(path)
    kind = info.get("type")
    if kind == "authorized_user":
        fresh = await _refresh_user(info, signal)
    elif kind == "service_account":
        fresh = await asyncio.to_thread(_service_account_token, info)
    else:
        raise CredentialsError(
            f"Unsupported credentials type {kind!r} in {path} "
            "(authorized_user and service_account are supported)"
        )
    _cache[(str(path), stamp)] = fresh
    return fresh
