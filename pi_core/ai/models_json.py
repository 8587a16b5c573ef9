"""Reading `models.json`: custom providers, overrides of plugin providers, per-model overrides."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from pi_core.ai.model import ModelCost, ProviderModelConfig
from pi_core.messages.base import WireModel


class ModelsJsonError(ValueError):
    """models.json is unreadable or has a field of the wrong shape; names the path."""


class CustomProvider(WireModel):
    """One provider entry of models.json."""

    base_url: str | None = None
    api: str | None = None
    api_key: str | None = None
    headers: dict[str, str] | None = None
    auth_header: bool | None = None
    compat: dict[str, Any] | None = None
    models: list[ProviderModelConfig] | None = None
    model_overrides: dict[str, dict[str, Any]] | None = None


def read_models_json(path: Path) -> dict[str, CustomProvider]:
    """Return the providers of models.json ({} if the file does not exist)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as error:
        raise ModelsJsonError(f"{path}: cannot read: {error.strerror}") from None
    except UnicodeDecodeError as error:
        raise ModelsJsonError(f"{path}: not UTF-8 text: {error.reason}") from None
    try:
        data = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as error:
        raise ModelsJsonError(
            f"{path}:{error.lineno}:{error.colno}: invalid JSON in models.json: {error.msg}"
        ) from None
    providers = data.get("providers", {}) if isinstance(data, dict) else None
    if not isinstance(providers, dict):
        raise ModelsJsonError(f'{path}: expected {{"providers": {{...}}}}')
    result = {}
    for name, entry in providers.items():
        try:
            result[name] = CustomProvider.model_validate(entry)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise ModelsJsonError(f"{path}: provider {name!r}: {where}: {first['msg']}") from None
    return result


_ROUTING = ("openRouterRouting", "vercelGatewayRouting")


def merge_compat(base: dict[str, Any] | None, override: dict[str, Any] | None) -> dict[str, Any]:
    """`override`'s flags over `base`'s, as pi merges them (the routing objects field by field)."""
    merged = {**(base or {}), **(override or {})}
    for name in _ROUTING:
        parts = [part.get(name) for part in (base or {}, override or {})]
        if any(isinstance(part, dict) for part in parts):
            dicts = [part for part in parts if isinstance(part, dict)]
            merged[name] = {key: value for part in dicts for key, value in part.items()}
    return merged


def apply_override(model: ProviderModelConfig, override: dict[str, Any]) -> ProviderModelConfig:
    """Return `model` with the fields of a `modelOverrides` entry applied (cost merged)."""
    data = model.model_dump(by_alias=True)
    for key, value in override.items():
        if key == "cost" and isinstance(value, dict):
            data["cost"] = {
                **data["cost"],
                **ModelCost.model_validate(value).model_dump(by_alias=True, exclude_unset=True),
            }
        elif key == "compat" and isinstance(value, dict):
            data["compat"] = merge_compat(data.get("compat"), value)
        elif key == "thinkingLevelMap" and isinstance(value, dict):
            data["thinkingLevelMap"] = {**(data.get("thinkingLevelMap") or {}), **value}
        else:
            data[key] = value
    return ProviderModelConfig.model_validate(data)
