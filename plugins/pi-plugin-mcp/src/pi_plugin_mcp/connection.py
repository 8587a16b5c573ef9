"""One MCP server: its transport and client session, run in a task of their own.

The SDK's transports and `ClientSession` are anyio context managers that must be entered and
left in one task, so each server lives in a runner task; calls from tools go through the session
the runner holds. The runner watches the transport's read stream, so a server that exits (or a
connection that drops) is noticed even while no call is in flight.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from typing import IO, Any, Literal, TypeVar

import anyio
from mcp import types
from mcp.client.session import ClientSession
from mcp.shared.message import SessionMessage

from pi_plugin_mcp.config import ServerConfig
from pi_plugin_mcp.replies import MalformedReply, ReplyWatch, describe_unparsable

# The SDK logs each unparsable line and dropped connection with a traceback; pi reports them
# itself, once, in words.
logging.getLogger("mcp").addHandler(logging.NullHandler())
logging.getLogger("mcp").propagate = False

T = TypeVar("T")
State = Literal["stopped", "starting", "connected", "failed"]
STDERR_TAIL_CHARS = 4000
STDERR_TAIL_LINES = 10
_CLIENT_INFO = types.Implementation(name="pi", version="0.1.0")


class ServerUnavailable(RuntimeError):
    """The server is not connected (failed, stopped or still starting)."""


class ServerConnection:
    """A server's state, its tools, prompts and resources, and the calls made to it."""

    def __init__(
        self, config: ServerConfig, on_change: Callable[[ServerConnection], None] | None = None
    ) -> None:
        self.config = config
        self.state: State = "stopped"
        self.error: str | None = None
        self.warnings: list[str] = []
        self.tools: list[types.Tool] = []
        self.prompts: list[types.Prompt] = []
        self.resources: list[types.Resource] = []
        self._on_change = on_change
        self._session: ClientSession | None = None
        self._runner: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self._done = asyncio.Event()
        self._stop = anyio.Event()
        self._stderr: IO[str] | None = None
        self._bad_line: str | None = None
        self._capabilities: types.ServerCapabilities | None = None
        self._background: set[asyncio.Task[None]] = set()
        self._replies = ReplyWatch()

    @property
    def name(self) -> str:
        """Return the server's name from the configuration."""
        return self.config.name

    # --- lifetime ----------------------------------------------------------------------------

    async def start(self) -> None:
        """Connect and list the server's tools; on failure `state` is "failed" with `error` set."""
        if self.state in ("starting", "connected"):
            return
        self.begin()
        await self.wait_ready()

    def begin(self) -> None:
        """Start connecting in the background and return at once (`state` is "starting")."""
        if self.state in ("starting", "connected"):
            return
        self.state, self.error, self.warnings = "starting", None, []
        self._ready = asyncio.Event()
        self._done = asyncio.Event()
        self._stop = anyio.Event()
        self._bad_line = None
        self._replies = ReplyWatch()
        self._runner = asyncio.create_task(self._run(), name=f"mcp server {self.name}")

    async def wait_ready(self) -> None:
        """Wait until the server has connected or failed; past `startupTimeout` it has failed."""
        if self._runner is None:
            return
        try:
            await asyncio.wait_for(self._ready.wait(), self.config.startup_timeout)
        except TimeoutError:
            self._fail(f"did not finish the MCP handshake within {self.config.startup_timeout:g}s")
            await self._cancel_runner()

    async def stop(self) -> None:
        """Close the session and stop the server process; waits until it is gone."""
        self._stop.set()
        if self.state == "starting":  # mid-handshake there is nothing to close gracefully
            await self._cancel_runner()
        runner, self._runner = self._runner, None
        if runner is not None and not runner.done():
            try:
                await asyncio.wait_for(asyncio.shield(runner), 10)
            except TimeoutError:
                runner.cancel()
                await asyncio.gather(runner, return_exceptions=True)
        if self.state != "failed":
            self.state = "stopped"
        self._session = None

    async def _cancel_runner(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None and not runner.done():
            runner.cancel()
            await asyncio.gather(runner, return_exceptions=True)

    async def _run(self) -> None:
        try:
            async with AsyncExitStack() as stack:
                read, write = await stack.enter_async_context(self._transport())
                reader, writer, closed = await stack.enter_async_context(self._watched(read, write))
                session = await stack.enter_async_context(
                    ClientSession(
                        reader, writer, client_info=_CLIENT_INFO, message_handler=self._on_message
                    )
                )
                initialized = await session.initialize()
                self._capabilities = initialized.capabilities
                await self._refresh(session)
                self._session = session
                self.state = "connected"
                self._ready.set()
                self._changed()
                await _first_of(self._stop, closed)
                if not self._stop.is_set():
                    stdio = self.config.transport == "stdio"
                    self._fail("the server exited" if stdio else "the connection closed")
        except Exception as error:  # an ExceptionGroup too: reported, never raised into pi
            if not self._stop.is_set():
                self._fail(_describe(error))
        finally:
            self._session = None
            self._ready.set()
            self._done.set()
            if self._stderr is not None:
                self._stderr.close()

    @asynccontextmanager
    async def _transport(self) -> AsyncIterator[Any]:
        config = self.config
        if config.transport == "stdio":
            from mcp.client.stdio import StdioServerParameters, stdio_client

            # Kept open after the server stops, so its tail can still be reported.
            self._stderr = tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace")  # noqa: SIM115
            params = StdioServerParameters(
                command=config.command,
                args=list(config.args),
                env={**os.environ, **config.env},
                cwd=config.cwd,
                encoding_error_handler="replace",
            )
            async with stdio_client(params, errlog=self._stderr) as streams:
                yield streams
        elif config.transport == "http":
            from mcp.client.streamable_http import streamable_http_client
            from mcp.shared._httpx_utils import create_mcp_http_client

            async with (
                create_mcp_http_client(headers=dict(config.headers)) as http,
                streamable_http_client(config.url, http_client=http) as streams,
            ):
                yield streams
        else:
            from mcp.client.sse import sse_client

            async with sse_client(config.url, headers=dict(config.headers)) as streams:
                yield streams

    @asynccontextmanager
    async def _watched(self, read: Any, write: Any) -> AsyncIterator[tuple[Any, Any, anyio.Event]]:
        """Forward the transport's messages both ways, note lines that are not JSON-RPC and
        malformed replies (failing the calls waiting), and set the returned event when the
        stream ends (the server exited or the connection dropped)."""
        closed = anyio.Event()
        send, receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)
        out_send, out_receive = anyio.create_memory_object_stream[SessionMessage](0)

        async def pump() -> None:
            try:
                async with send:
                    async for item in read:
                        if isinstance(item, Exception):
                            self._malformed(item)
                            continue
                        problem = self._replies.received(item.message)
                        if problem is not None:
                            self._replies.fail_pending(problem)
                            continue
                        await send.send(item)
            except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                pass
            finally:
                closed.set()

        async def pump_out() -> None:
            with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
                async with out_receive:
                    async for message in out_receive:
                        self._replies.sent(message.message)
                        await write.send(message)

        async with anyio.create_task_group() as group:
            group.start_soon(pump)
            group.start_soon(pump_out)
            try:
                yield receive, out_send, closed
            finally:
                group.cancel_scope.cancel()

    def _malformed(self, error: Exception) -> None:
        """A line that is not JSON-RPC: fails the calls waiting, else is one warning."""
        if self._replies.fail_pending(describe_unparsable(error)):
            return
        if self._bad_line is None:
            self._bad_line = _bad_input(error)
            self.warnings.append(
                f"printed something that is not JSON-RPC on stdout: {self._bad_line}"
            )

    async def _refresh(self, session: ClientSession) -> None:
        caps = self._capabilities
        self.tools = await _all_tools(session) if caps is None or caps.tools else []
        self.prompts = (await session.list_prompts()).prompts if caps and caps.prompts else []
        self.resources = (
            (await session.list_resources()).resources if caps and caps.resources else []
        )

    async def _on_message(self, message: Any) -> None:
        # A list request from inside the read loop's callback could wait on that loop: refresh
        # in a task of its own.
        if isinstance(
            message,
            types.ToolListChangedNotification
            | types.PromptListChangedNotification
            | types.ResourceListChangedNotification,
        ):
            task = asyncio.create_task(self._relist())
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    async def _relist(self) -> None:
        session = self._session
        if session is None:
            return
        try:
            await self._refresh(session)
        except Exception as error:
            self.warnings.append(f"could not refresh its lists: {_describe(error)}")
            return
        self._changed()

    def _fail(self, reason: str) -> None:
        if self.state == "failed":
            return
        detail = [reason]
        if self._bad_line is not None and "not JSON-RPC" not in reason:
            detail.append(f"it printed something that is not JSON-RPC on stdout: {self._bad_line}")
        tail = self.stderr_tail()
        if tail:
            detail.append(f"stderr:\n{tail}")
        self.state, self.error = "failed", "\n".join(detail)
        self.tools, self.prompts, self.resources = [], [], []
        self._session = None
        self._ready.set()
        self._changed()

    def _changed(self) -> None:
        if self._on_change is not None:
            self._on_change(self)

    def stderr_tail(self) -> str:
        """Return the last lines the server wrote on stderr (stdio servers only)."""
        if self._stderr is None or self._stderr.closed:
            return ""
        try:
            self._stderr.flush()
            size = os.fstat(self._stderr.fileno()).st_size
            self._stderr.seek(max(0, size - STDERR_TAIL_CHARS))
            lines = self._stderr.read().strip().splitlines()
            return "\n".join(lines[-STDERR_TAIL_LINES:])
        except (OSError, ValueError):
            return ""

    # --- requests ----------------------------------------------------------------------------

    def _connected(self) -> ClientSession:
        session = self._session
        if session is None or self.state != "connected":
            why = f": {self.error}" if self.error else f" ({self.state})"
            raise ServerUnavailable(f"MCP server {self.name!r} is not connected{why}")
        return session

    async def call_tool(self, tool: str, arguments: dict[str, Any]) -> types.CallToolResult:
        """Call a tool (once the server has connected, if it is still starting); cancelling the
        awaiting task sends MCP's cancellation notification."""
        if self.state == "starting":
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._ready.wait(), self.config.startup_timeout)
        session = self._connected()
        try:
            result = await self._replies.guard(
                session.call_tool(tool, arguments, read_timeout_seconds=self.config.tool_timeout)
            )
        except asyncio.CancelledError:
            raise
        except MalformedReply as error:
            raise RuntimeError(
                f"MCP server {self.name!r} sent a malformed reply to {tool!r}: {error}"
            ) from None
        except Exception as error:
            if _is_closed(error):  # the server went away: wait until the runner has seen it
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._done.wait(), 5)
            if self.state != "connected":
                raise ServerUnavailable(
                    f"MCP server {self.name!r} stopped during the call: {self.error}"
                ) from None
            raise RuntimeError(
                f"MCP server {self.name!r}, tool {tool!r}: {_describe(error)}"
            ) from None
        if not isinstance(result, types.CallToolResult):
            raise RuntimeError(f"MCP server {self.name!r} answered {tool!r} with an unknown result")
        return result

    async def get_prompt(self, prompt: str, arguments: dict[str, str]) -> types.GetPromptResult:
        """Render one of the server's prompts."""
        return await self._guarded(self._connected().get_prompt(prompt, arguments))

    async def read_resource(self, uri: str) -> types.ReadResourceResult:
        """Read one of the server's resources."""
        return await self._guarded(self._connected().read_resource(uri))

    async def _guarded(self, call: Awaitable[T]) -> T:
        try:
            return await self._replies.guard(call)
        except MalformedReply as error:
            raise RuntimeError(
                f"MCP server {self.name!r} sent a malformed reply: {error}"
            ) from None


async def _all_tools(session: ClientSession) -> list[types.Tool]:
    tools: list[types.Tool] = []
    cursor: str | None = None
    while True:
        params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
        page = await session.list_tools(params=params)
        tools.extend(page.tools)
        cursor = page.next_cursor
        if not cursor:
            return tools


async def _first_of(*events: anyio.Event) -> None:
    async with anyio.create_task_group() as group:

        async def wait(event: anyio.Event) -> None:
            await event.wait()
            group.cancel_scope.cancel()

        for event in events:
            group.start_soon(wait, event)


def _is_closed(error: BaseException) -> bool:
    from mcp.shared.exceptions import MCPError

    return isinstance(error, MCPError) and "Connection closed" in str(error)


def _bad_input(error: Exception) -> str:
    """Return the line a server printed that was not JSON-RPC (from the SDK's parse error)."""
    from pydantic import ValidationError

    if isinstance(error, ValidationError) and error.errors():
        line = error.errors()[0].get("input")
        if isinstance(line, str):
            return repr(line[:200])
    return str(error).splitlines()[0][:200]


def _describe(error: BaseException) -> str:
    """Turn an exception (or an exception group from anyio) into one readable line."""
    while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
        error = error.exceptions[0]
    if isinstance(error, FileNotFoundError):
        return f"command not found: {error.filename or error}"
    if isinstance(error, BaseExceptionGroup):
        return "; ".join(_describe(inner) for inner in error.exceptions)
    text = str(error) or type(error).__name__
    if "Connection closed" in text:
        return "the server closed the connection"
    return text
