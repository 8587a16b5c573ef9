"""The model registry: provider plugins' models, models.json providers, lookup, keys, streams."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from pi_core.ai.auth import AuthStorage, env_key
from pi_core.ai.config_value import (
    check_header_value,
    command_failure,
    resolve_config_value,
    resolve_headers,
)
from pi_core.ai.model import Model, ProviderConfig, ProviderModelConfig
from pi_core.ai.models_json import CustomProvider, apply_override, read_models_json
from pi_core.ai.protocol import StreamFunction
from pi_core.thinking import THINKING_LEVELS

_DATED = re.compile(r"-\d{8}$")


class UnknownModelError(LookupError):
    """No model matches what the user asked for."""


class MissingApiKeyError(LookupError):
    """The model's provider has no API key anywhere."""


class UnsupportedApiError(LookupError):
    """No installed plugin streams the model's API kind."""


@dataclass(frozen=True)
class ModelChoice:
    """A resolved model and the thinking level a `:level` suffix asked for."""

    model: Model
    thinking_level: str | None = None


class ModelRegistry:
    """Every model pi can use, where its key comes from, and which function streams it."""

    def __init__(self, auth: AuthStorage, models_json: Path | None = None) -> None:
        self.auth = auth
        self.models_json = models_json
        self.errors: list[str] = []
        self._plugin_providers: dict[str, ProviderConfig] = {}
        self._streams: dict[str, StreamFunction] = {}
        self._custom: dict[str, CustomProvider] = {}
        self._models: list[Model] = []
        self.reload()

    # --- building -------------------------------------------------------------------------

    def register_provider(self, name: str, config: ProviderConfig) -> None:
        """Add (or replace) a provider a plugin registered, and the streams for its APIs."""
        self._plugin_providers[name] = config
        self._streams.update(config.streams)
        if config.stream is not None and config.api:
            self._streams[config.api] = config.stream
        self._rebuild()

    def register_stream(self, api: str, stream: StreamFunction) -> None:
        """Make `api` streamable (custom providers of that API kind use it)."""
        self._streams[api] = stream

    def reload(self) -> None:
        """Re-read models.json and rebuild the model list."""
        self.errors = []
        self._custom = {}
        if self.models_json is not None:
            try:
                self._custom = read_models_json(self.models_json)
            except ValueError as error:
                self.errors.append(str(error))
        self._rebuild()

    def _rebuild(self) -> None:
        models: list[Model] = []
        names = list(self._plugin_providers) + [
            n for n in self._custom if n not in self._plugin_providers
        ]
        for name in names:
            models.extend(self._provider_models(name))
        self._models = models

    def _provider_models(self, name: str) -> list[Model]:
        plugin = self._plugin_providers.get(name)
        custom = self._custom.get(name)
        configs: dict[str, ProviderModelConfig] = {}
        if plugin is not None:
            configs = {m.id: m for m in plugin.models}
        if custom is not None:
            for model_id, override in (custom.model_overrides or {}).items():
                if model_id in configs:
                    configs[model_id] = apply_override(configs[model_id], override)
            for model in custom.models or []:
                configs[model.id] = model
        base_url = (custom and custom.base_url) or (plugin and plugin.base_url) or ""
        api = (custom and custom.api) or (plugin and plugin.api) or ""
        provider_headers = {
            **((plugin and plugin.headers) or {}),
            **((custom and custom.headers) or {}),
        }
        provider_compat = (custom and custom.compat) or None
        result = []
        for config in configs.values():
            compat = {**(provider_compat or {}), **(config.compat or {})} or None
            headers = {**provider_headers, **(config.headers or {})} or None
            result.append(
                Model(
                    id=config.id,
                    name=config.name or config.id,
                    api=config.api or api,
                    provider=name,
                    base_url=base_url,
                    reasoning=config.reasoning,
                    thinking_level_map=config.thinking_level_map,
                    input=config.input,
                    cost=config.cost,
                    context_window=config.context_window,
                    max_tokens=config.max_tokens,
                    headers=headers,
                    compat=compat,
                )
            )
        return result

    # --- lookup ---------------------------------------------------------------------------

    def all_models(self) -> list[Model]:
        """Return every known model."""
        return list(self._models)

    def available_models(self) -> list[Model]:
        """Return the models whose provider has a key configured somewhere."""
        return [m for m in self._models if self.has_credentials(m.provider)]

    def find(self, provider: str, model_id: str) -> Model | None:
        """Return the model `provider/model_id`, if known."""
        for model in self._models:
            if model.provider == provider and model.id == model_id:
                return model
        return None

    def resolve(self, pattern: str, models: list[Model] | None = None) -> ModelChoice:
        """Resolve `provider/id`, an id, or a fuzzy part of one, with an optional `:level`."""
        candidates = self._models if models is None else models
        model = _match(pattern, candidates)
        if model is not None:
            return ModelChoice(model)
        head, _, level = pattern.rpartition(":")
        if head and level in THINKING_LEVELS:
            model = _match(head, candidates)
            if model is not None:
                return ModelChoice(model, level)
        known = ", ".join(m.key for m in candidates[:12]) or "none (install a provider plugin "
        "or add one to models.json)"
        raise UnknownModelError(
            f"Unknown model {pattern!r}. Known models: {known}"
            + ("…" if len(candidates) > 12 else "")
            + ". Run `pi --list-models` to see them all."
        )

    # --- keys and streams -----------------------------------------------------------------

    def has_credentials(self, provider: str) -> bool:
        """Return whether a key for `provider` is configured (commands are not run)."""
        custom = self._custom.get(provider)
        plugin = self._plugin_providers.get(provider)
        return bool(
            self.auth.has_credentials(provider)
            or env_key(plugin.api_key_env if plugin else [])
            or (custom and custom.api_key)
            or (plugin and plugin.api_key)
        )

    def key_variables(self) -> dict[str, list[str]]:
        """Return, per plugin provider, the environment variables that may hold its key."""
        return {n: list(c.api_key_env) for n, c in self._plugin_providers.items() if c.api_key_env}

    def get_api_key(self, provider: str) -> str | None:
        """Resolve the key: --api-key, auth.json, environment, then models.json / plugin value."""
        stored = self.auth.stored_key(provider)
        if stored:
            return stored
        plugin = self._plugin_providers.get(provider)
        from_env = env_key(plugin.api_key_env if plugin else [])
        if from_env:
            return from_env
        configured = self._configured_key(provider)
        return resolve_config_value(configured) if configured else None

    def _configured_key(self, provider: str) -> str | None:
        custom = self._custom.get(provider)
        plugin = self._plugin_providers.get(provider)
        return (custom and custom.api_key) or (plugin and plugin.api_key) or None

    def require_api_key(self, model: Model) -> str:
        """Return the model's key or raise MissingApiKeyError saying what to set (or what failed).

        A key that cannot be sent in a header (a line break in it) raises BadHeaderValueError.
        """
        key = self.get_api_key(model.provider)
        if key:
            return check_header_value(key, f"The API key for provider {model.provider!r}")
        candidates = (self.auth.stored_value(model.provider), self._configured_key(model.provider))
        failures = [f for value in candidates if value and (f := command_failure(value))]
        if failures:
            raise MissingApiKeyError(
                f"No API key for provider {model.provider!r}: {'; '.join(failures)}."
            )
        plugin = self._plugin_providers.get(model.provider)
        env_names = " or ".join(plugin.api_key_env) if plugin and plugin.api_key_env else None
        hint = f"set {env_names}, " if env_names else ""
        raise MissingApiKeyError(
            f"No API key for provider {model.provider!r}: {hint}add it to "
            f'{self.auth.path} ({{"{model.provider}": {{"type": "api_key", "key": "…"}}}}), '
            "set apiKey in models.json, or pass --api-key."
        )

    def request_headers(self, model: Model) -> dict[str, str]:
        """Return the model's headers with pi's value forms resolved."""
        headers = resolve_headers(model.headers, f" of model {model.key}")
        custom = self._custom.get(model.provider)
        if custom and custom.auth_header:
            key = self.get_api_key(model.provider)
            if key:
                headers["Authorization"] = f"Bearer {key}"
        return headers

    def stream_for(self, model: Model) -> StreamFunction:
        """Return the stream function for the model's API, or raise UnsupportedApiError."""
        stream = self._streams.get(model.api)
        if stream is None:
            installed = ", ".join(sorted(self._streams)) or "none"
            raise UnsupportedApiError(
                f"Model {model.key} uses API {model.api!r}, which no installed plugin streams "
                f"(installed: {installed}). Install pi-plugin-openai for openai-completions / "
                "openai-responses, or pi-plugin-anthropic for anthropic-messages."
            )
        return stream


def _is_alias(model_id: str) -> bool:
    return model_id.endswith("-latest") or not _DATED.search(model_id)


def _match(pattern: str, models: list[Model]) -> Model | None:
    reference = pattern.strip().lower()
    if not reference:
        return None
    exact = [m for m in models if m.key.lower() == reference]
    if exact:
        return exact[0] if len(exact) == 1 else None
    by_id = [m for m in models if m.id.lower() == reference]
    if len(by_id) == 1:
        return by_id[0]
    partial = [m for m in models if reference in m.id.lower() or reference in m.name.lower()]
    if not partial:
        return None
    aliases = [m for m in partial if _is_alias(m.id)]
    pool = aliases or partial
    return sorted(pool, key=lambda m: m.id, reverse=True)[0]


__all__ = [
    "MissingApiKeyError",
    "ModelChoice",
    "ModelRegistry",
    "UnknownModelError",
    "UnsupportedApiError",
]
