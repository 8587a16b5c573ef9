"""`{NAME}` placeholders in a model's base URL, filled from the environment when a request is
made (pi's Cloudflare providers: `{CLOUDFLARE_ACCOUNT_ID}`, `{CLOUDFLARE_GATEWAY_ID}`)."""

from __future__ import annotations

import os
import re
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pi_core.ai.model import Model
    from pi_core.ai.protocol import StreamFunction

_PLACEHOLDER = re.compile(r"\{([A-Z_][A-Z0-9_]*)\}")


def has_placeholders(url: str) -> bool:
    """Whether the URL names an environment variable to fill in."""
    return _PLACEHOLDER.search(url) is not None


def fill_base_url(model: Model) -> str:
    """The model's base URL with each `{NAME}` replaced; ValueError names an unset variable."""

    def value(match: re.Match[str]) -> str:
        found = os.environ.get(match.group(1))
        if not found:
            raise ValueError(
                f"{match.group(1)} is required for provider {model.provider} but is not set."
            )
        return found

    return _PLACEHOLDER.sub(value, model.base_url)


def with_filled_url(stream: StreamFunction) -> StreamFunction:
    """Wrap a stream so it sees the filled-in URL; an unset variable ends in an error event."""

    async def filled(model: Model, context: Any, options: Any) -> AsyncIterator[Any]:
        from pi_core.ai.builder import AssistantMessageBuilder

        try:
            url = fill_base_url(model)
        except ValueError as error:
            yield AssistantMessageBuilder(model).error(str(error))
            return
        async for event in stream(model.model_copy(update={"base_url": url}), context, options):
            yield event

    return filled
