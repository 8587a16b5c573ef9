"""One provider's models: the built-in catalog, a plugin's own models and models.json, merged."""

from __future__ import annotations

from typing import Any

from pi_core.ai.model import Model, ProviderConfig, ProviderModelConfig
from pi_core.ai.models_json import CustomProvider, apply_override, merge_compat

_NOT_CONFIG = ("provider", "baseUrl")


def build_provider_models(
    name: str,
    catalog: list[dict[str, Any]],
    plugin: ProviderConfig | None,
    custom: CustomProvider | None,
) -> list[Model]:
    """Merge as pi does: built-in models (provider `baseUrl` / `compat` and `modelOverrides` of
    models.json applied), then a plugin's models and models.json's `models`, replacing by id."""
    entries: dict[str, tuple[ProviderModelConfig, str, bool]] = {}
    for raw in catalog:
        config = ProviderModelConfig.model_validate(
            {k: v for k, v in raw.items() if k not in _NOT_CONFIG}
        )
        entries[config.id] = (config, str(raw.get("baseUrl", "")), True)
    # models.json models of a built-in provider take the API and URL of its first model
    fallback_url = str(catalog[0].get("baseUrl", "")) if catalog else ""
    fallback_api = str(catalog[0].get("api", "")) if catalog else ""
    plugin_url = (plugin and plugin.base_url) or fallback_url
    for model in plugin.models if plugin else []:
        entries[model.id] = (model, plugin_url, False)
    if custom is not None:
        for model_id, override in (custom.model_overrides or {}).items():
            if model_id in entries:
                config, url, built_in = entries[model_id]
                entries[model_id] = (apply_override(config, override), url, built_in)
        for model in custom.models or []:
            entries[model.id] = (model, plugin_url, False)
    api = (custom and custom.api) or (plugin and plugin.api) or fallback_api
    provider_headers = {
        **((plugin and plugin.headers) or {}),
        **((custom and custom.headers) or {}),
    }
    custom_compat = (custom and custom.compat) or {}
    result = []
    for config, url, built_in in entries.values():
        if built_in:
            compat = merge_compat(config.compat, custom_compat)
            headers = {**(config.headers or {}), **provider_headers}
        else:
            compat = {**custom_compat, **(config.compat or {})}
            headers = {**provider_headers, **(config.headers or {})}
        result.append(
            Model(
                id=config.id,
                name=config.name or config.id,
                api=config.api or api,
                provider=name,
                base_url=_own_url(config) or (custom and custom.base_url) or url,
                reasoning=config.reasoning,
                thinking_level_map=config.thinking_level_map,
                input=config.input,
                cost=config.cost,
                context_window=config.context_window,
                max_tokens=config.max_tokens,
                headers=headers or None,
                compat=compat or None,
            )
        )
    return result


def _own_url(config: ProviderModelConfig) -> str | None:
    """A models.json model's own `baseUrl` (pi reads it; it is not a field of ours)."""
    value = (config.model_extra or {}).get("baseUrl")
    return value if isinstance(value, str) and value else None
