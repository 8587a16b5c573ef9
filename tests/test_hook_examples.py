"""Every example in docs/hook_examples/ (embedded in docs/hooks.md) loads as a plugin and works."""

from __future__ import annotations

import importlib.util
import os
import re
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


async def test_register_completions_offers_and_attaches_notes(
    manager: PluginManager, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from pi_core.modes.interactive.mentions import attach_mentions, mention_entries

    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "todo.md").write_text("- ship it")
    load(manager, "register_completions")
    sources = list(manager.registry.completions.values())
    assert mention_entries(sources, "to") == [
        ("note:todo", "todo", "a note [register_completions]")
    ]
    sent = await attach_mentions("see @note:todo and @src/x.py", sources, print)
    assert (
        sent
        == 'see @note:todo and @src/x.py\n\n<resource name="note:todo">\n- ship it\n</resource>'
    )


def test_register_providers_adds_the_local_model(manager: PluginManager) -> None:
    load(manager, "register_providers")
    found = manager.model_registry().find("local", "qwen2.5-coder")
    assert found is not None
    assert found.base_url == "http://127.0.0.1:11434/v1"
    assert found.context_window == 32_768


def test_register_login_providers_offers_the_gateway_login(manager: PluginManager) -> None:
    load(manager, "register_login_providers")
    logins = manager.model_registry().auth.login_providers()
    assert [(login.id, login.name) for login in logins] == [("gateway", "Example gateway (SSO)")]


# --- resources and session lifecycle ------------------------------------------------------


async def test_resources_discover_adds_the_plugin_folders(manager: PluginManager) -> None:
    load(manager, "resources_discover")
    found = await manager.dispatcher.resources_discover(str(EXAMPLES), "startup")
    assert [(t.path, t.plugin) for t in found.skill_paths] == [
        (str(EXAMPLES / "skills"), "resources_discover")
    ]
    assert [t.path for t in found.prompt_paths] == [str(EXAMPLES / "prompts")]


async def test_session_start_sets_a_greeting(
    manager: PluginManager, ui: RecordingUI, project: Path
) -> None:
    load(manager, "session_start")
    await manager.dispatcher.emit(SessionStartEvent(reason="startup"))
    assert ui.status == {"greeter": f"ready in {project}"}
    await manager.dispatcher.emit(SessionStartEvent(reason="resume"))
    assert ui.status == {"greeter": f"welcome back in {project}"}


async def test_session_before_switch_cancels_unless_confirmed(
    manager: PluginManager, ui: RecordingUI
) -> None:
    load(manager, "session_before_switch")
    ui.answer = False
    result = await manager.dispatcher.emit(SessionBeforeSwitchEvent(reason="new"))
    assert result is not None and result.cancel is True
    ui.answer = True
    assert await manager.dispatcher.emit(SessionBeforeSwitchEvent(reason="new")) is None
    ui.answer = False  # a resume is never questioned
    assert await manager.dispatcher.emit(SessionBeforeSwitchEvent(reason="resume")) is None


async def test_session_switch_remembers_the_old_file(manager: PluginManager) -> None:
    module = load(manager, "session_switch")
    await manager.dispatcher.emit(
        SessionSwitchEvent(reason="new", previous_session_file="/s/old.jsonl")
    )
    await manager.dispatcher.emit(SessionSwitchEvent(reason="resume"))
    assert module.left_behind == ["/s/old.jsonl"]


async def test_session_before_fork_skips_restore_and_protects_the_root(
    manager: PluginManager,
) -> None:
    load(manager, "session_before_fork")
    result = await manager.dispatcher.emit(SessionBeforeForkEvent(entry_id="abcd1234"))
    assert result is not None and (result.cancel, result.skip_conversation_restore) == (False, True)
    result = await manager.dispatcher.emit(SessionBeforeForkEvent(entry_id="00000000"))
    assert result is not None and result.cancel is True


async def test_session_fork_names_the_source(manager: PluginManager, ui: RecordingUI) -> None:
    load(manager, "session_fork")
    await manager.dispatcher.emit(SessionForkEvent(previous_session_file="/s/a.jsonl"))
    assert ui.notes == [("forked from /s/a.jsonl", "info")]


async def test_session_before_compact_cancels_short_branches(manager: PluginManager) -> None:
    load(manager, "session_before_compact")
    prep = CompactionPreparation(first_kept_entry_id="e0000005")
    short = SessionBeforeCompactEvent(
        preparation=prep, branch_entries=[entry(i, "hi") for i in range(19)]
    )
    result = await manager.dispatcher.emit(short)
    assert result is not None and result.cancel is True
    long = SessionBeforeCompactEvent(
        preparation=prep, branch_entries=[entry(i, "hi") for i in range(20)]
    )
    assert await manager.dispatcher.emit(long) is None


async def test_session_compact_reports_tokens(manager: PluginManager, ui: RecordingUI) -> None:
    load(manager, "session_compact")
    stored = CompactionEntry(
        id="c0000001",
        parent_id="e0000001",
        timestamp="2026-01-01T00:00:00.000Z",
        summary="s",
        first_kept_entry_id="e0000001",
        tokens_before=51234,
    )
    await manager.dispatcher.emit(SessionCompactEvent(compaction_entry=stored))
    assert ui.notes == [("compacted 51234 tokens into a summary", "info")]


async def test_session_shutdown_flushes_the_log(manager: PluginManager, project: Path) -> None:
    module = load(manager, "session_shutdown")
    module.buffered.extend(["read a.py", "edit a.py"])
    await manager.dispatcher.emit(SessionShutdownEvent(reason="quit"))
    log = project / ".pi" / "activity.log"
    assert log.read_text() == "read a.py\nedit a.py\nshutdown: quit\n"
    assert module.buffered == []


async def test_session_before_tree_summarises_without_the_llm(manager: PluginManager) -> None:
    load(manager, "session_before_tree")
    entries = [entry(1, "add a parser"), entry(2, "now test it")]
    wanted = TreePreparation(
        target_id="e0000000", entries_to_summarize=entries, user_wants_summary=True
    )
    result = await manager.dispatcher.emit(SessionBeforeTreeEvent(preparation=wanted))
    assert result is not None and result.summary is not None
    assert result.summary.summary == (
        "Abandoned branch; the user asked:\n- add a parser\n- now test it"
    )
    unwanted = TreePreparation(target_id="e0000000", entries_to_summarize=entries)
    assert await manager.dispatcher.emit(SessionBeforeTreeEvent(preparation=unwanted)) is None


async def test_session_tree_records_moves(manager: PluginManager) -> None:
    module = load(manager, "session_tree")
    await manager.dispatcher.emit(SessionTreeEvent(old_leaf_id="a", new_leaf_id="b"))
    assert module.moves == [("a", "b")]


# --- agent loop ---------------------------------------------------------------------------


async def test_context_keeps_the_last_50_messages(manager: PluginManager) -> None:
    load(manager, "context")
    messages: list[Any] = [UserMessage(content=f"m{i}") for i in range(60)]
    sent = await manager.dispatcher.context(messages)
    assert [m.content for m in sent] == [f"m{i}" for i in range(10, 60)]
    few = messages[:3]
    assert [m.content for m in await manager.dispatcher.context(few)] == ["m0", "m1", "m2"]


async def test_before_provider_request_caps_max_tokens(manager: PluginManager) -> None:
    load(manager, "before_provider_request")
    payload = {"model": "m", "max_tokens": 32000}
    assert await manager.dispatcher.before_provider_request(payload) == {
        "model": "m",
        "max_tokens": 4096,
    }
    small = {"model": "m", "max_tokens": 1000}
    assert await manager.dispatcher.before_provider_request(small) == small


async def test_after_provider_response_warns_on_low_rate_limit(
    manager: PluginManager, ui: RecordingUI
) -> None:
    load(manager, "after_provider_response")
    plenty = {"X-RateLimit-Remaining-Requests": "80"}
    await manager.dispatcher.emit(AfterProviderResponseEvent(status=200, headers=plenty))
    assert ui.notes == []
    low = {"X-RateLimit-Remaining-Requests": "3"}
    await manager.dispatcher.emit(AfterProviderResponseEvent(status=200, headers=low))
    assert ui.notes == [("only 3 requests left (HTTP 200)", "warning")]


async def test_before_agent_start_adds_rules_and_a_reminder(manager: PluginManager) -> None:
    load(manager, "before_agent_start")
    outcome = await manager.dispatcher.before_agent_start("write a test", None, "base")
    assert outcome is not None
    assert outcome.system_prompt == "base\n\nHouse rules: use pathlib, never print secrets."
    assert [(m.custom_type, m.content) for m in outcome.messages] == [
        ("reminder", "Run the tests with pytest -q.")
    ]
    plain = await manager.dispatcher.before_agent_start("hello", None, "base")
    assert plain is not None and plain.messages == []


async def test_agent_start_and_end_drive_the_status_line(
    manager: PluginManager, ui: RecordingUI
) -> None:
    load(manager, "agent_start")
    load(manager, "agent_end")
    await manager.dispatcher.emit(AgentStartEvent())
    assert ui.status == {"busy": "agent running…"}
    messages: list[Any] = [UserMessage(content="hi"), assistant("hello")]
    await manager.dispatcher.emit(AgentEndEvent(messages=messages))
    assert ui.status == {"busy": None}
    assert ui.notes == [("done: 2 messages", "info")]


async def test_turn_start_numbers_turns(manager: PluginManager, ui: RecordingUI) -> None:
    load(manager, "turn_start")
    await manager.dispatcher.emit(TurnStartEvent(turn_index=2, timestamp=0))
    assert ui.status == {"turn": "turn 3"}


async def test_turn_end_counts_failed_tools(manager: PluginManager) -> None:
    module = load(manager, "turn_end")
    results = [
        ToolResultMessage(tool_call_id=f"c{i}", tool_name="bash", content=[], is_error=i > 0)
        for i in range(3)
    ]
    event = TurnEndEvent(turn_index=0, message=assistant("done"), tool_results=results)
    await manager.dispatcher.emit(event)
    assert module.failures_per_turn == {0: 2}


async def test_message_start_tallies_roles(manager: PluginManager) -> None:
    module = load(manager, "message_start")
    await manager.dispatcher.emit(MessageStartEvent(message=UserMessage(content="hi")))
    await manager.dispatcher.emit(MessageStartEvent(message=assistant("")))
    await manager.dispatcher.emit(MessageStartEvent(message=UserMessage(content="again")))
    assert dict(module.started) == {"user": 2, "assistant": 1}


async def test_message_update_shows_streamed_chars(manager: PluginManager, ui: RecordingUI) -> None:
    load(manager, "message_update")
    partial = assistant("hello wor")
    delta = TextDelta(content_index=0, partial=partial, delta="wor")
    await manager.dispatcher.emit(
        MessageUpdateEvent(message=partial, assistant_message_event=delta)
    )
    assert ui.status == {"stream": "9 chars"}


async def test_message_end_redacts_the_secret(manager: PluginManager) -> None:
    load(manager, "message_end")
    final = await manager.dispatcher.message_end(assistant("the password is hunter2"))
    assert isinstance(final, AssistantMessage)
    assert final.content == [TextContent(text="the password is [redacted]")]
    user = UserMessage(content="hunter2")
    assert await manager.dispatcher.message_end(user) == user


async def test_tool_execution_hooks_track_the_running_tool(
    manager: PluginManager, ui: RecordingUI
) -> None:
    load(manager, "tool_execution_start")
    updates = load(manager, "tool_execution_update")
    load(manager, "tool_execution_end")
    args = {"command": "make"}
    await manager.dispatcher.emit(
        ToolExecutionStartEvent(tool_call_id="c1", tool_name="bash", args=args)
    )
    assert ui.status == {"tool": "running bash"}
    await manager.dispatcher.emit(
        ToolExecutionUpdateEvent(tool_call_id="c1", tool_name="bash", args=args, partial_result="1")
    )
    await manager.dispatcher.emit(
        ToolExecutionUpdateEvent(tool_call_id="c1", tool_name="bash", args=args, partial_result="2")
    )
    assert updates.latest_output == {"c1": "2"}
    await manager.dispatcher.emit(
        ToolExecutionEndEvent(tool_call_id="c1", tool_name="bash", result=None, is_error=True)
    )
    assert ui.status == {"tool": None}
    assert ui.notes == [("bash failed", "error")]


# --- tools, model and user ----------------------------------------------------------------


async def test_tool_call_blocks_rm_rf_and_caps_timeouts(manager: PluginManager) -> None:
    load(manager, "tool_call")
    danger = make_tool_call_event("bash", "c1", BashToolInput(command="rm -rf /"))
    result = await manager.dispatcher.tool_call(danger)
    assert result is not None and result.block is True
    assert result.reason == "rm -rf is not allowed here"
    slow = BashToolInput(command="make", timeout=600)
    assert await manager.dispatcher.tool_call(make_tool_call_event("bash", "c2", slow)) is None
    assert slow.timeout == 120


async def test_tool_result_hides_keys_from_bash_output(manager: PluginManager) -> None:
    load(manager, "tool_result")
    leak = [TextContent(text="OPENAI_API_KEY=sk-abcdefgh12345")]
    event = make_tool_result_event("bash", "c1", {"command": "env"}, leak, None, False)
    patch = await manager.dispatcher.tool_result(event)
    assert patch is not None and patch.content == [TextContent(text="OPENAI_API_KEY=sk-…")]
    clean = make_tool_result_event(
        "bash", "c2", {"command": "ls"}, [TextContent(text="a.py")], None, False
    )
    assert await manager.dispatcher.tool_result(clean) is None


async def test_model_select_warns_when_images_are_lost(
    manager: PluginManager, ui: RecordingUI
) -> None:
    load(manager, "model_select")
    seeing, blind = model("vision", images=True), model("text-only", images=False)
    await manager.dispatcher.emit(ModelSelectEvent(model=seeing, previous_model=blind))
    assert ui.notes == []
    await manager.dispatcher.emit(ModelSelectEvent(model=blind, previous_model=seeing))
    assert ui.notes == [("text-only cannot read images", "warning")]


async def test_thinking_level_select_shows_the_level(
    manager: PluginManager, ui: RecordingUI
) -> None:
    load(manager, "thinking_level_select")
    await manager.dispatcher.emit(ThinkingLevelSelectEvent(level="high", previous_level="off"))
    assert ui.status == {"thinking": "thinking: high"}
    await manager.dispatcher.emit(ThinkingLevelSelectEvent(level="off", previous_level="high"))
    assert ui.status == {"thinking": None}


async def test_user_bash_answers_now_itself(manager: PluginManager, project: Path) -> None:
    load(manager, "user_bash")
    answer = await manager.dispatcher.user_bash(UserBashEvent(command="now", cwd=str(project)))
    assert answer is not None and answer.result is not None
    assert answer.result.exit_code == 0
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00\n", answer.result.output)
    other = UserBashEvent(command="ls", cwd=str(project))
    assert await manager.dispatcher.user_bash(other) is None


async def test_input_expands_fix_and_handles_ping(manager: PluginManager, ui: RecordingUI) -> None:
    load(manager, "input")
    assert isinstance(await manager.dispatcher.input(":ping", None, "interactive"), InputHandled)
    assert ui.notes == [("pong", "info")]
    fixed = await manager.dispatcher.input(":fix the parser", None, "interactive")
    assert isinstance(fixed, InputTransform)
    assert fixed.text == "Find and fix the bug: the parser"
    plain = await manager.dispatcher.input("hello", None, "interactive")
    assert not isinstance(plain, InputHandled | InputTransform)


async def test_register_tool_operations_runs_bash_at_low_priority(
    manager: PluginManager,
) -> None:
    from pi_plugin_tools import create_tools

    from pi_core.testing import execute_tool_call

    load(manager, "register_tool_operations")
    assert manager.registry.tool_operations.kinds() == ["spawn_hook"]
    (bash,) = create_tools(["bash"])
    arguments = {"command": 'echo "$PI_AGENT $(nice)"'}
    outcome = await execute_tool_call(bash, "c1", arguments, None, None, manager.ctx)
    expected = min(19, os.nice(0) + 10)
    assert not outcome.is_error
    assert outcome.result.text_content().strip() == f"1 {expected}"
