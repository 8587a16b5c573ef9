"""Every example in docs/hook_examples/ (embedded in docs/hooks.md) loads as a plugin and works."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from pi_core import (
    AssistantMessage,
    TextContent,
    ToolResultMessage,
    UserMessage,
    make_tool_call_event,
    make_tool_result_event,
)
from pi_core.ai.model import Model
from pi_core.compaction import CompactionPreparation
from pi_core.events import (
    AfterProviderResponseEvent,
    AgentEndEvent,
    AgentStartEvent,
    InputHandled,
    InputTransform,
    MessageStartEvent,
    MessageUpdateEvent,
    ModelSelectEvent,
    SessionBeforeCompactEvent,
    SessionBeforeForkEvent,
    SessionBeforeSwitchEvent,
    SessionBeforeTreeEvent,
    SessionCompactEvent,
    SessionForkEvent,
    SessionShutdownEvent,
    SessionStartEvent,
    SessionSwitchEvent,
    SessionTreeEvent,
    ThinkingLevelSelectEvent,
    ToolExecutionEndEvent,
    ToolExecutionStartEvent,
    ToolExecutionUpdateEvent,
    TreePreparation,
    TurnEndEvent,
    TurnStartEvent,
    UserBashEvent,
)
from pi_core.hookspecs import EVENT_HOOKS, REGISTRATION_HOOKS
from pi_core.messages import CustomMessage
from pi_core.messages.stream import TextDelta
from pi_core.plugins.manager import PluginManager
from pi_core.plugins.ui import ExtensionUI
from pi_core.session.entries import CompactionEntry, SessionMessageEntry
from pi_core.tools import BashToolInput

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "hook_examples"


class RecordingUI(ExtensionUI):
    """A UI that records notifications and status texts and answers confirms as told."""

    has_ui = True

    def __init__(self, confirm: bool = True) -> None:
        self.answer = confirm
        self.notes: list[tuple[str, str]] = []
        self.status: dict[str, str | None] = {}

    async def confirm(self, title: str, message: str, **options: Any) -> bool:
        return self.answer

    def notify(self, message: str, type: Any = "info") -> None:
        self.notes.append((message, type))

    def set_status(self, key: str, text: str | None) -> None:
        self.status[key] = text


def load(manager: PluginManager, hook: str) -> ModuleType:
    """Import docs/hook_examples/<hook>.py freshly and register it as a plugin."""
    spec = importlib.util.spec_from_file_location(f"hook_example_{hook}", EXAMPLES / f"{hook}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert manager.register_inline(module, hook) is not None, manager.errors
    assert manager.errors == []
    return module


@pytest.fixture
def ui(manager: PluginManager) -> RecordingUI:
    recording = RecordingUI()
    manager.runtime.ui = recording
    return recording


def entry(index: int, text: str) -> SessionMessageEntry:
    return SessionMessageEntry(
        id=f"e{index:07d}",
        parent_id=None,
        timestamp="2026-01-01T00:00:00.000Z",
        message=UserMessage(content=text),
    )


def assistant(text: str) -> AssistantMessage:
    return AssistantMessage.model_validate(
        {
            "content": [{"type": "text", "text": text}],
            "api": "openai-completions",
            "provider": "p",
            "model": "m",
        }
    )


def model(model_id: str, images: bool) -> Model:
    kinds: list[Any] = ["text", "image"] if images else ["text"]
    return Model(id=model_id, api="openai-completions", provider="p", input=kinds)


def test_every_hook_has_exactly_one_example_and_hooks_md_shows_it() -> None:
    hooks = {*EVENT_HOOKS, *REGISTRATION_HOOKS}
    assert {path.stem for path in EXAMPLES.glob("*.py")} == hooks
    text = (EXAMPLES.parent / "hooks.md").read_text()
    for hook in hooks:
        body = (EXAMPLES / f"{hook}.py").read_text().split('"""', 2)[2].strip()
        assert body in text, hook


# --- registration hooks -------------------------------------------------------------------


async def test_register_tools_registers_a_tool_that_runs(manager: PluginManager) -> None:
    module = load(manager, "register_tools")
    tool = manager.registry.tools["shout"].tool
    result = await tool.execute("c1", module.ShoutArgs(text="hi there"), None, None, manager.ctx)
    assert result.text_content() == "HI THERE"
    assert result.details == {"length": 8}


async def test_register_commands_registers_words(manager: PluginManager, ui: RecordingUI) -> None:
    load(manager, "register_commands")
    command = manager.registry.commands["words"]
    assert command.description == "Count the words after /words"
    await command.handler("one two three", manager.command_ctx)
    assert ui.notes == [("3 words", "info")]


async def test_register_flags_plan_changes_the_system_prompt(manager: PluginManager) -> None:
    load(manager, "register_flags")
    assert manager.registry.flags["plan"].default is False
    assert await manager.dispatcher.before_agent_start("hi", None, "base") is None
    manager.runtime.flag_values["plan"] = True
    outcome = await manager.dispatcher.before_agent_start("hi", None, "base")
    assert outcome is not None and outcome.system_prompt == "base\n\nOnly plan: edit no files."


def test_register_shortcuts_binds_ctrl_t(
    manager: PluginManager, ui: RecordingUI, project: Path
) -> None:
    load(manager, "register_shortcuts")
    manager.registry.shortcuts["ctrl+t"].handler(manager.ctx)
    assert ui.notes == [(f"no model in {project}", "info")]


def test_register_message_renderers_draws_todos(manager: PluginManager) -> None:
    load(manager, "register_message_renderers")
    renderer = manager.registry.renderers["todo"].renderer
    message = CustomMessage(custom_type="todo", content="buy milk")
    assert renderer(message, {"expanded": False}, None) == "[ ] buy milk"


def test_register_providers_adds_the_local_model(manager: PluginManager) -> None:
    load(manager, "register_providers")
    found = manager.model_registry().find("local", "qwen2.5-coder")
    assert found is not None
    assert found.base_url == "http://127.0.0.1:11434/v1"
    assert found.context_window == 32_768
