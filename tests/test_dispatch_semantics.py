"""Each hook semantics with several plugins, sync and async impls mixed, and the call order."""

from __future__ import annotations

from typing import Any

import pytest

from pi_core import (
    HookError,
    TextContent,
    UserMessage,
    hookimpl,
    make_tool_call_event,
    make_tool_result_event,
)
from pi_core.compaction import CompactionPreparation
from pi_core.events import (
    InputHandled,
    InputTransform,
    SessionBeforeCompactEvent,
    SessionBeforeSwitchEvent,
    SessionStartEvent,
    UserBashEvent,
)
from pi_core.plugins.manager import PluginManager
from pi_core.tools import BashToolInput, ReadToolInput


def add(manager: PluginManager, name: str, **hooks: Any) -> None:
    """Register an inline plugin whose hooks are the given functions."""
    namespace = {hook: staticmethod(hookimpl(fn)) for hook, fn in hooks.items()}
    plugin = type(name, (), namespace)()
    assert manager.register_inline(plugin, name) is not None, manager.errors


def collect_errors(manager: PluginManager) -> list[HookError]:
    errors: list[HookError] = []
    manager.dispatcher.on_error(errors.append)
    return errors


async def test_notify_runs_every_impl_newest_first_and_isolates_failures(
    manager: PluginManager,
) -> None:
    calls: list[str] = []

    def first(event: SessionStartEvent) -> None:
        calls.append("first")

    async def second(event: SessionStartEvent, ctx: Any) -> str:
        calls.append("second")
        raise RuntimeError("boom")

    def third(event: SessionStartEvent) -> None:
        calls.append("third")

    add(manager, "a", session_start=first)
    add(manager, "b", session_start=second)
    add(manager, "c", session_start=third)
    errors = collect_errors(manager)

    await manager.dispatcher.emit(SessionStartEvent())

    assert calls == ["third", "second", "first"]
    assert [(e.plugin, e.event) for e in errors] == [("b", "session_start")]
    assert "RuntimeError: boom" in errors[0].error
    assert "Traceback" in errors[0].traceback


async def test_tryfirst_and_trylast_override_load_order(manager: PluginManager) -> None:
    calls: list[str] = []

    class Late:
        @hookimpl(trylast=True)
        def session_start(self) -> None:
            calls.append("trylast")

    class Early:
        @hookimpl(tryfirst=True)
        async def session_start(self) -> None:
            calls.append("tryfirst")

    add(manager, "plain1", session_start=lambda: calls.append("plain1"))
    manager.register_inline(Late(), "late")
    manager.register_inline(Early(), "early")
    add(manager, "plain2", session_start=lambda: calls.append("plain2"))

    await manager.dispatcher.emit(SessionStartEvent())

    assert calls == ["tryfirst", "plain2", "plain1", "trylast"]


async def test_cancel_stops_at_first_cancel(manager: PluginManager) -> None:
    calls: list[str] = []

    def allow(event: SessionBeforeSwitchEvent) -> dict[str, bool]:
        calls.append("allow")
        return {"cancel": False}

    async def deny(event: SessionBeforeSwitchEvent) -> dict[str, bool]:
        calls.append("deny")
        return {"cancel": True}

    add(manager, "deny", session_before_switch=deny)
    add(manager, "allow", session_before_switch=allow)
    add(manager, "never", session_before_switch=lambda event: calls.append("never"))

    result = await manager.dispatcher.emit(SessionBeforeSwitchEvent(reason="new"))

    # newest first: never (returns None), allow (no cancel), deny (cancels)
    assert calls == ["never", "allow", "deny"]
    assert result is not None and result.cancel is True


async def test_cancel_keeps_last_non_none_result(manager: PluginManager) -> None:
    prep = CompactionPreparation(first_kept_entry_id="abcd1234")

    def summarizer(event: SessionBeforeCompactEvent) -> dict[str, Any]:
        return {
            "compaction": {
                "summary": "default summary",
                "firstKeptEntryId": event.preparation.first_kept_entry_id,
                "tokensBefore": 10,
            }
        }

    async def better(event: SessionBeforeCompactEvent) -> dict[str, Any]:
        return {"compaction": {"summary": "plugin", "firstKeptEntryId": "x", "tokensBefore": 1}}

    class Default:
        @hookimpl(trylast=True)
        def session_before_compact(self, event: SessionBeforeCompactEvent) -> Any:
            return summarizer(event)

    manager.register_inline(Default(), "default-compaction")
    add(manager, "better", session_before_compact=better)
    add(manager, "silent", session_before_compact=lambda event: None)

    result = await manager.dispatcher.emit(SessionBeforeCompactEvent(preparation=prep))

    assert result.compaction.summary == "default summary"  # the trylast impl ran last


async def test_each_cancel_impl_sees_the_result_standing_before_it(manager: PluginManager) -> None:
    prep = CompactionPreparation(first_kept_entry_id="abcd1234")
    seen: list[Any] = []

    class Default:
        @hookimpl(trylast=True)
        def session_before_compact(self, event: SessionBeforeCompactEvent) -> Any:
            seen.append(event.earlier_result)
            if event.earlier_result is not None and event.earlier_result.compaction is not None:
                return None  # a default stands aside
            return {
                "compaction": {"summary": "default", "firstKeptEntryId": "y", "tokensBefore": 2}
            }

    async def better(event: SessionBeforeCompactEvent) -> dict[str, Any]:
        seen.append(event.earlier_result)
        return {"compaction": {"summary": "plugin", "firstKeptEntryId": "x", "tokensBefore": 1}}

    manager.register_inline(Default(), "default-compaction")
    add(manager, "better", session_before_compact=better)

    result = await manager.dispatcher.emit(SessionBeforeCompactEvent(preparation=prep))

    assert seen[0] is None  # the first impl: nothing answered yet
    assert seen[1].compaction.summary == "plugin"
    assert result.compaction.summary == "plugin"


async def test_tool_call_block_short_circuits(manager: PluginManager) -> None:
    calls: list[str] = []

    def gate(event: Any) -> dict[str, Any] | None:
        calls.append("gate")
        if event.tool_name == "bash" and "rm -rf" in event.input.command:
            return {"block": True, "reason": "dangerous"}
        return None

    async def audit(event: Any) -> None:
        calls.append("audit")

    add(manager, "audit", tool_call=audit)
    add(manager, "gate", tool_call=gate)

    blocked = await manager.dispatcher.tool_call(
        make_tool_call_event("bash", "c1", BashToolInput(command="rm -rf /"))
    )
    assert blocked is not None and blocked.block and blocked.reason == "dangerous"
    assert calls == ["gate"]

    calls.clear()
    allowed = await manager.dispatcher.tool_call(
        make_tool_call_event("bash", "c2", BashToolInput(command="ls"))
    )
    assert allowed is None
    assert calls == ["gate", "audit"]


async def test_tool_call_fails_closed_when_an_impl_raises(manager: PluginManager) -> None:
    async def broken(event: Any) -> None:
        raise ValueError("policy file missing")

    add(manager, "ok", tool_call=lambda event: None)
    add(manager, "broken", tool_call=broken)
    errors = collect_errors(manager)

    result = await manager.dispatcher.tool_call(
        make_tool_call_event("read", "c1", ReadToolInput(path="a.txt"))
    )

    assert result is not None and result.block
    assert "broken" in (result.reason or "") and "policy file missing" in (result.reason or "")
    assert [e.plugin for e in errors] == ["broken"]


async def test_tool_call_fails_closed_on_a_malformed_result(manager: PluginManager) -> None:
    add(manager, "odd", tool_call=lambda event: {"blok": True})
    result = await manager.dispatcher.tool_call(
        make_tool_call_event("read", "c1", ReadToolInput(path="a.txt"))
    )
    assert result is not None and result.block


async def test_tool_call_input_mutation_is_seen_by_later_impls(manager: PluginManager) -> None:
    seen: list[str] = []

    def rewrite(event: Any) -> None:
        event.input.path = "safe.txt"

    add(manager, "observer", tool_call=lambda event: seen.append(event.input.path))
    add(manager, "rewriter", tool_call=rewrite)
    event = make_tool_call_event("read", "c1", ReadToolInput(path="secret.txt"))

    await manager.dispatcher.tool_call(event)

    assert seen == ["safe.txt"]
    assert event.input.path == "safe.txt"


async def test_context_chain_sees_previous_output_and_never_mutates_original(
    manager: PluginManager,
) -> None:
    original = [UserMessage(content="one"), UserMessage(content="two")]
    seen_counts: list[int] = []

    def drop_first(event: Any) -> dict[str, Any]:
        seen_counts.append(len(event.messages))
        event.messages[0].content = "mutated"
        return {"messages": event.messages[1:]}

    async def append(event: Any) -> dict[str, Any]:
        seen_counts.append(len(event.messages))
        return {"messages": [*event.messages, UserMessage(content="three")]}

    add(manager, "append", context=append)
    add(manager, "drop", context=drop_first)

    result = await manager.dispatcher.context(original)

    assert seen_counts == [2, 1]
    assert [m.content for m in result] == ["two", "three"]
    assert original[0].content == "one"


async def test_tool_result_patches_chain(manager: PluginManager) -> None:
    def redact(event: Any) -> dict[str, Any]:
        text = event.content[0].text.replace("SECRET", "[redacted]")
        return {"content": [{"type": "text", "text": text}]}

    async def mark_error(event: Any) -> dict[str, Any]:
        assert "[redacted]" in event.content[0].text  # sees the previous patch
        return {"isError": True, "details": {"reviewed": True}}

    add(manager, "mark", tool_result=mark_error)
    add(manager, "redact", tool_result=redact)
    event = make_tool_result_event(
        "custom", "c1", {}, [TextContent(text="key=SECRET")], None, False
    )

    patch = await manager.dispatcher.tool_result(event)

    assert patch is not None
    assert patch.content == [TextContent(text="key=[redacted]")]
    assert patch.is_error is True
    assert patch.details == {"reviewed": True}


async def test_tool_result_without_changes_returns_none(manager: PluginManager) -> None:
    add(manager, "quiet", tool_result=lambda event: None)
    event = make_tool_result_event("x", "c1", {}, [TextContent(text="ok")], None, False)
    assert await manager.dispatcher.tool_result(event) is None


async def test_input_transforms_chain_and_handled_stops(manager: PluginManager) -> None:
    calls: list[str] = []

    def upper(event: Any) -> dict[str, Any]:
        calls.append(f"upper:{event.text}")
        return {"action": "transform", "text": event.text.upper()}

    async def exclaim(event: Any) -> InputTransform:
        calls.append(f"exclaim:{event.text}")
        return InputTransform(text=event.text + "!")

    add(manager, "exclaim", input=exclaim)
    add(manager, "upper", input=upper)

    result = await manager.dispatcher.input("hi", None, "rpc")
    assert isinstance(result, InputTransform) and result.text == "HI!"
    assert calls == ["upper:hi", "exclaim:HI"]

    def swallow(event: Any) -> InputHandled:
        calls.append("swallow")
        return InputHandled()

    calls.clear()
    add(manager, "swallow", input=swallow)
    result = await manager.dispatcher.input("hi", None, "interactive")
    assert isinstance(result, InputHandled)
    assert calls == ["swallow"]


async def test_input_with_no_changes_continues(manager: PluginManager) -> None:
    add(manager, "noop", input=lambda event: {"action": "continue"})
    result = await manager.dispatcher.input("hi", None, "interactive")
    assert result.action == "continue"


async def test_before_agent_start_chains_prompt_and_collects_messages(
    manager: PluginManager,
) -> None:
    def add_rules(event: Any) -> dict[str, Any]:
        return {
            "systemPrompt": event.system_prompt + "\nRule A",
            "message": {"customType": "note", "content": "from a"},
        }

    async def add_more(event: Any) -> dict[str, Any]:
        assert event.system_prompt.endswith("Rule A")
        return {"system_prompt": event.system_prompt + "\nRule B"}

    add(manager, "b", before_agent_start=add_more)
    add(manager, "a", before_agent_start=add_rules)

    outcome = await manager.dispatcher.before_agent_start("do it", None, "base")

    assert outcome is not None
    assert outcome.system_prompt == "base\nRule A\nRule B"
    assert [m.custom_type for m in outcome.messages] == ["note"]
    assert await PluginManager(manager.cwd).dispatcher.before_agent_start("x", None, "p") is None


async def test_user_bash_first_result_wins(manager: PluginManager) -> None:
    calls: list[str] = []

    def runner(event: UserBashEvent) -> dict[str, Any]:
        calls.append("runner")
        return {"result": {"output": "remote output", "exitCode": 0}}

    add(manager, "later", user_bash=lambda event: calls.append("later") or None)
    add(manager, "runner", user_bash=runner)
    add(manager, "none", user_bash=lambda event: None)

    result = await manager.dispatcher.user_bash(UserBashEvent(command="ls", cwd="/"))

    assert result is not None and result.result is not None
    assert result.result.output == "remote output"
    assert calls == ["runner"]


async def test_resources_discover_aggregates_with_plugin_tags(manager: PluginManager) -> None:
    add(manager, "skills", resources_discover=lambda event: {"skillPaths": ["/s/one"]})

    async def prompts(event: Any) -> dict[str, Any]:
        assert event.reason == "startup"
        return {"promptPaths": ["/p/a"], "skillPaths": ["/s/two"]}

    add(manager, "prompts", resources_discover=prompts)

    merged = await manager.dispatcher.resources_discover(str(manager.cwd), "startup")

    assert [(p.path, p.plugin) for p in merged.skill_paths] == [
        ("/s/two", "prompts"),
        ("/s/one", "skills"),
    ]
    assert [(p.path, p.plugin) for p in merged.prompt_paths] == [("/p/a", "prompts")]


async def test_message_end_replacement_must_keep_role(manager: PluginManager) -> None:
    add(manager, "bad", message_end=lambda event: {"message": {"role": "user", "content": "x"}})
    errors = collect_errors(manager)
    from pi_core import AssistantMessage

    message = AssistantMessage(content=[TextContent(text="hello")])
    result = await manager.dispatcher.message_end(message)

    assert result is message
    assert "keep the role" in errors[0].error


async def test_before_provider_request_chains_payload(manager: PluginManager) -> None:
    add(manager, "a", before_provider_request=lambda event: {**event.payload, "a": 1})
    add(manager, "b", before_provider_request=lambda event: {**event.payload, "b": 2})
    assert await manager.dispatcher.before_provider_request({"x": 0}) == {"x": 0, "b": 2, "a": 1}


def test_emit_refuses_hooks_with_their_own_semantics(manager: PluginManager) -> None:
    import asyncio

    with pytest.raises(ValueError, match="block hook"):
        asyncio.run(
            manager.dispatcher.emit(make_tool_call_event("ls", "c", ReadToolInput(path=".")))
        )
