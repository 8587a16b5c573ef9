"""Where an Azure OpenAI request goes: base URL, api-version and deployment, as pi resolves them.

The environment comes first (`AZURE_OPENAI_BASE_URL`, else `AZURE_OPENAI_RESOURCE_NAME`), then the
model's base URL (models.json); an Azure host's bare URL gets `/openai/v1`. The deployment is the
model id unless `AZURE_OPENAI_DEPLOYMENT_NAME_MAP` (`model=deployment,…`) names another.
"""

from __future__ import annotations

import os
from urllib.parse import quote, urlsplit, urlunsplit

from pi_core.providers import Model

DEFAULT_API_VERSION = "v1"
_AZURE_HOSTS = (".openai.azure.com", ".cognitiveservices.azure.com")
MISSING_BASE_URL = (
    "Azure OpenAI base URL is required. Set AZURE_OPENAI_BASE_URL or AZURE_OPENAI_RESOURCE_NAME, "
    "or set the provider's baseUrl in models.json."
)


def deployment_map(value: str | None) -> dict[str, str]:
    """Parse `model=deployment,…` (entries without both halves are skipped)."""
    mapping: dict[str, str] = {}
    for entry in (value or "").split(","):
        model_id, _, deployment = entry.strip().partition("=")
        if model_id.strip() and deployment.strip():
            mapping[model_id.strip()] = deployment.strip()
    return mapping


def deployment_name(model: Model) -> str:
    """Return the deployment the request names as its `model`."""
    mapped = deployment_map(os.environ.get("AZURE_OPENAI_DEPLOYMENT_NAME_MAP")).get(model.id)
    return mapped or model.id


def normalize_base_url(base_url: str) -> str:
    """Strip trailing slashes; an Azure host's bare (or `/openai`) URL gets `/openai/v1`."""
    trimmed = base_url.strip().rstrip("/")
    parts = urlsplit(trimmed)
    if not parts.scheme or not parts.netloc:
        raise ValueError(f"Invalid Azure OpenAI base URL: {base_url}")
    path = parts.path.rstrip("/")
    if (parts.hostname or "").endswith(_AZURE_HOSTS) and path in ("", "/openai"):
        parts = parts._replace(path="/openai/v1", query="")
    return urlunsplit(parts).rstrip("/")


def base_url(model: Model) -> str:
    """Return the resolved, normalised base URL (raises when there is none)."""
    explicit = os.environ.get("AZURE_OPENAI_BASE_URL", "").strip()
    resource = os.environ.get("AZURE_OPENAI_RESOURCE_NAME")
    url = explicit or (f"https://{resource}.openai.azure.com/openai/v1" if resource else "")
    url = url or model.base_url
    if not url:
        raise ValueError(MISSING_BASE_URL)
    return normalize_base_url(url)


def responses_path() -> str:
    """Return the Responses path with the `api-version` query (`AZURE_OPENAI_API_VERSION`, else
    `v1`)."""
    version = os.environ.get("AZURE_OPENAI_API_VERSION") or DEFAULT_API_VERSION
    return f"responses?api-version={quote(version, safe='')}"
