"""The built-in catalog in the registry: read lazily, merged with models.json as pi merges it,
the start-up model chosen as pi chooses it, and a clear error for an API without a plugin."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pi_core.ai import catalog_data
from pi_core.ai.auth import AuthStorage
from pi_core.ai.model import ProviderConfig
from pi_core.ai.model_registry import ModelRegistry, UnsupportedApiError
from pi_core.ai.provider_defaults import initial_model


async def fake_stream(*args: Any) -> Any:
    yield None  # pragma: no cover


def make_registry(tmp_path: Path, models_json: dict[str, Any] | None = None) -> ModelRegistry:
    path = tmp_path / "models.json"
    if models_json is not None:
        path.write_text(json.dumps(models_json))
    registry = ModelRegistry(AuthStorage(tmp_path / "auth.json"), path)
    for api in ("anthropic-messages", "openai-responses", "openai-completions"):
        registry.register_stream(api, fake_stream)
    return registry


@pytest.fixture(autouse=True)
def no_keys(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("ANTHROPIC_API_KEY", "ANTHROPIC_OAUTH_TOKEN", "OPENAI_API_KEY", "GEMINI_API_KEY",
                 "GROQ_API_KEY", "AWS_PROFILE", "GOOGLE_CLOUD_PROJECT"):  # fmt: skip
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))


def test_resolving_one_model_reads_only_its_provider_s_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    read: list[str] = []
    original = catalog_data._read_models.__wrapped__

    def recording(provider: str) -> tuple[dict[str, Any], ...]:
        read.append(provider)
        return original(provider)

    monkeypatch.setattr(catalog_data, "_read_models", recording)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    registry = make_registry(tmp_path)
    assert registry.resolve("anthropic/claude-opus-4-7").model.context_window == 1_000_000
    assert registry.find("anthropic", "claude-sonnet-4-6") is not None
    assert [m.provider for m in registry.available_models()][:1] == ["anthropic"]
    assert read == ["anthropic"]


def test_models_json_merges_over_the_catalog_as_pi_does(tmp_path: Path) -> None:
    registry = make_registry(tmp_path, {"providers": {
        "anthropic": {
            "baseUrl": "http://127.0.0.1:9/proxy",
            "headers": {"x-team": "a"},
            "modelOverrides": {"claude-opus-4-7": {
                "contextWindow": 500_000, "cost": {"input": 1},
                "thinkingLevelMap": {"minimal": None}}},
            "models": [{"id": "claude-next", "contextWindow": 1000}],
        },
        "zai": {"compat": {"zaiToolStream": False, "supportsStore": False}},
    }})  # fmt: skip
    opus = registry.find("anthropic", "claude-opus-4-7")
    assert opus is not None and opus.base_url == "http://127.0.0.1:9/proxy"
    assert opus.context_window == 500_000 and opus.max_tokens == 128_000
    assert (opus.cost.input, opus.cost.output) == (1, 25)  # the rest of the price is kept
    assert opus.thinking_level_map is not None and opus.thinking_level_map["minimal"] is None
    assert opus.thinking_level_map["xhigh"] == "xhigh"  # merged, not replaced
    assert opus.headers == {"x-team": "a"}
    haiku = registry.find("anthropic", "claude-haiku-4-5")
    assert haiku is not None and haiku.base_url == "http://127.0.0.1:9/proxy"
    added = registry.find("anthropic", "claude-next")
    assert added is not None and added.api == "anthropic-messages"
    assert added.base_url == "http://127.0.0.1:9/proxy"
    glm = registry.find("zai", "glm-5.1")
    assert glm is not None and glm.compat is not None
    assert glm.compat["thinkingFormat"] == "zai"  # the catalog's flag is kept
    assert glm.compat["zaiToolStream"] is False and glm.compat["supportsStore"] is False


def test_models_json_routing_compat_merges_field_by_field(tmp_path: Path) -> None:
    registry = make_registry(
        tmp_path,
        {
            "providers": {
                "openrouter": {
                    "modelOverrides": {
                        "anthropic/claude-sonnet-4.5": {
                            "compat": {"openRouterRouting": {"order": ["b"]}}
                        }
                    }
                }
            }
        },
    )
    plain = tmp_path / "plain"
    plain.mkdir()
    base = make_registry(plain)
    before = base.find("openrouter", "anthropic/claude-sonnet-4.5")
    after = registry.find("openrouter", "anthropic/claude-sonnet-4.5")
    assert before is not None and after is not None and after.compat is not None
    routing = (before.compat or {}).get("openRouterRouting") or {}
    assert after.compat["openRouterRouting"] == {**routing, "order": ["b"]}


def test_the_start_up_model_follows_pi_s_provider_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GROQ_API_KEY", "k")
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    chosen = initial_model(make_registry(tmp_path))
    assert chosen is not None and chosen.key == "openai/gpt-5.4"  # openai comes before groq
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    chosen = initial_model(make_registry(tmp_path))
    assert chosen is not None and chosen.key == "anthropic/claude-opus-4-7"


def test_the_start_up_model_passes_over_apis_without_a_plugin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "k")  # google comes before groq in pi's table
    monkeypatch.setenv("GROQ_API_KEY", "k")
    chosen = initial_model(make_registry(tmp_path))
    assert chosen is not None and chosen.key == "groq/openai/gpt-oss-120b"
    monkeypatch.delenv("GROQ_API_KEY")
    chosen = initial_model(make_registry(tmp_path))  # nothing streams: pi's choice, for the error
    assert chosen is not None and chosen.key == "google/gemini-3.1-pro-preview"


def test_a_bare_id_picks_the_first_provider_in_pi_s_order(tmp_path: Path) -> None:
    registry = make_registry(tmp_path)
    assert registry.resolve("claude-haiku-4-5").model.key == "anthropic/claude-haiku-4-5"
    assert registry.resolve("zai/glm-5.1").model.key == "zai/glm-5.1"
    assert registry.resolve("vercel-ai-gateway/zai/glm-5.1").model.id == "zai/glm-5.1"


def test_an_api_without_a_plugin_names_what_is_missing(tmp_path: Path) -> None:
    registry = make_registry(tmp_path)
    gemini = registry.find("google", "gemini-2.5-pro")
    assert gemini is not None
    with pytest.raises(UnsupportedApiError, match=r"plugin for the google-generative-ai API"):
        registry.stream_for(gemini)
    bare = ModelRegistry(AuthStorage(tmp_path / "auth.json"))
    opus = bare.find("anthropic", "claude-opus-4-7")
    assert opus is not None
    with pytest.raises(UnsupportedApiError, match="Install pi-plugin-anthropic"):
        bare.stream_for(opus)


def test_a_plugin_provider_with_its_own_models_adds_to_the_catalog(tmp_path: Path) -> None:
    from pi_core.ai.model import ProviderModelConfig

    registry = make_registry(tmp_path)
    registry.register_provider(
        "anthropic",
        ProviderConfig(
            api="anthropic-messages", models=[ProviderModelConfig(id="claude-plugin-only")]
        ),
    )
    ids = [m.id for m in registry.provider_models("anthropic")]
    assert "claude-plugin-only" in ids and "claude-opus-4-7" in ids
