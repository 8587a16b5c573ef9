"""Which Bedrock runtime endpoint and region a request goes to, decided as pi decides them.

A standard `bedrock-runtime.<region>.amazonaws.com` base URL (the catalog's) gives way to the
configured region (`AWS_REGION`, `AWS_DEFAULT_REGION`) or profile (`AWS_PROFILE`); any other base
URL (a proxy, a VPC endpoint, a local fake) is used as it is.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

DEFAULT_REGION = "us-east-1"
_STANDARD = re.compile(r"^bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?$")


@dataclass(frozen=True)
class Endpoint:
    """Where to post (base URL) and the region to sign for (None: the profile's)."""

    base_url: str
    region: str | None


def configured_region() -> str | None:
    """The region from the environment, as pi reads it."""
    return os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or None


def standard_region(base_url: str | None) -> str | None:
    """The region of a standard Bedrock runtime URL, else None."""
    if not base_url:
        return None
    host = (urlsplit(base_url).hostname or "").lower()
    match = _STANDARD.match(host)
    return match.group(1) if match else None


def resolve_endpoint(base_url: str | None) -> Endpoint:
    """The endpoint and region pi would use for a model with this base URL."""
    region = configured_region()
    profile = bool(os.environ.get("AWS_PROFILE"))
    url_region = standard_region(base_url)
    explicit = base_url is not None and (url_region is None or (not region and not profile))
    if region:
        chosen: str | None = region
    elif url_region and explicit:
        chosen = url_region
    elif not profile:
        chosen = DEFAULT_REGION
    else:
        chosen = None  # the profile's region, read when signing
    if explicit and base_url:
        return Endpoint(base_url, chosen)
    return Endpoint("", chosen)


def regional_url(region: str) -> str:
    """The default runtime endpoint of a region."""
    suffix = "amazonaws.com.cn" if region.startswith("cn-") else "amazonaws.com"
    return f"https://bedrock-runtime.{region}.{suffix}"


def converse_path(model_id: str) -> str:
    """The ConverseStream path, the model id percent-encoded as the AWS SDK does."""
    return f"model/{quote(model_id, safe='')}/converse-stream"
