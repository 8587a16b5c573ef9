"""Error text for Gemini and Vertex: the status and the API's error body, with the retry delay."""

from __future__ import annotations

import json
import re
from typing import Any

from pi_core.providers import with_retry_after

_SECONDS = re.compile(r"^(\d+(?:\.\d+)?)s$")


def retry_delay_ms(body: Any) -> int | None:
    """The delay a `google.rpc.RetryInfo` detail asks for (`"retryDelay": "20s"`), if any."""
    error = body.get("error") if isinstance(body, dict) else None
    details = error.get("details") if isinstance(error, dict) else None
    for detail in details if isinstance(details, list) else []:
        delay = detail.get("retryDelay") if isinstance(detail, dict) else None
        match = _SECONDS.match(delay) if isinstance(delay, str) else None
        if match:
            return round(float(match.group(1)) * 1000)
    return None


def describe_error(error: BaseException) -> str:
    """Return e.g. `429 {"error": {"code": 429, "message": "…", "status": "RESOURCE_EXHAUSTED"}}
    (retry after 20 s)`: the body as pi's SDK puts it in the message, after the status."""
    from pi_core.ai.http import ProviderHTTPError, describe_failure

    if isinstance(error, ProviderHTTPError):
        if error.body is None:
            text = f"{error.status} {error.text}"
        else:
            body = error.body if isinstance(error.body, str) else json.dumps(error.body)
            text = f"{error.status} {body}"
        delay = error.retry_after_ms
        return with_retry_after(text, delay if delay is not None else retry_delay_ms(error.body))
    return describe_failure(error)
