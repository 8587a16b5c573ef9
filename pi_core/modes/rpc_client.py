"""RpcClient: drive `pi --mode rpc` from Python (for editors and tools written in Python).

async with RpcClient(["--model", "anthropic/claude-sonnet-4-5"], cwd=project) as pi:
    pi.on_event(print)
    await pi.prompt("Read the README")
    await pi.wait_for_idle()
    print(await pi.get_last_assistant_text())
"""

from __future__ import annotations

import asyncio
import itertools
import json
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from pi_core.modes.jsonl import read_lines

EventListener = Callable[[dict[str, Any]], Any]
UiHandler = Callable[[dict[str, Any]], Awaitable[dict[str, Any] | None]]


class RpcError(RuntimeError):
    """A command came back with `success: false`."""

    def __init__(self, command: str, message: str) -> None:
        super().__init__(f"{command}: {message}")
        self.command = command
        self.message = message


class RpcClient:
    """One `pi --mode rpc` process; each command is an async method returning its `data`."""

    def __init__(
        self,
        args: Sequence[str] = (),
        *,
        cwd: str | Path | None = None,
        env: dict[str, str] | None = None,
        program: Sequence[str] | None = None,
        on_ui_request: UiHandler | None = None,
    ) -> None:
        self._argv = [*(program or [sys.executable, "-m", "pi_core"]), "--mode", "rpc", *args]
        self._cwd = cwd
        self._env = env
        self._on_ui_request = on_ui_request
        self._process: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None
        self._pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._listeners: list[EventListener] = []
        self._ui_tasks: set[asyncio.Future[None]] = set()
        self._ids = itertools.count(1)
        self._idle = asyncio.Event()
        self._idle.set()
        self.stderr = ""

    # --- lifetime -------------------------------------------------------------------------

    async def start(self) -> None:
        """Spawn the process."""
        self._process = await asyncio.create_subprocess_exec(
            *self._argv,
            cwd=self._cwd,
            env=self._env,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            limit=2**26,
        )
        self._reader = asyncio.create_task(self._read())

    async def stop(self) -> int:
        """Close stdin, wait for the process to exit, and return its exit code."""
        process = self._process
        if process is None:
            return 0
        assert process.stdin is not None and process.stderr is not None
        process.stdin.close()
        code = await process.wait()
        self.stderr = (await process.stderr.read()).decode(errors="replace")
        if self._reader is not None:
            await self._reader
        return code

    async def __aenter__(self) -> RpcClient:
        await self.start()
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.stop()

    # --- events ---------------------------------------------------------------------------

    def on_event(self, listener: EventListener) -> Callable[[], None]:
        """Call `listener(event)` for every event; returns a function that unsubscribes."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    async def wait_for_idle(self, timeout: float | None = None) -> None:
        """Wait until the agent ended its run (`agent_end`)."""
        await asyncio.wait_for(self._idle.wait(), timeout)

    async def _read(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        async for line in read_lines(self._process.stdout):
            if not line.strip():
                continue
            record = json.loads(line)
            kind = record.get("type")
            if kind == "response" and str(record.get("id")) in self._pending:
                future = self._pending.pop(str(record["id"]))
                if not future.done():
                    future.set_result(record)
                continue
            if kind == "extension_ui_request":
                task = asyncio.ensure_future(self._answer_ui(record))
                self._ui_tasks.add(task)
                task.add_done_callback(self._ui_tasks.discard)
            if kind == "agent_start":
                self._idle.clear()
            elif kind == "agent_end":
                self._idle.set()
            for listener in list(self._listeners):
                listener(record)
        for future in self._pending.values():
            if not future.done():
                future.set_exception(EOFError("pi exited before answering"))

    async def _answer_ui(self, request: dict[str, Any]) -> None:
        if request.get("method") not in ("select", "confirm", "input", "editor"):
            return
        answer = await self._on_ui_request(request) if self._on_ui_request else None
        response = {"type": "extension_ui_response", "id": request["id"]}
        response.update(answer if answer is not None else {"cancelled": True})
        self._write(response)

    # --- commands -------------------------------------------------------------------------

    def _write(self, record: dict[str, Any]) -> None:
        assert self._process is not None and self._process.stdin is not None
        self._process.stdin.write((json.dumps(record, ensure_ascii=False) + "\n").encode())

    async def call(self, command: str, /, **fields: Any) -> Any:
        """Send any command and return its `data` (raises RpcError on failure)."""
        request_id = f"py-{next(self._ids)}"
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        if command == "prompt":
            self._idle.clear()
        self._write({"id": request_id, "type": command, **_camel(fields)})
        response = await future
        if not response.get("success"):
            if command == "prompt":
                self._idle.set()
            raise RpcError(command, str(response.get("error")))
        return response.get("data")

    async def prompt(self, message: str, **options: Any) -> None:
        """Send a prompt (options: images, streaming_behavior)."""
        await self.call("prompt", message=message, **options)

    async def steer(self, message: str, **options: Any) -> None:
        """Queue a steering message."""
        await self.call("steer", message=message, **options)

    async def follow_up(self, message: str, **options: Any) -> None:
        """Queue a follow-up message."""
        await self.call("follow_up", message=message, **options)

    async def abort(self) -> None:
        """Abort the current run."""
        await self.call("abort")

    async def new_session(self, parent_session: str | None = None) -> Any:
        """Start a new session."""
        return await self.call("new_session", **_given(parent_session=parent_session))

    async def get_state(self) -> Any:
        """Return the session state."""
        return await self.call("get_state")

    async def get_messages(self) -> list[dict[str, Any]]:
        """Return the conversation's messages."""
        data = await self.call("get_messages")
        return list(data["messages"])

    async def set_model(self, provider: str, model_id: str) -> Any:
        """Switch model."""
        return await self.call("set_model", provider=provider, model_id=model_id)

    async def cycle_model(self) -> Any:
        """Move to the next model."""
        return await self.call("cycle_model")

    async def get_available_models(self) -> list[dict[str, Any]]:
        """Return the models with keys."""
        data = await self.call("get_available_models")
        return list(data["models"])

    async def set_thinking_level(self, level: str) -> None:
        """Set the thinking level."""
        await self.call("set_thinking_level", level=level)

    async def cycle_thinking_level(self) -> Any:
        """Move to the next thinking level."""
        return await self.call("cycle_thinking_level")

    async def set_steering_mode(self, mode: str) -> None:
        """ "all" or "one-at-a-time"."""
        await self.call("set_steering_mode", mode=mode)

    async def set_follow_up_mode(self, mode: str) -> None:
        """ "all" or "one-at-a-time"."""
        await self.call("set_follow_up_mode", mode=mode)

    async def compact(self, custom_instructions: str | None = None) -> Any:
        """Compact the context."""
        return await self.call("compact", **_given(custom_instructions=custom_instructions))

    async def set_auto_compaction(self, enabled: bool) -> None:
        """Turn automatic compaction on or off."""
        await self.call("set_auto_compaction", enabled=enabled)

    async def set_auto_retry(self, enabled: bool) -> None:
        """Turn automatic retries on or off."""
        await self.call("set_auto_retry", enabled=enabled)

    async def abort_retry(self) -> None:
        """Cancel a waiting retry."""
        await self.call("abort_retry")

    async def bash(self, command: str) -> Any:
        """Run a shell command into the context."""
        return await self.call("bash", command=command)

    async def abort_bash(self) -> None:
        """Stop a running shell command."""
        await self.call("abort_bash")

    async def get_session_stats(self) -> Any:
        """Return token and cost statistics."""
        return await self.call("get_session_stats")

    async def switch_session(self, session_path: str) -> Any:
        """Open another session file."""
        return await self.call("switch_session", session_path=session_path)

    async def fork(self, entry_id: str) -> Any:
        """Fork from a user message."""
        return await self.call("fork", entry_id=entry_id)

    async def get_fork_messages(self) -> list[dict[str, Any]]:
        """Return the user messages one can fork from."""
        data = await self.call("get_fork_messages")
        return list(data["messages"])

    async def get_last_assistant_text(self) -> str | None:
        """Return the last answer's text."""
        data = await self.call("get_last_assistant_text")
        return data.get("text") if data else None

    async def set_session_name(self, name: str) -> None:
        """Name the session."""
        await self.call("set_session_name", name=name)

    async def get_commands(self) -> list[dict[str, Any]]:
        """Return the slash commands available."""
        data = await self.call("get_commands")
        return list(data["commands"])


def _given(**fields: Any) -> dict[str, Any]:
    return {key: value for key, value in fields.items() if value is not None}


def _camel(fields: dict[str, Any]) -> dict[str, Any]:
    def camel(name: str) -> str:
        head, *rest = name.split("_")
        return head + "".join(part.title() for part in rest)

    return {camel(key): value for key, value in fields.items()}
