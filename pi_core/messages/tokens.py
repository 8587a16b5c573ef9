"""The token ids and logprobs a server returned with one response, kept for RL training."""

from __future__ import annotations

from typing import Any

from pi_core.messages.base import WireModel


class TokenData(WireModel):
    """What an OpenAI-compatible server sent about tokens, as it sent it.

    `prompt_token_ids` and `token_ids` are vLLM's `return_token_ids` output (the prompt as the
    server tokenized it, and the sampled tokens in order); `logprobs` are the entries of the
    standard `logprobs.content` list (`token`, `logprob`, `bytes`, `top_logprobs`), in order.
    """

    prompt_token_ids: list[int] | None = None
    token_ids: list[int] | None = None
    logprobs: list[dict[str, Any]] | None = None
