"""When a request is sent again before its answer starts, and after how long: the rules pi's
provider SDKs (openai, anthropic) apply, so a failure they would absorb never reaches the agent.

A request is retried when it could not be sent or got no answer (a connection failure, a time-out)
or when its status asks for it (408, 409, 429, 5xx, or `x-should-retry: true`; never when the
server says `x-should-retry: false`). The wait is what the server asked (`retry-after-ms`, else
`Retry-After` in seconds or as a date), else 0.5 s doubling per retry up to 8 s, less up to a
quarter of jitter. Once a 2xx answer has started streaming nothing is retried here.
"""

from __future__ import annotations

import email.utils
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass

DEFAULT_MAX_RETRIES = 2
"""Retries after the first attempt when `retry.provider.maxRetries` is not set (the SDKs')."""

_INITIAL_DELAY_S = 0.5
_MAX_DELAY_S = 8.0


@dataclass(frozen=True)
class RetryPolicy:
    """How often to retry a request and how long each attempt may wait for its answer."""

    max_retries: int = DEFAULT_MAX_RETRIES
    timeout_s: float | None = None  # None: the client's own time-outs only

    @classmethod
    def of(cls, max_retries: int | None, timeout_ms: int | None) -> RetryPolicy:
        """Build from `retry.provider` settings (None: the default)."""
        retries = DEFAULT_MAX_RETRIES if max_retries is None else max(0, max_retries)
        timeout = timeout_ms / 1000 if timeout_ms is not None and timeout_ms > 0 else None
        return cls(retries, timeout)


def status_is_retryable(status: int, headers: Mapping[str, str]) -> bool:
    """Return whether an error status is worth sending the request again for."""
    verdict = headers.get("x-should-retry")
    if verdict == "true":
        return True
    if verdict == "false":
        return False
    return status in (408, 409, 429) or status >= 500


def delay_ms(
    headers: Mapping[str, str] | None, retries_done: int, jitter: float | None = None
) -> float:
    """Return how long to wait before retry number `retries_done + 1`.

    `jitter` (0..1, random when None) takes up to a quarter off the computed backoff.
    """
    asked = _asked_ms(headers) if headers is not None else None
    if asked is not None:
        return max(0.0, asked)
    seconds = min(_INITIAL_DELAY_S * 2**retries_done, _MAX_DELAY_S)
    fraction = random.random() if jitter is None else jitter
    return float(seconds * (1 - fraction * 0.25) * 1000)


def _asked_ms(headers: Mapping[str, str]) -> float | None:
    """Return the wait the server asked for, as the SDKs read it (a 0 ms ask falls through to
    `Retry-After`, and then stays 0)."""
    asked: float | None = None
    value = headers.get("retry-after-ms")
    if value:
        asked = _number(value)
    value = headers.get("retry-after")
    if value and not asked:
        seconds = _number(value)
        if seconds is not None:
            asked = seconds * 1000
        else:
            try:
                when = email.utils.parsedate_to_datetime(value)
            except (TypeError, ValueError):
                return asked
            asked = (when.timestamp() - time.time()) * 1000
    return asked


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None
