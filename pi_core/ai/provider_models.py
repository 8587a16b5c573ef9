"""One provider's models: the built-in catalog, a plugin's own models and models.json, merged."""

from __future__ import annotations

from typing import Any

from pi_core.ai.model import Model, ProviderConfig, ProviderModelConfig
from pi_core.ai.models_json import CustomProvider, apply_override, merge_compat

_NOT_CONFIG = ("provider", "baseUrl")

Entry = tuple["ProviderModelConfig | dict[str, Any]", str, bool]
"""A model as given (a catalog dict until something changes it), its base URL, built-in or not."""


def build_provider_models(
    name: str,
    catalog: list[dict[str, Any]],
    plugin: ProviderConfig | None,
    custom: CustomProvider | None,
) -> list[Model]:
    """Merge as pi does: built-in models (provider `baseUrl` / `compat` and `modelOverrides` of
    models.json applied), then a plugin's models and models.json's `models`, replacing by id."""
    entries: dict[str, Entry] = {}
    for raw in catalog:
        entries[raw["id"]] = (raw, str(raw.get("baseUrl", "")), True)
    # models.json models of a built-in provider take the API and URL of its first model
    fallback_url = str(catalog[0].get("baseUrl", "")) if catalog else ""
    fallback_api = str(catalog[0].get("api", "")) if catalog else ""
    plugin_url = (plugin and plugin.base_url) or fallback_url
    for model in plugin.models if plugin else []:
        entries[model.id] = (model, plugin_url, False)
    if custom is not None:
        for model_id, override in (custom.model_overrides or {}).items():
            if model_id in entries:
                given, url, built_in = entries[model_id]
                entries[model_id] = (apply_override(_config(given), override), url, built_in)
        for model in custom.models or []:
            entries[model.id] = (model, plugin_url, False)
    api = (custom and custom.api) or (plugin and plugin.api) or fallback_api
    provider_headers = {
        **((plugin and plugin.headers) or {}),
        **((custom and custom.headers) or {}),
    }
    custom_compat = (custom and custom.compat) or {}
    result = []
    for given, url, built_in in entries.values():
        if isinstance(given, dict):  # untouched catalog model: validated once, as it is
            result.append(_catalog_model(given, name, (custom and custom.base_url) or url,
                                         provider_headers, custom_compat))  # fmt: skip
            continue
        if built_in:
            compat = merge_compat(given.compat, custom_compat)
            headers = {**(given.headers or {}), **provider_headers}
        else:
            compat = {**custom_compat, **(given.compat or {})}
            headers = {**provider_headers, **(given.headers or {})}
        result.append(
            Model(
                id=given.id,
                name=given.name or given.id,
                api=given.api or api,
                provider=name,
                base_url=_own_url(given) or (custom and custom.base_url) or url,
                reasoning=given.reasoning,
                thinking_level_map=given.thinking_level_map,
                input=given.input,
                cost=given.cost,
                context_window=given.context_window,
                max_tokens=given.max_tokens,
                headers=headers or None,
                compat=compat or None,
            )
        )
    return result


def _catalog_model(
    raw: dict[str, Any],
    provider: str,
    base_url: str,
    headers: dict[str, str],
    compat: dict[str, Any],
) -> Model:
    data = {**raw, "provider": provider, "baseUrl": base_url}
    merged_headers = {**(raw.get("headers") or {}), **headers}
    data["headers"] = merged_headers or None
    data["compat"] = merge_compat(raw.get("compat"), compat) or None
    return Model.model_validate(data)


def _config(given: ProviderModelConfig | dict[str, Any]) -> ProviderModelConfig:
    if isinstance(given, ProviderModelConfig):
        return given
    return ProviderModelConfig.model_validate(
        {k: v for k, v in given.items() if k not in _NOT_CONFIG}
    )


def _own_url(config: ProviderModelConfig) -> str | None:
    """A models.json model's own `baseUrl` (pi reads it; it is not a field of ours)."""
    value = (config.model_extra or {}).get("baseUrl")
    return value if isinstance(value, str) and value else None
