"""Requests of a subscription provider's models, shaped by its login (`LoginProvider`).

pi sends a provider's requests to the URL its stored login dictates (`modifyModels`: GitHub
Copilot's token names its API host) and adds the vendor's per-request headers. The login plugin
says both; this wrapper applies them when each request is made, so a refreshed token's URL is
the one used.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pi_core.ai.model import Model
    from pi_core.ai.oauth import LoginProvider
    from pi_core.ai.oauth.credentials import OAuthCredentials
    from pi_core.ai.protocol import LLMContext, StreamFunction, StreamOptions


def shapes_requests(login: LoginProvider) -> bool:
    """Whether `login` overrides the base URL or the headers of its provider's requests."""
    from pi_core.ai.oauth.provider import LoginProvider

    kind = type(login)
    return (
        kind.base_url is not LoginProvider.base_url
        or kind.request_headers is not LoginProvider.request_headers
    )


def with_login(
    stream: StreamFunction,
    login: LoginProvider,
    credentials: Callable[[], OAuthCredentials | None],
) -> StreamFunction:
    """Wrap `stream`: each request goes to `login.base_url` of the stored `credentials` (when
    logged in; a models.json URL gives way, as in pi) with `login.request_headers` added."""

    async def shaped(
        model: Model, context: LLMContext, options: StreamOptions
    ) -> AsyncIterator[Any]:
        stored = credentials()
        url = login.base_url(stored) if stored is not None else None
        if url:
            model = model.model_copy(update={"base_url": url})
        headers = login.request_headers(model, context, options.api_key)
        if headers:
            options = replace(
                options, header_overrides={**(options.header_overrides or {}), **headers}
            )
        async for event in stream(model, context, options):
            yield event

    return shaped
