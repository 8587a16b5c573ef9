"""Where a Gemini request goes and with which headers: the Gemini API, or Vertex AI (an API key,
or application-default credentials with a project and a location)."""

from __future__ import annotations

import os
import re

from pi_core import __version__
from pi_core.providers import Model, StreamOptions, WireRequest
from pi_plugin_google.adc import access_token

GEMINI_BASE_URL = "https://generativelanguage.googleapis.com/v1beta"
VERTEX_GLOBAL_URL = "https://aiplatform.googleapis.com"
VERTEX_VERSION = "v1"
STREAM = ":streamGenerateContent?alt=sse"
USER_AGENT = f"pi-harness/{__version__}"
_MULTI_REGIONAL = ("us", "eu")
_NOT_A_KEY = re.compile(r"^<[^>]+>$")
"""A placeholder such as `<authenticated>`: the key of ADC credentials, not an API key."""


def _headers(model: Model, options: StreamOptions, auth: dict[str, str]) -> dict[str, str]:
    headers = {"content-type": "application/json", "user-agent": USER_AGENT, **auth}
    for source in (model.headers, options.headers):
        for name, value in (source or {}).items():
            headers[name.lower()] = value
    return headers


def gemini_request(model: Model, options: StreamOptions, body: bytes) -> WireRequest:
    """The Gemini API: `{base}/models/{id}:streamGenerateContent?alt=sse` with `x-goog-api-key`
    (the base URL carries the API version, as the catalog's does)."""
    base = model.base_url or GEMINI_BASE_URL
    headers = _headers(model, options, {"x-goog-api-key": options.api_key or ""})
    return WireRequest(base, f"models/{model.id}{STREAM}", body, headers)


def vertex_api_key(options: StreamOptions) -> str | None:
    """The Vertex API key: the request's, else `$GOOGLE_CLOUD_API_KEY` (placeholders are none)."""
    for candidate in (options.api_key, os.environ.get("GOOGLE_CLOUD_API_KEY")):
        key = (candidate or "").strip()
        if key and key != "gcp-vertex-credentials" and not _NOT_A_KEY.match(key):
            return key
    return None


def _custom_base(model: Model) -> str | None:
    """A base URL set in models.json; the catalog's `https://{location}-…` one is not custom."""
    base = (model.base_url or "").strip()
    return base if base and "{location}" not in base else None


def _collection_path(base: str | None, model_id: str) -> str:
    version = "" if base and re.search(r"(?:^|/)v\d+(?:beta\d*)?(?:/|$)", base) else "v1/"
    return f"{version}publishers/google/models/{model_id}{STREAM}"


def _project() -> str:
    project = os.environ.get("GOOGLE_CLOUD_PROJECT") or os.environ.get("GCLOUD_PROJECT")
    if not project:
        raise ValueError(
            "Vertex AI requires a project ID. Set GOOGLE_CLOUD_PROJECT/GCLOUD_PROJECT or pass "
            "project in options."
        )
    return project


def _location() -> str:
    location = os.environ.get("GOOGLE_CLOUD_LOCATION")
    if not location:
        raise ValueError(
            "Vertex AI requires a location. Set GOOGLE_CLOUD_LOCATION or pass location in options."
        )
    return location


def _regional_base(location: str) -> str:
    if location == "global":
        return VERTEX_GLOBAL_URL
    if location in _MULTI_REGIONAL:
        return f"https://aiplatform.{location}.rep.googleapis.com"
    return f"https://{location}-aiplatform.googleapis.com"


async def vertex_request(model: Model, options: StreamOptions, body: bytes) -> WireRequest:
    """Vertex AI: with an API key, the global publisher path and `x-goog-api-key`; else a bearer
    token from the application-default credentials and the project's and location's path. A
    base URL of models.json is used as it is, without the project path (as pi's SDK does)."""
    custom = _custom_base(model)
    key = vertex_api_key(options)
    if key is not None:
        headers = _headers(model, options, {"x-goog-api-key": key})
        path = _collection_path(custom, model.id)
        return WireRequest(custom or VERTEX_GLOBAL_URL, path, body, headers)
    project, location = _project(), _location()
    token = await access_token(options.signal)
    auth = {"authorization": f"Bearer {token.token}"}
    if token.quota_project:
        auth["x-goog-user-project"] = token.quota_project
    headers = _headers(model, options, auth)
    if custom is not None:
        return WireRequest(custom, _collection_path(custom, model.id), body, headers)
    path = (
        f"{VERTEX_VERSION}/projects/{project}/locations/{location}/publishers/google/models/"
        f"{model.id}{STREAM}"
    )
    return WireRequest(_regional_base(location), path, body, headers)
