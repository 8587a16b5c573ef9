"""Recording and replaying provider HTTP traffic, chosen by environment variables.

`PI_HTTP_RECORD=FILE` appends every request pi sends to a provider and the answer it got to FILE
(JSON lines, keys and auth headers left out); `PI_HTTP_REPLAY=FILE` answers every request from such
a file instead of the network, in order, and fails a request that differs from the recorded one
(`traffic_replay.ReplayDivergence`). Both may be set: the replayed traffic is recorded again.
`pi_core.ai.http` builds its transport here when either is set; `pi batch --record / --replay`
sets them for each child.
"""

from __future__ import annotations

import base64
import json
import os
import urllib.parse
import urllib.request
from collections.abc import Callable
from datetime import date
from typing import Any

import httpx

RECORD_ENV = "PI_HTTP_RECORD"
REPLAY_ENV = "PI_HTTP_REPLAY"
FORMAT = 1

_SECRET_PARTS = ("auth", "key", "token", "secret", "cookie", "signature", "credential", "session")
_HOP_HEADERS = {"host", "connection", "keep-alive", "content-length", "transfer-encoding",
                "accept-encoding", "date", "server"}  # fmt: skip
REDACTED = "<redacted>"


def requested() -> bool:
    """Return whether this process records or replays its provider traffic."""
    return bool(os.environ.get(RECORD_ENV) or os.environ.get(REPLAY_ENV))


def traffic_transport(
    direct: Callable[[], httpx.AsyncBaseTransport], verify: bool, base_url: str
) -> httpx.AsyncBaseTransport:
    """Return the transport for `base_url`: the replay, the network, or either one recorded.

    `direct` builds the plain network transport; a proxy the environment names for `base_url`
    is used instead of it, as the client would have.
    """
    from pi_core.ai.traffic_record import recorder
    from pi_core.ai.traffic_replay import replayer

    replay = os.environ.get(REPLAY_ENV)
    inner: httpx.AsyncBaseTransport
    if replay:
        inner = replayer(replay)
    else:
        proxy = _proxy_for(base_url)
        inner = httpx.AsyncHTTPTransport(verify=verify, proxy=proxy) if proxy else direct()
    record = os.environ.get(RECORD_ENV)
    return recorder(record).wrap(inner) if record else inner


def _proxy_for(base_url: str) -> str | None:
    """The proxy the environment names for `base_url` (`HTTPS_PROXY`, `NO_PROXY`, ...)."""
    parts = urllib.parse.urlsplit(base_url)
    if parts.hostname and urllib.request.proxy_bypass(parts.hostname):
        return None
    proxies = urllib.request.getproxies()
    return proxies.get(parts.scheme) or proxies.get("all")


def is_secret(name: str) -> bool:
    """Return whether a header or query parameter name may carry a credential."""
    lowered = name.lower()
    return any(part in lowered for part in _SECRET_PARTS)


def kept_headers(headers: httpx.Headers) -> dict[str, str]:
    """Return the headers worth keeping: no credentials, no per-connection ones."""
    return {
        name: value
        for name, value in headers.items()
        if name.lower() not in _HOP_HEADERS and not is_secret(name)
    }


def scrubbed_url(url: httpx.URL) -> str:
    """Return the URL with the value of every credential-like query parameter redacted."""
    if not url.query:
        return str(url)
    pairs = urllib.parse.parse_qsl(url.query.decode(), keep_blank_values=True)
    query = urllib.parse.urlencode([(k, REDACTED if is_secret(k) else v) for k, v in pairs])
    return str(url.copy_with(query=query.encode()))


def body_fields(data: bytes, prefix: str) -> dict[str, Any]:
    """Store `data` readably: parsed JSON (`<prefix>`), else text, else base64."""
    if prefix == "body" and data:
        try:
            return {prefix: json.loads(data)}
        except ValueError:
            pass
    try:
        return {f"{prefix}_text": data.decode()}
    except UnicodeDecodeError:
        return {f"{prefix}_b64": base64.b64encode(data).decode()}


def body_bytes(entry: dict[str, Any], prefix: str) -> bytes:
    """Return the bytes `body_fields` stored under `prefix`."""
    if prefix in entry:
        return json.dumps(entry[prefix]).encode()
    if f"{prefix}_text" in entry:
        return str(entry[f"{prefix}_text"]).encode()
    return base64.b64decode(entry.get(f"{prefix}_b64") or "")


def meta_line() -> dict[str, Any]:
    """Return the first line of a recording: what replay normalises (the folder, the date)."""
    return {"type": "meta", "format": FORMAT, "cwd": os.getcwd(), "date": date.today().isoformat()}
