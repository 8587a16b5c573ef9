"""What a request made with a Claude Pro/Max token carries, as pi sends it: Claude Code's identity
as the first system block (Anthropic serves subscription tokens to Claude Code only)."""

from __future__ import annotations

from typing import Any

CLAUDE_CODE_IDENTITY = "You are Claude Code, Anthropic's official CLI for Claude."


def is_oauth_token(key: str | None) -> bool:
    """Return whether `key` is a subscription (OAuth) access token, by pi's test."""
    return bool(key) and "sk-ant-oat" in (key or "")


def oauth_system(system_prompt: str | None, mark: dict[str, Any]) -> list[dict[str, Any]]:
    """Return the system blocks pi sends with a subscription token: the identity, then the prompt,
    each with the cache mark."""
    texts = [CLAUDE_CODE_IDENTITY, *([system_prompt] if system_prompt else [])]
    return [{"type": "text", "text": text, "cache_control": mark} for text in texts]
