"""AgentOptions: each option declared once, passed down as is, and headers sent once, resolved."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_core.agent.agent import Agent, AgentOptions, AgentState
from pi_core.agent.loop import LoopConfig, LoopOptions
from pi_core.agent.tool_calls import ToolCallOptions, ToolRunConfig
from pi_core.ai.model import Model
from pi_core.ai.protocol import LLMContext, StreamOptions
from pi_core.testing import ScriptedProvider, reply, scripted_model


def own_fields(cls: type) -> set[str]:
    """The fields `cls` declares itself, not those it inherits."""
    return set(vars(cls).get("__annotations__", {})) - {"_"}


def test_each_option_is_declared_in_one_place() -> None:
    seen: dict[str, str] = {}
    for cls in [AgentOptions, LoopOptions, ToolCallOptions]:
        for name in own_fields(cls):
            assert name not in seen, f"{cls.__name__}.{name} repeats {seen[name]}.{name}"
            seen[name] = cls.__name__
    assert issubclass(AgentOptions, LoopOptions) and issubclass(LoopOptions, ToolCallOptions)
    for run_config in [LoopConfig, ToolRunConfig]:  # a run refers to the options, never copies
        assert own_fields(run_config) & set(seen) == set(), run_config.__name__


def test_stream_for_by_position_and_the_rest_by_keyword() -> None:
    provider = ScriptedProvider()
    options = AgentOptions(lambda model: provider, tool_execution="sequential")
    assert options.tool_execution == "sequential"
    assert options.steering_mode == "one-at-a-time"
    with pytest.raises(TypeError):
        AgentOptions(lambda model: provider, None)  # type: ignore[call-arg]


async def test_the_run_gets_the_agents_options_themselves() -> None:
    provider = ScriptedProvider(reply("done"))
    agent = Agent(
        AgentOptions(stream_for=lambda model: provider), AgentState(model=scripted_model())
    )
    config = agent._config()
    assert config.options is agent.options
    assert config.tools.options is agent.options


async def test_resolved_headers_are_sent_once_in_the_request_options() -> None:
    provider = ScriptedProvider(reply("done"))
    models: list[Model] = []

    def stream_for(model: Model) -> Any:
        models.append(model)
        return provider

    model = scripted_model().model_copy(
        update={"headers": {"X-Team": "!echo blue", "X-Both": "model"}}
    )
    agent = Agent(
        AgentOptions(
            stream_for=stream_for,
            request_headers=lambda m: {"X-Team": "blue", "X-Both": "model"},
            stream_options=StreamOptions(headers={"X-Both": "caller"}),
        ),
        AgentState(model=model),
    )

    await agent.prompt("hi")

    assert provider.options[0].headers == {"X-Team": "blue", "X-Both": "caller"}
    assert models[0].headers is None  # the unresolved forms never reach a provider
    assert isinstance(provider.requests[0], LLMContext)
    assert agent.state.model is model and model.headers == {
        "X-Team": "!echo blue",
        "X-Both": "model",
    }


async def test_the_sdk_guide_runs_the_agent_alone(capsys: pytest.CaptureFixture[str]) -> None:
    guide = (Path(__file__).resolve().parents[2] / "docs" / "sdk.md").read_text()
    section = guide.split("## The agent alone", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    body = "".join(f"    {line}\n" for line in code.splitlines())
    namespace: dict[str, Any] = {}
    exec(f"async def example():\n{body}", namespace)

    await namespace["example"]()

    printed = capsys.readouterr().out.split()
    assert printed[0] == "agent_start" and printed[-1] == "agent_end"
    assert "message_end" in printed
