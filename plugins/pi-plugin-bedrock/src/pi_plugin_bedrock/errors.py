"""Error text as pi words it: a readable prefix for Bedrock's exceptions, then their message."""

from __future__ import annotations

from pi_core.providers import with_retry_after
from pi_plugin_bedrock.eventstream import BedrockStreamException

PREFIXES = {
    "InternalServerException": "Internal server error",
    "ModelStreamErrorException": "Model stream error",
    "ValidationException": "Validation error",
    "ThrottlingException": "Throttling error",
    "ServiceUnavailableException": "Service unavailable",
}

BY_STATUS = {
    400: "ValidationException",
    403: "AccessDeniedException",
    404: "ResourceNotFoundException",
    408: "ModelTimeoutException",
    424: "ModelErrorException",
    429: "ThrottlingException",
    500: "InternalServerException",
    503: "ServiceUnavailableException",
}
"""The exception each status stands for (the type itself is in a header the transport drops)."""


def _exception_name(kind: str) -> str:
    """`ValidationException:http://…` or `throttlingException` → `ValidationException`."""
    name = kind.split(":", 1)[0].rsplit("#", 1)[-1]
    return name[:1].upper() + name[1:]


def exception_text(kind: str, message: str) -> str:
    """`Throttling error: Too many requests`, as pi's message for a Bedrock exception."""
    name = _exception_name(kind)
    return f"{PREFIXES.get(name, name)}: {message}"


def describe_error(error: BaseException) -> str:
    """A Bedrock exception (an HTTP error or a frame in the stream) as pi words it; the rest as
    the core does (`Connection error: …`, `Request timed out`)."""
    from pi_core.ai.http import ProviderHTTPError, describe_failure

    if isinstance(error, BedrockStreamException):
        return exception_text(error.kind, error.message)
    if isinstance(error, ProviderHTTPError):
        body = error.body if isinstance(error.body, dict) else {}
        kind = str(body.get("__type") or BY_STATUS.get(error.status, ""))
        message = error.api_message or str(body.get("Message") or "") or error.text
        text = exception_text(kind, message) if kind else f"{error.status} {message}"
        return with_retry_after(text, error.retry_after_ms)
    return describe_failure(error)
