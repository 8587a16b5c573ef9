"""An MCP server written with the SDK's own server API (MCPServer, FastMCP in mcp 1.x).

    python demo_server.py [stdio | http | sse] [--garbage | --garbage-only] [--bad-schema]

Over http (Streamable HTTP, at /mcp) and sse (at /sse) it listens on a free loopback port and
prints `port N` on stdout once it listens.
`MCP_DEMO_PIDFILE`, when set, receives the server's process id at start.

`MCP_DEMO_FIFO`, when set, names a FIFO the slow tool writes "started" and "cancelled" to, so a
test can wait for those events instead of sleeping.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.utilities.types import Image
from pydantic import BaseModel

server = MCPServer("demo", log_level="CRITICAL")
# one red pixel, PNG
PIXEL = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c63f8cfc0f01f0005000201e2c1d8a10000000049454e44ae426082"
)


def _signal(word: str) -> None:
    path = os.environ.get("MCP_DEMO_FIFO")
    if path:
        with open(path, "w") as fifo:
            fifo.write(word + "\n")


@server.tool()
def echo(text: str) -> str:
    """Return the text unchanged."""
    return f"echo: {text}"


class Sum(BaseModel):
    total: int


@server.tool()
def add(a: int, b: int) -> Sum:
    """Add two integers (structured output)."""
    return Sum(total=a + b)


@server.tool()
def pixel() -> Image:
    """Return a one-pixel PNG image."""
    return Image(data=PIXEL, format="png")


@server.tool()
def fail(reason: str) -> str:
    """Always fail with the reason."""
    raise ValueError(f"failing on purpose: {reason}")


@server.tool()
async def slow() -> str:
    """Wait until cancelled; tells the FIFO when it starts and when it is cancelled."""
    _signal("started")
    try:
        await anyio.sleep_forever()
    except anyio.get_cancelled_exc_class():
        with anyio.CancelScope(shield=True):
            _signal("cancelled")
        raise
    return "never"


@server.tool()
def crash() -> str:
    """Exit the whole server in the middle of the call."""
    print("demo server: crashing on purpose", file=sys.stderr, flush=True)
    os._exit(3)


@server.tool()
async def grow(ctx: Context) -> str:
    """Add a tool named `extra` and tell the client that the tool list changed."""

    def extra() -> str:
        """A tool added at run time."""
        return "extra!"

    server.add_tool(extra)
    # the classic notification (notifications/tools/list_changed), as most servers send it
    await ctx.session.send_tool_list_changed()
    return "added"


@server.prompt()
def review(code: str, language: str = "python") -> str:
    """Ask for a review of some code."""
    return f"Please review this {language} code:\n{code}"


@server.resource("demo://greeting")
def greeting() -> str:
    """A greeting."""
    return "hello from the demo server"


def _break_schema() -> None:
    def odd(x: Any) -> str:
        """A tool whose input schema is invalid."""
        return "odd"

    server.add_tool(odd)
    tool = server._tool_manager.get_tool("odd")
    assert tool is not None
    tool.parameters = {"type": "object", "properties": {"x": {"type": "no-such-type"}}}


def main(argv: list[str]) -> None:
    if "--garbage" in argv or "--garbage-only" in argv:
        print("this is not JSON-RPC", flush=True)
        if "--garbage-only" in argv:
            return
    if "--bad-schema" in argv:
        _break_schema()
    pidfile = os.environ.get("MCP_DEMO_PIDFILE")
    if pidfile:
        with open(pidfile, "w") as out:
            out.write(str(os.getpid()))
    print("demo server: ready", file=sys.stderr, flush=True)
    if len(argv) > 1 and argv[1] in ("http", "sse"):
        _serve_http(argv[1])
    else:
        server.run("stdio")


def _serve_http(kind: str) -> None:
    """Listen first, then say the port: a client that reads it can connect at once."""
    import socket

    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    print(f"port {sock.getsockname()[1]}", flush=True)
    app = server.streamable_http_app() if kind == "http" else server.sse_app()
    config = uvicorn.Config(app, log_level="critical")
    anyio.run(uvicorn.Server(config).serve, [sock])


if __name__ == "__main__":
    main(sys.argv)
