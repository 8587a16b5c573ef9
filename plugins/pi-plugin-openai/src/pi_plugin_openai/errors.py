"""Error text the core's classifier understands: the status code and the API's own message."""

from __future__ import annotations

from pi_core.providers import with_retry_after


def describe_error(error: BaseException) -> str:
    """Return e.g. `429 Rate limit reached… (retry after 20 s)` or `Connection error: …`."""
    from pi_core.ai.http import ProviderHTTPError, describe_failure

    if isinstance(error, ProviderHTTPError):
        text = f"{error.status} {error.api_message or error.text}"
        return with_retry_after(text, error.retry_after_ms)
    return describe_failure(error)
