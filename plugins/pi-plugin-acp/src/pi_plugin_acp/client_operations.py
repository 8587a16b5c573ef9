"""The tool back-ends an ACP client offers: its `fs` for read/write/edit, its terminals for bash."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pi_core.tools import ToolOperations
from pi_plugin_acp.fs_operations import ClientFiles
from pi_plugin_acp.terminal_operations import ClientTerminal


def client_operations(
    capabilities: Any, session_id: Callable[[], str], conn: Any
) -> ToolOperations | None:
    """The operations the client's `fs` and `terminal` capabilities allow, or None."""
    fs = getattr(capabilities, "fs", None)
    can_read = bool(getattr(fs, "read_text_file", False))
    can_write = bool(getattr(fs, "write_text_file", False))
    terminal = (
        ClientTerminal(conn, session_id) if getattr(capabilities, "terminal", False) else None
    )
    if not (can_read or can_write or terminal):
        return None

    async def read_text(path: str) -> str:
        reply = await conn.read_text_file(path=path, session_id=session_id())
        return str(reply.content)

    async def write_text(path: str, text: str) -> None:
        await conn.write_text_file(content=text, path=path, session_id=session_id())

    files = ClientFiles(read_text if can_read else None, write_text if can_write else None)
    return ToolOperations(
        read=files if can_read else None,
        write=files if can_write else None,
        edit=files if can_read and can_write else None,
        bash=terminal,
    )
