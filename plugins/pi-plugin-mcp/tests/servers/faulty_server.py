"""An MCP server (on the SDK's MCPServer) whose tools misbehave, over stdio.

    python faulty_server.py [--tool NAME]...

- `huge`: returns `$FAULTY_HUGE_CHARS` characters of text (default 50 MB), in numbered lines.
- `huge_with_image`: the same text and a small PNG image.
- `not_json`, `no_result`, `wrong_id`: write a malformed reply on stdout (text that is not
  JSON, a response with neither `result` nor `error`, a response to an id never sent) and then
  never answer.
- `--tool NAME` adds a tool of that exact name (for name collisions); it returns its name.
"""

from __future__ import annotations

import json
import os
import sys

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.utilities.types import Image

server = MCPServer("faulty", log_level="CRITICAL")
# The SDK moves fd 1 aside while it serves (stray prints go to stderr): keep a handle on the
# pipe to the client to write the malformed replies on.
WIRE = os.dup(1)
PIXEL = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c63f8cfc0f01f0005000201e2c1d8a10000000049454e44ae426082"
)


def _huge_text() -> str:
    size = int(os.environ.get("FAULTY_HUGE_CHARS", str(50 * 1024 * 1024)))
    lines = (f"line {n:09d} " + "x" * 49 + "\n" for n in range(size // 64 + 1))
    return "".join(lines)[:size]


@server.tool()
def huge() -> str:
    """Return a very large text."""
    return _huge_text()


@server.tool(structured_output=False)
def huge_with_image() -> list[object]:
    """Return a very large text and an image."""
    return [_huge_text(), Image(data=PIXEL, format="png")]


async def _reply_then_hang(line: str) -> str:
    os.write(WIRE, line.encode() + b"\n")
    await anyio.sleep_forever()
    return "never"


@server.tool()
async def not_json() -> str:
    """Write a line that is not JSON, then never answer."""
    return await _reply_then_hang("{this is not json")


@server.tool()
async def no_result(ctx: Context) -> str:
    """Write a response with neither result nor error, then never answer."""
    return await _reply_then_hang(json.dumps({"jsonrpc": "2.0", "id": int(ctx.request_id)}))


@server.tool()
async def wrong_id() -> str:
    """Write a response to an id the client never sent, then never answer."""
    return await _reply_then_hang(json.dumps({"jsonrpc": "2.0", "id": 987654, "result": {}}))


def _add_named(name: str) -> None:
    def named() -> str:
        return name

    server.add_tool(named, name=name, description=f"The tool {name}.")


def main(argv: list[str]) -> None:
    for index, arg in enumerate(argv):
        if arg == "--tool":
            _add_named(argv[index + 1])
    server.run("stdio")


if __name__ == "__main__":
    main(sys.argv)
