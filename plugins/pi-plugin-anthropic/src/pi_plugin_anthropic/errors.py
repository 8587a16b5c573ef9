"""Error text the core's classifier understands: the status and the API's error body."""

from __future__ import annotations

import json

from pi_core.providers import with_retry_after


def describe_error(error: BaseException) -> str:
    """Return e.g. `529 {"type": "error", "error": {"type": "overloaded_error"…}}`."""
    from pi_core.ai.http import ProviderHTTPError, describe_failure

    if isinstance(error, ProviderHTTPError):
        body = error.body if isinstance(error.body, str) else json.dumps(error.body)
        text = (
            f"{error.status} {body}" if error.body is not None else f"{error.status} {error.text}"
        )
        return with_retry_after(text, error.retry_after_ms)
    return describe_failure(error)
