"""The credentials pi 0.73.1 reads from the environment for each provider (pi-ai's env-api-keys).

A provider's key variables come from the catalog (first set one wins). Two providers also accept
credentials that are not a key: Google Vertex (application-default credentials plus a project
and a location) and Amazon Bedrock (an AWS profile, access keys, a bearer token, a container or
web-identity role); for them pi answers `<authenticated>` and the provider signs requests itself.
"""

from __future__ import annotations

import os
from pathlib import Path

from pi_core.ai.catalog_data import catalog_providers

AUTHENTICATED = "<authenticated>"

_BEDROCK_ANY = (
    "AWS_PROFILE",
    "AWS_BEARER_TOKEN_BEDROCK",
    "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
    "AWS_CONTAINER_CREDENTIALS_FULL_URI",
    "AWS_WEB_IDENTITY_TOKEN_FILE",
)


def env_key_names(provider: str) -> list[str]:
    """The variables that may hold `provider`'s key, in pi's order ([] when pi knows none)."""
    known = catalog_providers().get(provider)
    return list(known.env) if known else []


def _set(name: str) -> bool:
    return bool(os.environ.get(name))


def _vertex_adc() -> bool:
    explicit = os.environ.get("GOOGLE_APPLICATION_CREDENTIALS")
    if explicit:
        return Path(explicit).exists()
    return (Path.home() / ".config" / "gcloud" / "application_default_credentials.json").exists()


def _vertex_ready() -> bool:
    project = _set("GOOGLE_CLOUD_PROJECT") or _set("GCLOUD_PROJECT")
    return project and _set("GOOGLE_CLOUD_LOCATION") and _vertex_adc()


def _bedrock_ready() -> bool:
    keys = _set("AWS_ACCESS_KEY_ID") and _set("AWS_SECRET_ACCESS_KEY")
    return keys or any(_set(name) for name in _BEDROCK_ANY)


def env_api_key(provider: str, extra: list[str] | None = None) -> str | None:
    """The key pi would take from the environment for `provider` (`<authenticated>` for cloud
    credentials); `extra` names further variables a plugin declared, tried after pi's."""
    names = env_key_names(provider)
    for name in names + [n for n in extra or [] if n not in names]:
        value = os.environ.get(name)
        if value:
            return value
    if provider == "google-vertex" and _vertex_ready():
        return AUTHENTICATED
    if provider == "amazon-bedrock" and _bedrock_ready():
        return AUTHENTICATED
    return None
