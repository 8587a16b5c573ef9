"""`create_agent_session(tool_operations=...)`: per kind, the SDK's operations win over a
plugin's, and the kinds the SDK leaves out come from the plugin (`register_tool_operations`)."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from pi_core import hookimpl
from pi_core.testing import chat_stream
from pi_core.tools import BashExecResult, ToolOperations
from tests.agent_session.conftest import Harness


class Files:
    """A read back-end with one fixed answer."""

    def __init__(self, text: str) -> None:
        self.text = text

    async def access(self, path: str) -> None:
        """Every path exists."""

    async def read_file(self, path: str) -> bytes:
        """The fixed text and the path asked for."""
        return f"{self.text} {path}".encode()


class Shell:
    """A bash back-end that only says who it is."""

    async def exec(self, command: str, cwd: str, **options: Any) -> BashExecResult:
        """Answer instead of running."""
        options["on_data"](b"plugin shell\n")
        return BashExecResult(exit_code=0)


def plugin() -> Any:
    @hookimpl
    def register_tool_operations(register: Callable[..., None]) -> None:
        register(ToolOperations(read=Files("from the plugin"), bash=Shell()))

    return SimpleNamespace(register_tool_operations=register_tool_operations)


async def test_the_sdk_operations_win_per_kind(harness: Harness) -> None:
    harness.server.queue(
        chat_stream(tool_calls=[("read", {"path": "a.txt"}), ("bash", {"command": "ls"})]),
        chat_stream("done"),
    )
    session = await harness.session(
        plugin(), persist=False, tool_operations=ToolOperations(read=Files("from the SDK"))
    )
    await session.prompt("go")
    await session.shutdown()

    tool_texts = [m["content"] for m in harness.request(1)["messages"] if m["role"] == "tool"]
    assert tool_texts == [f"from the SDK {harness.cwd / 'a.txt'}", "plugin shell\n"]
    assert not (harness.cwd / "a.txt").exists()


async def test_a_wrapped_local_back_end_is_called_not_bypassed(harness: Harness) -> None:
    from pi_plugin_tools.api import LocalReadOperations

    class Audited(LocalReadOperations):
        async def read_file(self, path: str) -> bytes:
            return b"audited: " + await super().read_file(path)

    (harness.cwd / "a.txt").write_text("on disk\n")
    harness.server.queue(chat_stream(tool_calls=[("read", {"path": "a.txt"})]), chat_stream("ok"))
    session = await harness.session(persist=False, tool_operations=ToolOperations(read=Audited()))
    await session.prompt("go")
    await session.shutdown()

    tool_texts = [m["content"] for m in harness.request(1)["messages"] if m["role"] == "tool"]
    assert tool_texts == ["audited: on disk\n"]
