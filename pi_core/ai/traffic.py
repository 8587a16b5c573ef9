"""Recording and replaying provider HTTP traffic, chosen by environment variables.

`PI_HTTP_RECORD=FILE` writes every request pi sends to a provider and the answer it got to FILE
(JSON lines without keys or auth headers: `traffic_format`); `PI_HTTP_REPLAY=FILE` answers every
request from such a file instead of the network, in order, and fails a request that differs from
the recorded one (`traffic_replay.ReplayDivergence`). Both may be set: the replayed traffic is
recorded again. `pi_core.ai.http` builds its transport here when either is set; `pi batch
--record / --replay` sets them for each child.
"""

from __future__ import annotations

import os
import urllib.parse
import urllib.request
from collections.abc import Callable

import httpx

RECORD_ENV = "PI_HTTP_RECORD"
REPLAY_ENV = "PI_HTTP_REPLAY"


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
