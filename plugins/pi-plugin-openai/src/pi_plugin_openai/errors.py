"""Error text the core's classifier understands: the status code and the API's own message."""

from __future__ import annotations


def describe_error(error: BaseException) -> str:
    """Return e.g. `429 Rate limit reached…`, `500 …`, or `Connection error.`."""
    status = getattr(error, "status_code", None)
    body = getattr(error, "body", None)
    message = None
    if isinstance(body, dict):
        inner = body.get("error", body)
        message = inner.get("message") if isinstance(inner, dict) else None
    text = message or getattr(error, "message", None) or str(error) or type(error).__name__
    return f"{status} {text}" if status else str(text)
