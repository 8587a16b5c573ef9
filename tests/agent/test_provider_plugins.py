"""A provider registered by a plugin at load time streams for the agent once the session binds."""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

from pi_core.agent.agent import Agent, AgentOptions, AgentState
from pi_core.ai.auth import AuthStorage
from pi_core.ai.model_registry import ModelRegistry
from pi_core.messages import AssistantMessage
from pi_core.plugins.manager import LoadOptions, PluginManager

PROVIDER_PLUGIN = """
from pi_core import hookimpl
from pi_core.ai import ProviderConfig, ProviderModelConfig
from pi_core.ai.builder import AssistantMessageBuilder


async def stream(model, context, options):
    builder = AssistantMessageBuilder(model)
    yield builder.start()
    index, event = builder.text_start()
    yield event
    last = context.messages[-1].content
    text = last if isinstance(last, str) else last[0].text
    yield builder.text_delta(index, f"{options.api_key}:{text[::-1]}")
    yield builder.text_end(index)
    yield builder.done("stop")


@hookimpl
def register_providers(register):
    register("mirror", ProviderConfig(
        api="mirror-api", api_key_env=["MIRROR_KEY"],
        models=[ProviderModelConfig(id="mirror-1", context_window=1000)], stream=stream,
    ))
"""


async def test_plugin_provider_streams_for_the_agent(tmp_path: Path, monkeypatch) -> None:
    project = tmp_path / "project"
    (project / ".pi" / "extensions").mkdir(parents=True)
    (project / ".pi" / "extensions" / "mirror.py").write_text(dedent(PROVIDER_PLUGIN))
    monkeypatch.setenv("MIRROR_KEY", "k123")
    manager = PluginManager(project, agent_dir=tmp_path / "agent")
    manager.load(LoadOptions(installed=False))
    assert manager.errors == []
    registry = ModelRegistry(AuthStorage(tmp_path / "agent" / "auth.json"), built_in=False)
    assert registry.all_models() == []

    manager.bind(object(), model_registry=registry)

    model = registry.resolve("mirror").model
    assert model.key == "mirror/mirror-1" and model.context_window == 1000

    async def api_key(provider: str) -> str | None:
        return registry.get_api_key(provider)

    agent = Agent(
        AgentOptions(stream_for=registry.stream_for, get_api_key=api_key),
        AgentState(model=model),
    )
    await agent.prompt("stressed")
    final = agent.state.messages[-1]
    assert isinstance(final, AssistantMessage)
    assert final.content[0].text == "k123:desserts"  # type: ignore[union-attr]
