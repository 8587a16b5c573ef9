"""Malformed replies from a server: noticed as they arrive, and failing the calls in flight.

The SDK drops a line it cannot parse (it reaches the session as an exception, which it only
logs) and a response to an id it never sent, so a call waiting for its reply would wait for
its whole timeout. `ReplyWatch` sees both on their way in and fails the pending calls at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any, TypeVar

from mcp import types

T = TypeVar("T")


class MalformedReply(RuntimeError):
    """The server wrote something that is not a valid reply while a call was waiting."""


class ReplyWatch:
    """Tracks the ids of requests sent, checks what comes back, and fails waiting calls."""

    def __init__(self) -> None:
        self._sent: set[str] = set()
        self._waiting: set[asyncio.Future[str]] = set()

    def sent(self, message: types.JSONRPCMessage) -> None:
        """Note a message on its way to the server."""
        if isinstance(message, types.JSONRPCRequest):
            self._sent.add(str(message.id))

    def received(self, message: types.JSONRPCMessage) -> str | None:
        """Check a message from the server; return what is wrong with it, if anything."""
        if isinstance(message, types.JSONRPCResponse | types.JSONRPCError):
            key = str(message.id)
            if key not in self._sent:
                return f"a response to request id {message.id!r}, which was never sent"
            self._sent.discard(key)
        return None

    def fail_pending(self, problem: str) -> bool:
        """Fail every call waiting for a reply; return whether there was one."""
        waiting = [future for future in self._waiting if not future.done()]
        for future in waiting:
            future.set_result(problem)
        return bool(waiting)

    async def guard(self, call: Awaitable[T]) -> T:
        """Await `call`, unless a malformed reply arrives first: then raise MalformedReply (and
        cancel the call, which tells the server)."""
        problem: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        task: asyncio.Future[T] = asyncio.ensure_future(call)
        self._waiting.add(problem)
        try:
            pending: set[asyncio.Future[Any]] = {task, problem}
            await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            raise
        finally:
            self._waiting.discard(problem)
        if task.done():
            return task.result()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        raise MalformedReply(problem.result())


def describe_unparsable(error: Exception) -> str:
    """Say what was wrong with a line the SDK could not parse as JSON-RPC."""
    from pydantic import ValidationError

    if isinstance(error, ValidationError) and error.errors():
        first: Any = error.errors()[0]
        line = first.get("input")
        if first.get("type") == "json_invalid":
            return f"text that is not JSON: {str(line)[:200]!r}"
        if isinstance(line, str):
            return f"JSON that is not a JSON-RPC message: {line[:200]!r}"
        return f"JSON that is not a JSON-RPC message: {json_preview(line)}"
    return str(error).splitlines()[0][:200]


def json_preview(value: Any) -> str:
    """A short JSON rendering of a value."""
    import json

    try:
        return json.dumps(value)[:200]
    except (TypeError, ValueError):
        return repr(value)[:200]
