"""Asks an OpenAI-compatible server for token ids and logprobs, for one session that wants them.

Nothing asks by default: a server that does not know vLLM's `return_token_ids` may refuse the
request. `rollout(token_ids=True, logprobs=N)` registers one of these in its session.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

from pi_core import ExtensionContext, hookimpl

CHAT_COMPLETIONS = "openai-completions"
TOKENS_ENV = "PI_BATCH_TOKENS"  # how `pi batch` tells its child sessions what to ask for


@dataclass(frozen=True)
class TokenRequest:
    """Adds `return_token_ids` and `logprobs` / `top_logprobs` to Chat Completions payloads."""

    token_ids: bool = True
    logprobs: int | None = None  # top alternatives per token; 0: the sampled token's only

    def flags(self) -> dict[str, Any]:
        """The request fields this asks for."""
        fields: dict[str, Any] = {}
        if self.token_ids:
            fields["return_token_ids"] = True
        if self.logprobs is not None:
            fields["logprobs"] = True
            fields["top_logprobs"] = self.logprobs
        return fields

    @hookimpl
    def before_provider_request(self, event: Any, ctx: ExtensionContext) -> Any:
        """Return the payload with the flags added, for a Chat Completions model only."""
        model = ctx.model
        payload = event.payload
        if model is None or model.api != CHAT_COMPLETIONS or not isinstance(payload, dict):
            return None
        return {**payload, **self.flags()}

    def to_env(self) -> str:
        """This request as the value of PI_BATCH_TOKENS."""
        return json.dumps({"token_ids": self.token_ids, "logprobs": self.logprobs})


def token_request_from_env() -> TokenRequest | None:
    """The request `pi batch` passed to this child (PI_BATCH_TOKENS), or None."""
    raw = os.environ.get(TOKENS_ENV)
    if not raw:
        return None
    data = json.loads(raw)
    return TokenRequest(bool(data.get("token_ids")), data.get("logprobs"))
