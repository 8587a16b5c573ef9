"""Authenticating a Bedrock request as pi does: a bearer token, else AWS Signature Version 4.

`AWS_BEARER_TOKEN_BEDROCK` goes as `Authorization: Bearer` unsigned. Otherwise the request is
signed with botocore's SigV4 signer (service `bedrock`) and credentials from botocore's chain:
the environment's keys, `AWS_PROFILE`'s files, container and web-identity roles.
`AWS_BEDROCK_SKIP_AUTH=1` signs with dummy keys for proxies that need none. botocore is imported
when the first request is signed, never at start-up.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from pi_plugin_bedrock.endpoint import DEFAULT_REGION, Endpoint, regional_url

_SIGNING_NAME = "bedrock"
_SESSIONS: dict[tuple[str | None, ...], Any] = {}
_ENV_KEYS = (
    "AWS_PROFILE",
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_CONFIG_FILE",
    "AWS_SHARED_CREDENTIALS_FILE",
    "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
    "AWS_CONTAINER_CREDENTIALS_FULL_URI",
    "AWS_WEB_IDENTITY_TOKEN_FILE",
    "AWS_ROLE_ARN",
)


class NoCredentials(Exception):
    """No AWS credentials could be found for signing."""


def bearer_token() -> str | None:
    """The Bedrock API key pi would use, unless `AWS_BEDROCK_SKIP_AUTH=1`."""
    if os.environ.get("AWS_BEDROCK_SKIP_AUTH") == "1":
        return None
    return os.environ.get("AWS_BEARER_TOKEN_BEDROCK") or None


def _session() -> Any:
    """One botocore session per set of credential variables (it caches refreshable roles)."""
    import botocore.session

    key = tuple(os.environ.get(name) for name in _ENV_KEYS)
    session = _SESSIONS.get(key)
    if session is None:
        session = _SESSIONS[key] = botocore.session.Session()
    return session


def _credentials() -> Any:
    """Frozen credentials from botocore's chain (dummy ones with `AWS_BEDROCK_SKIP_AUTH=1`)."""
    from botocore.credentials import Credentials

    if os.environ.get("AWS_BEDROCK_SKIP_AUTH") == "1":
        return Credentials("dummy-access-key", "dummy-secret-key").get_frozen_credentials()
    found = _session().get_credentials()
    if found is None:
        raise NoCredentials(
            "No AWS credentials found: set AWS_PROFILE, AWS_ACCESS_KEY_ID and "
            "AWS_SECRET_ACCESS_KEY, or AWS_BEARER_TOKEN_BEDROCK"
        )
    return found.get_frozen_credentials()


def _profile_region() -> str:
    region = _session().get_config_variable("region")
    return str(region) if region else DEFAULT_REGION


def sign(url: str, body: bytes, headers: dict[str, str], region: str, credentials: Any) -> None:
    """Add SigV4 headers (`X-Amz-Date`, `Authorization`, a session token) to `headers`."""
    from botocore.auth import SigV4Auth
    from botocore.awsrequest import AWSRequest

    request = AWSRequest(method="POST", url=url, data=body, headers=dict(headers))
    SigV4Auth(credentials, _SIGNING_NAME, region).add_auth(request)
    for name, value in request.headers.items():
        headers[name.lower()] = value


def _finish(endpoint: Endpoint, path: str, body: bytes, headers: dict[str, str]) -> str:
    """Resolve the region, authenticate `headers` in place, return the base URL (blocking)."""
    region = endpoint.region or _profile_region()
    base_url = endpoint.base_url or regional_url(region)
    token = bearer_token()
    if token is not None:
        headers["authorization"] = f"Bearer {token}"
    else:
        url = f"{base_url.rstrip('/')}/{path}"
        sign(url, body, headers, region, _credentials())
    return base_url


async def authenticate(endpoint: Endpoint, path: str, body: bytes, headers: dict[str, str]) -> str:
    """Authenticate the request (credentials may need files or a network call: off the loop)."""
    if endpoint.region is not None and bearer_token() is not None:
        return _finish(endpoint, path, body, headers)  # nothing to read or sign
    return await asyncio.to_thread(_finish, endpoint, path, body, headers)
