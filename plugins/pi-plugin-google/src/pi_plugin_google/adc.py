"""Application-default credentials for Vertex AI: an access token, cached until it expires.

The credentials file is `$GOOGLE_APPLICATION_CREDENTIALS`, else gcloud's
`~/.config/gcloud/application_default_credentials.json`. Its credentials are exchanged for an
access token with one form POST (over the plugin's own HTTP client) to the file's `token_uri`
(Google's token endpoint when the file names none): an `authorized_user` file (what `gcloud auth
application-default login` writes) sends its refresh token; a `service_account` key sends a JWT
signed with its private key (RS256), and only that signing uses a library, `google-auth`, from
the optional extra `pi-plugin-google[vertex]`."""

from __future__ import annotations

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


async def _exchange(
    uri: str, form: dict[str, str], quota_project: Any, signal: AbortSignal | None
) -> AccessToken:
    """POST a token request form to `uri`; return the access token it grants."""
    from pi_core.ai.http import ProviderHTTPError, open_stream, read_json

    headers = {"content-type": "application/x-www-form-urlencoded", "accept": "application/json"}
    scheme, _, location = uri.partition("://")
    host, _, path = location.partition("/")
    try:
        async with open_stream(
            f"{scheme}://{host}", path, urlencode(form).encode(), headers, signal
        ) as response:
            body = await read_json(response)
    except ProviderHTTPError as error:
        raise CredentialsError(
            f"The token endpoint {uri} refused the credentials: {error}"
        ) from None
    token = body.get("access_token") if isinstance(body, dict) else None
    if not isinstance(token, str) or not token:
        raise CredentialsError(f"The token endpoint {uri} sent no access_token: {body!r:.200}")
    lifetime = float(body.get("expires_in") or 3600)
    project = quota_project if isinstance(quota_project, str) and quota_project else None
    return AccessToken(token, time.time() + lifetime, project)


def _require(info: dict[str, Any], *fields: str) -> None:
    missing = [field for field in fields if not info.get(field)]
    if missing:
        raise CredentialsError(f"The credentials file lacks {', '.join(missing)}")


async def _authorized_user(info: dict[str, Any], signal: AbortSignal | None) -> AccessToken:
    """Exchange an `authorized_user` refresh token for an access token."""
    _require(info, "client_id", "client_secret", "refresh_token")
    form = {
        "grant_type": "refresh_token",
        "client_id": info["client_id"],
        "client_secret": info["client_secret"],
        "refresh_token": info["refresh_token"],
    }
    uri = str(info.get("token_uri") or TOKEN_URI)
    return await _exchange(uri, form, info.get("quota_project_id"), signal)


def signed_assertion(info: dict[str, Any], now: float) -> str:
    """A service account's RS256-signed JWT asking for the cloud-platform scope (google-auth)."""
    try:
        from google.auth import crypt, jwt  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise CredentialsError(
            "A service-account key needs the google-auth library: "
            "pip install 'pi-plugin-google[vertex]'"
        ) from None
    signer = crypt.RSASigner.from_service_account_info(info)  # type: ignore[no-untyped-call,unused-ignore]
    claims = {
        "iss": info["client_email"],
        "scope": SCOPE,
        "aud": str(info.get("token_uri") or TOKEN_URI),
        "iat": int(now),
        "exp": int(now) + 3600,
    }
    token = jwt.encode(signer, claims)  # type: ignore[no-untyped-call,unused-ignore]
    return token.decode() if isinstance(token, bytes) else str(token)


async def _service_account(info: dict[str, Any], signal: AbortSignal | None) -> AccessToken:
    """Exchange a signed JWT of a `service_account` key for an access token."""
    _require(info, "client_email", "private_key")
    form = {
        "grant_type": "urn:ietf:params:oauth:grant-type:jwt-bearer",
        "assertion": signed_assertion(info, time.time()),
    }
    uri = str(info.get("token_uri") or TOKEN_URI)
    return await _exchange(uri, form, info.get("quota_project_id"), signal)


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
        fresh = await _authorized_user(info, signal)
    elif kind == "service_account":
        fresh = await _service_account(info, signal)
    else:
        raise CredentialsError(
            f"Unsupported credentials type {kind!r} in {path} "
            "(authorized_user and service_account are supported)"
        )
    _cache[(str(path), stamp)] = fresh
    return fresh
