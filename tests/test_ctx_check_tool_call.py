"""ctx.check_tool_call and ctx.patch_tool_result: calls made elsewhere meet the session's hooks."""

from __future__ import annotations

from typing import Any

from pi_core import TextContent, hookimpl, make_tool_call_event, make_tool_result_event
from pi_core.events import ToolCallResult, ToolResultPatch
from pi_core.plugins.context import ExtensionContext
from pi_core.plugins.manager import PluginManager
from pi_core.plugins.runtime import PluginRuntime
from pi_core.tools import BashToolInput


class _Gate:
    """Blocks `rm`, raises on `boom`, and upper-cases every result."""

    @hookimpl
    def tool_call(self, event: Any, ctx: Any) -> ToolCallResult | None:
        """Refuse rm; fail on boom."""
        if "boom" in event.input.command:
            raise RuntimeError("the gate broke")
        return ToolCallResult(block=True, reason="no rm") if "rm" in event.input.command else None

    @hookimpl
    def tool_result(self, event: Any) -> ToolResultPatch:
        """Shout."""
        text = "".join(block.text for block in event.content)
        return ToolResultPatch(content=[TextContent(text=text.upper())])


def _call(command: str) -> Any:
    return make_tool_call_event("bash", "c1", BashToolInput(command=command))


async def test_the_sessions_whole_tool_call_chain_answers(manager: PluginManager) -> None:
    manager.register_inline(_Gate(), "gate")
    blocked = await manager.ctx.check_tool_call(_call("rm -rf x"))
    assert blocked is not None and (blocked.block, blocked.reason) == (True, "no rm")
    assert await manager.ctx.check_tool_call(_call("ls")) is None
    failed = await manager.ctx.check_tool_call(_call("boom"))
    assert failed is not None and failed.block and "the gate broke" in (failed.reason or "")


async def test_the_tool_result_chain_patches(manager: PluginManager) -> None:
    manager.register_inline(_Gate(), "gate")
    event = make_tool_result_event(
        "bash", "c1", BashToolInput(command="ls"), [TextContent(text="a.txt")], None, False
    )
    patch = await manager.ctx.patch_tool_result(event)
    assert patch is not None and patch.content == [TextContent(text="A.TXT")]


async def test_without_a_chain_every_call_is_blocked() -> None:
    ctx = ExtensionContext(PluginRuntime("/"))
    blocked = await ctx.check_tool_call(_call("ls"))
    assert blocked is not None and blocked.block
