"""Sessions served by `pi mcp serve` use MCP servers of their own: each `pi_run` connects to the
servers its folder configures, and sees only those, while other served sessions run beside it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from mcp_serve_client import Served, text_of

from pi_core.testing import chat_stream

DEMO = Path(__file__).parent / "servers" / "demo_server.py"


def folder_with_server(root: Path, name: str) -> Path:
    """A project folder whose `.mcp.json` names the demo server as `name`."""
    folder = root / name
    folder.mkdir()
    entry = {"command": sys.executable, "args": [str(DEMO), "stdio"]}
    (folder / ".mcp.json").write_text(json.dumps({"mcpServers": {name: entry}}))
    return folder


def offered(served: Served, index: int) -> set[str]:
    """The names of the tools the fake's request number `index` offered the model."""
    return {t["function"]["name"] for t in served.fake.requests[index].json().get("tools", [])}


async def test_each_served_session_uses_only_the_servers_of_its_folder(
    served: Served, tmp_path: Path
) -> None:
    alpha = folder_with_server(tmp_path, "alpha")
    beta = folder_with_server(tmp_path, "beta")
    served.fake.queue(
        chat_stream(tool_calls=[("mcp__alpha__echo", {"text": "served"})]),
        chat_stream("alpha done"),
        chat_stream("beta done"),
        chat_stream("alpha again"),
    )
    async with served.client("--approve") as client:
        first = await client.call_tool("pi_run", {"prompt": "use alpha", "cwd": str(alpha)})
        second = await client.call_tool("pi_run", {"prompt": "hi beta", "cwd": str(beta)})
        again = await client.call_tool(
            "pi_reply",
            {"session_id": first.structured_content["sessionId"], "prompt": "and now?"},
        )
    assert not first.is_error, text_of(first)
    assert not second.is_error and not again.is_error
    assert "mcp__alpha__echo" in offered(served, 0)
    assert "echo: served" in json.dumps(served.fake.requests[1].json()["messages"])
    assert "mcp__beta__echo" in offered(served, 2)
    assert not any(name.startswith("mcp__alpha__") for name in offered(served, 2))
    assert "mcp__alpha__echo" in offered(served, 3)
    assert not any(name.startswith("mcp__beta__") for name in offered(served, 3))
