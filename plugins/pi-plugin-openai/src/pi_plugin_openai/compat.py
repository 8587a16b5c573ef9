"""A Chat Completions provider's quirks, detected from its name and base URL as pi does; a model's
`compat` in models.json overrides each flag it sets."""

from __future__ import annotations

from typing import Any

from pi_core.providers import Model

FLAGS = (
    "supportsStore",
    "supportsDeveloperRole",
    "supportsReasoningEffort",
    "supportsUsageInStreaming",
    "maxTokensField",
    "requiresToolResultName",
    "requiresAssistantAfterToolResult",
    "requiresThinkingAsText",
    "requiresReasoningContentOnAssistantMessages",
    "thinkingFormat",
    "openRouterRouting",
    "vercelGatewayRouting",
    "zaiToolStream",
    "supportsStrictMode",
    "cacheControlFormat",
    "sendSessionAffinityHeaders",
    "supportsLongCacheRetention",
)
"""Every flag `resolve_compat` returns, in pi's order."""


def detect_compat(model: Model) -> dict[str, Any]:
    """The flags pi 0.73.1 derives from the provider name (first) and base URL substrings."""
    provider, url = model.provider, model.base_url
    zai = provider == "zai" or "api.z.ai" in url
    moonshot = provider in ("moonshotai", "moonshotai-cn") or "api.moonshot." in url
    workers_ai = provider == "cloudflare-workers-ai" or "api.cloudflare.com" in url
    ai_gateway = provider == "cloudflare-ai-gateway" or "gateway.ai.cloudflare.com" in url
    grok = provider == "xai" or "api.x.ai" in url
    deepseek = provider == "deepseek" or "deepseek.com" in url
    non_standard = (
        provider in ("cerebras", "xai", "opencode")
        or any(hint in url for hint in ("cerebras.ai", "api.x.ai", "chutes.ai", "deepseek.com"))
        or "opencode.ai" in url
        or zai
        or moonshot
        or workers_ai
        or ai_gateway
    )
    if deepseek:
        thinking = "deepseek"
    elif zai:
        thinking = "zai"
    elif provider == "openrouter" or "openrouter.ai" in url:
        thinking = "openrouter"
    else:
        thinking = "openai"
    short_field = "chutes.ai" in url or moonshot or ai_gateway
    anthropic_cache = provider == "openrouter" and model.id.startswith("anthropic/")
    return {
        "supportsStore": not non_standard,
        "supportsDeveloperRole": not non_standard,
        "supportsReasoningEffort": not (grok or zai or moonshot or ai_gateway),
        "supportsUsageInStreaming": True,
        "maxTokensField": "max_tokens" if short_field else "max_completion_tokens",
        "requiresToolResultName": False,
        "requiresAssistantAfterToolResult": False,
        "requiresThinkingAsText": False,
        "requiresReasoningContentOnAssistantMessages": deepseek,
        "thinkingFormat": thinking,
        "openRouterRouting": {},
        "vercelGatewayRouting": {},
        "zaiToolStream": False,
        "supportsStrictMode": not (moonshot or ai_gateway),
        "cacheControlFormat": "anthropic" if anthropic_cache else None,
        "sendSessionAffinityHeaders": False,
        "supportsLongCacheRetention": not (workers_ai or ai_gateway),
    }


def resolve_compat(model: Model) -> dict[str, Any]:
    """The detected flags with the model's own `compat` values (those not null) on top."""
    flags = detect_compat(model)
    given = model.compat or {}
    for name in FLAGS:
        if given.get(name) is not None:
            flags[name] = given[name]
    if given.get("openRouterRouting") is None:
        flags["openRouterRouting"] = {}
    return flags
