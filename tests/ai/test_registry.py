"""Models from plugins and models.json, lookup patterns, keys and their value forms."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from pi_core.ai.auth import AuthStorage
from pi_core.ai.model import ModelCost, ProviderConfig, ProviderModelConfig
from pi_core.ai.model_registry import (
    MissingApiKeyError,
    ModelRegistry,
    UnknownModelError,
    UnsupportedApiError,
)


async def fake_stream(*args: Any) -> Any:
    yield None  # pragma: no cover


def registry(tmp_path: Path, models_json: dict[str, Any] | None = None) -> ModelRegistry:
    path = tmp_path / "models.json"
    if models_json is not None:
        path.write_text(json.dumps(models_json))
    reg = ModelRegistry(AuthStorage(tmp_path / "auth.json"), path, built_in=False)
    reg.register_provider(
        "anthropic",
        ProviderConfig(
            api="anthropic-messages",
            base_url="https://api.anthropic.com",
            api_key_env=["ANTHROPIC_OAUTH_TOKEN", "ANTHROPIC_API_KEY"],
            models=[
                ProviderModelConfig(id="claude-sonnet-4-5", name="Sonnet", context_window=200_000),
                ProviderModelConfig(id="claude-sonnet-4-5-20250929", name="Sonnet dated"),
                ProviderModelConfig(id="claude-haiku-4-5", name="Claude Haiku 4.5",
                                    cost=ModelCost(input=1, output=5)),
            ],
            stream=fake_stream,
        ),
    )  # fmt: skip
    return reg


@pytest.fixture(autouse=True)
def no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("ANTHROPIC_API_KEY", "ANTHROPIC_OAUTH_TOKEN", "MY_PROXY_KEY"):
        monkeypatch.delenv(name, raising=False)


def test_lookup_by_provider_id_exact_id_and_fuzzy(tmp_path: Path) -> None:
    reg = registry(tmp_path)
    assert reg.resolve("anthropic/claude-haiku-4-5").model.id == "claude-haiku-4-5"
    assert reg.resolve("claude-haiku-4-5").model.provider == "anthropic"
    assert reg.resolve("haiku").model.id == "claude-haiku-4-5"
    # an alias (undated id) wins over a dated version
    assert reg.resolve("sonnet").model.id == "claude-sonnet-4-5"


def test_thinking_suffix(tmp_path: Path) -> None:
    reg = registry(tmp_path)
    choice = reg.resolve("anthropic/claude-sonnet-4-5:high")
    assert choice.model.id == "claude-sonnet-4-5" and choice.thinking_level == "high"
    with pytest.raises(UnknownModelError):
        reg.resolve("anthropic/claude-sonnet-4-5:loud")


def test_unknown_model_names_what_exists(tmp_path: Path) -> None:
    with pytest.raises(
        UnknownModelError, match=r"Unknown model 'gpt-9'.*anthropic/claude-haiku-4-5.*--list-models"
    ):
        registry(tmp_path).resolve("gpt-9")


def test_models_json_custom_provider_with_colon_ids(tmp_path: Path) -> None:
    reg = registry(
        tmp_path,
        {"providers": {"ollama": {
            "baseUrl": "http://127.0.0.1:11434/v1", "api": "openai-completions", "apiKey": "ollama",
            "compat": {"supportsDeveloperRole": False},
            "models": [{"id": "llama3.1:8b"}, {"id": "qwen3:4b", "reasoning": True,
                                               "compat": {"thinkingFormat": "qwen"}}],
        }}},
    )  # fmt: skip
    llama = reg.resolve("ollama/llama3.1:8b").model
    assert llama.base_url == "http://127.0.0.1:11434/v1" and llama.api == "openai-completions"
    assert (
        llama.context_window == 128_000
        and llama.max_tokens == 16_384
        and llama.name == "llama3.1:8b"
    )
    assert llama.compat == {"supportsDeveloperRole": False}
    qwen = reg.resolve("qwen3:4b:low")
    assert qwen.model.id == "qwen3:4b" and qwen.thinking_level == "low"
    assert qwen.model.compat == {"supportsDeveloperRole": False, "thinkingFormat": "qwen"}
    assert reg.get_api_key("ollama") == "ollama"
    with pytest.raises(UnsupportedApiError, match="pi-plugin-openai"):
        reg.stream_for(llama)


def test_models_json_overrides_a_plugin_provider(tmp_path: Path) -> None:
    reg = registry(
        tmp_path,
        {"providers": {"anthropic": {
            "baseUrl": "http://127.0.0.1:9/proxy",
            "modelOverrides": {
                "claude-haiku-4-5": {"name": "Haiku via proxy", "cost": {"output": 7}},
                "not-a-model": {"name": "ignored"},
            },
            "models": [{"id": "claude-custom", "contextWindow": 1000}],
        }}},
    )  # fmt: skip
    haiku = reg.find("anthropic", "claude-haiku-4-5")
    assert haiku is not None and haiku.name == "Haiku via proxy"
    assert haiku.cost.input == 1 and haiku.cost.output == 7
    assert haiku.base_url == "http://127.0.0.1:9/proxy"
    custom = reg.find("anthropic", "claude-custom")
    assert (
        custom is not None and custom.api == "anthropic-messages" and custom.context_window == 1000
    )
    assert reg.stream_for(custom) is fake_stream
    assert len([m for m in reg.all_models() if m.provider == "anthropic"]) == 4


def test_a_provider_can_bring_streams_for_further_api_kinds(tmp_path: Path) -> None:
    async def other_stream(*args: Any) -> Any:
        yield None  # pragma: no cover

    reg = registry(
        tmp_path,
        {"providers": {"local": {"baseUrl": "http://127.0.0.1:9/v1", "api": "chat-kind",
                                 "apiKey": "x", "models": [{"id": "small"}]}}},
    )  # fmt: skip
    reg.register_provider(
        "multi",
        ProviderConfig(
            api="main-kind",
            models=[ProviderModelConfig(id="m1"), ProviderModelConfig(id="m2", api="chat-kind")],
            stream=fake_stream,
            streams={"chat-kind": other_stream},
        ),
    )
    assert reg.stream_for(reg.resolve("multi/m1").model) is fake_stream
    assert reg.stream_for(reg.resolve("multi/m2").model) is other_stream
    assert reg.stream_for(reg.resolve("local/small").model) is other_stream


def test_broken_models_json_is_reported_not_fatal(tmp_path: Path) -> None:
    (tmp_path / "models.json").write_text('{"providers": {"x": {"models": [{"name": 1}]}}}')
    reg = ModelRegistry(AuthStorage(tmp_path / "auth.json"), tmp_path / "models.json")
    assert reg.errors and "provider 'x'" in reg.errors[0] and "models.json" in reg.errors[0]
    (tmp_path / "models.json").write_text("{ not json")
    reg.reload()
    assert "models.json:1:3: invalid JSON in models.json" in reg.errors[0]


def test_key_order_runtime_then_auth_json_then_env_then_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reg = registry(tmp_path, {"providers": {"anthropic": {"apiKey": "MY_PROXY_KEY"}}})
    assert reg.get_api_key("anthropic") == "MY_PROXY_KEY"  # an unset env name is a literal
    monkeypatch.setenv("MY_PROXY_KEY", "from-named-env")
    assert reg.get_api_key("anthropic") == "from-named-env"
    monkeypatch.setenv("ANTHROPIC_API_KEY", "from-env")
    assert reg.get_api_key("anthropic") == "from-env"
    reg.auth.set_api_key("anthropic", "from-auth-json")
    assert reg.get_api_key("anthropic") == "from-auth-json"
    reg.auth.set_runtime_key("anthropic", "from-flag")
    assert reg.get_api_key("anthropic") == "from-flag"


def test_auth_json_is_private_and_supports_commands(tmp_path: Path) -> None:
    auth = AuthStorage(tmp_path / "agent" / "auth.json")
    auth.set_api_key("openai", "!printf sk-from-command")
    mode = stat.S_IMODE(os.stat(tmp_path / "agent" / "auth.json").st_mode)
    assert mode == 0o600
    reloaded = AuthStorage(tmp_path / "agent" / "auth.json")
    assert reloaded.stored_key("openai") == "sk-from-command"


def test_missing_key_says_what_to_set(tmp_path: Path) -> None:
    reg = registry(tmp_path)
    model = reg.resolve("haiku").model
    with pytest.raises(MissingApiKeyError) as error:
        reg.require_api_key(model)
    text = str(error.value)
    assert "ANTHROPIC_OAUTH_TOKEN or ANTHROPIC_API_KEY" in text and "auth.json" in text
    assert "--api-key" in text
    assert reg.available_models() == []


def test_auth_header_and_header_value_forms(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MY_PROXY_KEY", "secret")
    reg = registry(
        tmp_path,
        {"providers": {"proxy": {
            "baseUrl": "http://127.0.0.1:1", "api": "anthropic-messages", "apiKey": "MY_PROXY_KEY",
            "authHeader": True, "headers": {"x-team": "!echo blue", "x-literal": "plain"},
            "models": [{"id": "m"}],
        }}},
    )  # fmt: skip
    headers = reg.request_headers(reg.resolve("proxy/m").model)
    assert headers == {"x-team": "blue", "x-literal": "plain", "Authorization": "Bearer secret"}
