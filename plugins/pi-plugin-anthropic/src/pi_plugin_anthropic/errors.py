"""Error text the core's classifier understands: the status and the API's error body."""

from __future__ import annotations

import json


def describe_error(error: BaseException) -> str:
    """Return e.g. `529 {"type": "error", "error": {"type": "overloaded_error"…}}`."""
    status = getattr(error, "status_code", None)
    body = getattr(error, "body", None)
    if status and body is not None:
        return f"{status} {json.dumps(body) if not isinstance(body, str) else body}"
    text = getattr(error, "message", None) or str(error) or type(error).__name__
    return f"{status} {text}" if status else str(text)
