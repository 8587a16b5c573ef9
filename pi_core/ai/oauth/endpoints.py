"""Where OAuth requests go: the vendor's URL, or a loopback fake when a test says so.

`PI_TEST_OAUTH_ORIGIN` (tests only) replaces the scheme and host of every OAuth endpoint, keeping
the path; `PI_TEST_OAUTH_CALLBACK_PORT` (tests only) moves the local callback server off the port
pi uses. `PI_OAUTH_CALLBACK_HOST` is pi's own setting for the address the callback server binds.
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit

ORIGIN_VARIABLE = "PI_TEST_OAUTH_ORIGIN"
CALLBACK_PORT_VARIABLE = "PI_TEST_OAUTH_CALLBACK_PORT"
CALLBACK_HOST_VARIABLE = "PI_OAUTH_CALLBACK_HOST"


def endpoint(url: str) -> str:
    """Return `url`, or the same path on the test origin when one is set."""
    origin = os.environ.get(ORIGIN_VARIABLE)
    if not origin:
        return url
    base, parts = urlsplit(origin), urlsplit(url)
    return urlunsplit((base.scheme, base.netloc, parts.path, parts.query, parts.fragment))


def callback_port(default: int) -> int:
    """Return the callback server's port: pi's, unless a test moved it."""
    value = os.environ.get(CALLBACK_PORT_VARIABLE)
    return int(value) if value else default


def callback_host() -> str:
    """Return the address the callback server binds (pi's default: 127.0.0.1)."""
    return os.environ.get(CALLBACK_HOST_VARIABLE) or "127.0.0.1"
