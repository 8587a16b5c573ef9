"""Running the server: over stdio (the default) or Streamable HTTP on a loopback port."""

from __future__ import annotations

import socket
import sys

from pi_plugin_mcp.serve.server import PiMcpServer


async def serve_stdio(server: PiMcpServer) -> None:
    """Serve one client on stdin/stdout until it closes them; then end every session."""
    from mcp.server.stdio import stdio_server

    app = server.build()
    try:
        # stdio_server points fd 1 at stderr while it serves: stray prints miss the wire
        async with stdio_server() as (read, write):
            await app.run(read, write, app.create_initialization_options())
    finally:
        await server.sessions.close()


async def serve_http(server: PiMcpServer, port: int, host: str = "127.0.0.1") -> None:
    """Serve Streamable HTTP at http://host:port/mcp (port 0: a free one) until interrupted;
    the address goes to stderr once the socket listens. Then end every session."""
    import uvicorn

    app = server.build().streamable_http_app(host=host)
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((host, port))
    listener.listen(64)
    bound = listener.getsockname()[1]
    print(f"pi mcp serve: listening on http://{host}:{bound}/mcp", file=sys.stderr, flush=True)
    try:
        config = uvicorn.Config(app, log_level="warning")
        await uvicorn.Server(config).serve(sockets=[listener])
    finally:
        await server.sessions.close()
