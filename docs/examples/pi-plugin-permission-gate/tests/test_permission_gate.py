"""The example plugin blocks dangerous commands when there is no UI, and asks when there is."""

from __future__ import annotations

import pi_plugin_permission_gate as gate

from pi_core import ExtensionUI, PluginManager, make_tool_call_event
from pi_core.tools import BashToolInput


class AllowingUI(ExtensionUI):
    has_ui = True

    async def select(self, title: str, options: list[str], **_: object) -> str | None:
        return "Allow"


async def test_blocks_without_ui(tmp_path) -> None:
    manager = PluginManager(tmp_path, agent_dir=tmp_path)
    manager.register_inline(gate, "permission_gate")

    result = await manager.dispatcher.tool_call(
        make_tool_call_event("bash", "c1", BashToolInput(command="sudo rm -rf /"))
    )

    assert result is not None and result.block
    assert (
        await manager.dispatcher.tool_call(
            make_tool_call_event("bash", "c2", BashToolInput(command="ls -la"))
        )
        is None
    )


async def test_asks_with_ui(tmp_path) -> None:
    manager = PluginManager(tmp_path, agent_dir=tmp_path, ui=AllowingUI())
    manager.register_inline(gate, "permission_gate")

    result = await manager.dispatcher.tool_call(
        make_tool_call_event("bash", "c1", BashToolInput(command="sudo reboot"))
    )

    assert result is None
