"""Token ids and logprobs in a Chat Completions stream, kept on the assistant message.

A server sends them only when the request asked: vLLM's `return_token_ids` puts the prompt's
ids on the first chunk (`prompt_token_ids`) and each chunk's sampled ids on its choice
(`token_ids`); `logprobs: true` puts `logprobs.content` entries on each choice.
"""

from __future__ import annotations

from typing import Any

from pi_core.messages import AssistantMessage, TokenData


def collect_tokens(message: AssistantMessage, chunk: dict[str, Any]) -> None:
    """Append what `chunk` says about tokens (first choice only, as pi reads) to `message`."""
    choices = chunk.get("choices") or []
    choice = choices[0] if choices and isinstance(choices[0], dict) else {}
    prompt_ids = _ints(chunk.get("prompt_token_ids"))
    token_ids = _ints(choice.get("token_ids"))
    logprobs = choice.get("logprobs")
    entries = logprobs.get("content") if isinstance(logprobs, dict) else None
    if prompt_ids is None and token_ids is None and not isinstance(entries, list):
        return
    data = message.token_data or TokenData()
    if prompt_ids is not None and data.prompt_token_ids is None:
        data.prompt_token_ids = prompt_ids
    if token_ids is not None:
        data.token_ids = [*(data.token_ids or []), *token_ids]
    if isinstance(entries, list):
        kept = [entry for entry in entries if isinstance(entry, dict)]
        data.logprobs = [*(data.logprobs or []), *kept]
    message.token_data = data


def _ints(value: Any) -> list[int] | None:
    """`value` when it is a list of token ids, else None."""
    if isinstance(value, list) and all(type(item) is int for item in value):
        return list(value)
    return None
