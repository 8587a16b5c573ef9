"""The model registry: provider plugins' models, models.json providers, lookup, keys, streams."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from pi_core.ai.api_plugins import missing_stream_message
from pi_core.ai.auth import AuthStorage
from pi_core.ai.catalog_data import catalog_models, catalog_providers
from pi_core.ai.config_value import (
    check_header_value,
    command_failure,
    resolve_config_value,
    resolve_headers,
)
from pi_core.ai.env_keys import env_api_key, env_key_names
from pi_core.ai.login_requests import shapes_requests, with_login
from pi_core.ai.model import Model, ProviderConfig
from pi_core.ai.models_json import CustomProvider, read_models_json
from pi_core.ai.protocol import StreamFunction
from pi_core.ai.provider_models import build_provider_models
from pi_core.ai.url_placeholders import has_placeholders, with_filled_url
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

    def __init__(
        self, auth: AuthStorage, models_json: Path | None = None, *, built_in: bool = True
    ) -> None:
        self.auth = auth
        self.built_in = built_in
        """Whether pi's built-in catalog is part of the registry (tests of plugins turn it off)."""
        self.models_json = models_json
        self.errors: list[str] = []
        self._plugin_providers: dict[str, ProviderConfig] = {}
        self._streams: dict[str, StreamFunction] = {}
        self._custom: dict[str, CustomProvider] = {}
        self._names: list[str] = []
        self._by_provider: dict[str, list[Model]] = {}
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
        # pi's order: built-in providers, then plugin and models.json ones; models are built
        # per provider on first use, so start-up reads only the providers it looks at.
        names = list(catalog_providers()) if self.built_in else []
        names += [n for n in self._plugin_providers if n not in names]
        names += [n for n in self._custom if n not in names]
        self._names = names
        self._by_provider = {}

    def _provider_models(self, name: str) -> list[Model]:
        models = self._by_provider.get(name)
        if models is None:
            plugin = self._plugin_providers.get(name)
            custom = self._custom.get(name)
            catalog = catalog_models(name) if self.built_in else []
            models = build_provider_models(name, catalog, plugin, custom)
            self._by_provider[name] = models
        return models

    def providers(self) -> list[str]:
        """Return every provider name: built-in, plugin and models.json ones."""
        return list(self._names)

    # --- lookup ---------------------------------------------------------------------------

    def all_models(self) -> list[Model]:
        """Return every known model."""
        return [model for name in self._names for model in self._provider_models(name)]

    def provider_models(self, provider: str) -> list[Model]:
        """Return the models of one provider ([] if unknown)."""
        return list(self._provider_models(provider)) if provider in self._names else []

    def available_models(self) -> list[Model]:
        """Return the models whose provider has a key configured somewhere."""
        return [
            model
            for name in self._names
            if self.has_credentials(name)
            for model in self._provider_models(name)
        ]

    def has_stream(self, model: Model) -> bool:
        """Return whether an installed plugin streams the model's API."""
        return model.api in self._streams

    def find(self, provider: str, model_id: str) -> Model | None:
        """Return the model `provider/model_id`, if known."""
        if provider not in self._names:
            return None
        for model in self._provider_models(provider):
            if model.id == model_id:
                return model
        return None

    def resolve(self, pattern: str, models: list[Model] | None = None) -> ModelChoice:
        """Resolve `provider/id`, an id, or a fuzzy part of one, with an optional `:level`."""
        if models is None:
            choice = self._resolve_in_provider(pattern)
            if choice is not None:
                return choice
        candidates = self.all_models() if models is None else models
        lowered = pattern.strip().lower()
        first_exact = (m for m in candidates if lowered in (m.id.lower(), m.key.lower()))
        model = (next(first_exact, None) if models is None else None) or _match(pattern, candidates)
        if model is not None:
            return ModelChoice(model)
        head, _, level = pattern.rpartition(":")
        if head and level in THINKING_LEVELS:
            model = _match(head, candidates)
            if model is not None:
                return ModelChoice(model, level)
        if models is None:  # name the models the user can use first
            usable = self.available_models()
            candidates = usable + [m for m in candidates if m not in usable]
        known = ", ".join(m.key for m in candidates[:12]) or "none (install a provider plugin "
        "or add one to models.json)"
        raise UnknownModelError(
            f"Unknown model {pattern!r}. Known models: {known}"
            + ("…" if len(candidates) > 12 else "")
            + ". Run `pi --list-models` to see them all."
        )

    def _resolve_in_provider(self, pattern: str) -> ModelChoice | None:
        """`provider/…` where provider is known: look in that provider's models only (pi too
        prefers that reading), so resolving reads one provider's file."""
        prefix, slash, rest = pattern.partition("/")
        names = {n.lower(): n for n in self._names}
        if not slash or prefix.lower() not in names:
            return None
        models = self._provider_models(names[prefix.lower()])
        for text in (pattern, rest):
            try:
                return self.resolve(text, models)
            except UnknownModelError:
                continue
        return None

    # --- keys and streams -----------------------------------------------------------------

    def has_credentials(self, provider: str) -> bool:
        """Return whether a key for `provider` is configured (commands are not run)."""
        custom = self._custom.get(provider)
        plugin = self._plugin_providers.get(provider)
        return bool(
            self.auth.has_credentials(provider)
            or env_api_key(provider, plugin.api_key_env if plugin else [])
            or (custom and custom.api_key)
            or (plugin and plugin.api_key)
        )

    def key_variables(self) -> dict[str, list[str]]:
        """Return, per plugin provider, the environment variables that may hold its key."""
        plugins = self._plugin_providers.items()
        variables = {name: config.api_key_env or env_key_names(name) for name, config in plugins}
        return {name: list(names) for name, names in variables.items() if names}

    def get_api_key(self, provider: str) -> str | None:
        """Resolve the key: --api-key, auth.json, environment, then models.json / plugin value."""
        stored = self.auth.stored_key(provider)
        if stored:
            return stored
        plugin = self._plugin_providers.get(provider)
        from_env = env_api_key(provider, plugin.api_key_env if plugin else [])
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
        names = (plugin.api_key_env if plugin else []) or env_key_names(model.provider)
        env_names = " or ".join(names) if names else None
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
            raise UnsupportedApiError(missing_stream_message(model, sorted(self._streams)))
        if has_placeholders(model.base_url):
            stream = with_filled_url(stream)
        login = self.auth.login_for(model.provider)
        if login is not None and shapes_requests(login):
            provider = model.provider
            stream = with_login(stream, login, lambda: self.auth.oauth_credentials(provider))
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
