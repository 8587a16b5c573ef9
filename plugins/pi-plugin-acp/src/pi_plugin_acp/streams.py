"""The protocol's own stdio: JSON-RPC keeps the real stdout, and anything else that writes to
stdout (a plugin's `print`, a library's warning) goes to stderr instead of corrupting it."""

from __future__ import annotations

import asyncio
import os
import sys

STDIN_LIMIT = 50 * 1024 * 1024  # a prompt may carry images or whole files


class _WriteProtocol(asyncio.streams.FlowControlMixin, asyncio.BaseProtocol):
    """Flow control for the protocol's write pipe (what StreamWriter.drain needs)."""


def reserve_stdout() -> int:
    """Move the real stdout to a private descriptor and point fd 1 and sys.stdout at stderr."""
    sys.stdout.flush()
    private = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return private


async def protocol_streams(out_fd: int) -> tuple[asyncio.StreamWriter, asyncio.StreamReader]:
    """The writer to the client (on `out_fd`) and the reader of stdin, for `run_agent`."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=STDIN_LIMIT)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    pipe = os.fdopen(out_fd, "wb", buffering=0)
    transport, protocol = await loop.connect_write_pipe(_WriteProtocol, pipe)
    return asyncio.StreamWriter(transport, protocol, None, loop), reader
