"""`pi --mode rpc`: JSON commands on stdin, responses and events on stdout (pi's docs/rpc.md).

Commands run concurrently, as in pi, so `abort` or `steer` reach a running prompt. Every
response carries the request's `id` when the line had one — also for unknown commands and bad
fields, where pi 0.73.1 drops it — and a bad line never stops the server.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
from collections.abc import Awaitable, Callable
from typing import Any, BinaryIO

from pydantic import ConfigDict, TypeAdapter, ValidationError

from pi_core.agent_session.session import AgentSession
from pi_core.messages.content import ImageContent
from pi_core.messages.llm import content_text
from pi_core.modes.hangup import watch_hangup
from pi_core.modes.jsonl import encode_record, read_lines
from pi_core.modes.rpc_ui import RpcUI
from pi_core.modes.stdout import flush_records, write_record
from pi_core.session.entries import SessionMessageEntry
from pi_core.thinking import THINKING_LEVELS

Handler = Callable[["RpcServer", dict[str, Any]], Awaitable[Any]]
_images = TypeAdapter(list[ImageContent], config=ConfigDict(defer_build=True))
_NO_DATA = object()


class CommandError(Exception):
    """A command that cannot run as given; the message goes into the error response."""


class RpcServer:
    """Serves one AgentSession over JSONL."""

    def __init__(self, session: AgentSession, ui: RpcUI, out: BinaryIO | None = None) -> None:
        self.session = session
        self.ui = ui
        self._out = out
        self._tasks: set[asyncio.Task[None]] = set()
        session.subscribe(self.output)
        # newer pi's end of a session-level run: no retry or queued message follows on its own
        session.runs.on_settled(
            lambda aborted: self.output({"type": "agent_settled", "aborted": aborted})
        )
        session.dispatcher.on_error(
            lambda e: self.output(
                {
                    "type": "extension_error",
                    "extensionPath": e.source or e.plugin,
                    "event": e.event,
                    "error": e.error,
                }
            )
        )

    def output(self, message: Any) -> None:
        """Write one record to stdout (queued with the others of this loop step), or to `out`."""
        if self._out is None:
            write_record(message)
            return
        self._out.write(encode_record(message))
        self._out.flush()

    async def serve(self, reader: asyncio.StreamReader, gone: asyncio.Event | None = None) -> None:
        """Handle lines until stdin closes (or `gone` is set: the client stopped reading our
        output), then wait for running commands and shut down. When the client is gone the
        running turn is aborted: what it did so far is saved, nobody waits for the rest."""
        reading = asyncio.ensure_future(self._read(reader))
        waits: set[asyncio.Future[Any]] = {reading}
        if gone is not None:
            waits.add(asyncio.ensure_future(gone.wait()))
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        for waiting in waits:
            waiting.cancel()
        if gone is not None and gone.is_set():
            await self.session.abort()
        if self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
        await self.session.shutdown()

    async def _read(self, reader: asyncio.StreamReader) -> None:
        async for line in read_lines(reader):
            if line.strip():
                self.handle_line(line)
                await asyncio.sleep(0)  # let the command start before reading the next one
            if self.session.shutdown_requested:
                break

    def handle_line(self, line: str) -> None:
        """Parse a line and start its command (responses come when it finishes)."""
        try:
            command = json.loads(line)
        except json.JSONDecodeError as error:
            self.output(_error(None, "parse", f"Failed to parse command: {error}"))
            return
        except RecursionError:
            message = "Failed to parse command: nested too deeply"
            self.output(_error(_leading_id(line), "parse", message))
            return
        if not isinstance(command, dict):
            self.output(_error(None, "parse", "Failed to parse command: expected a JSON object"))
            return
        if _LONE_SURROGATE_ESCAPE.search(line) and not _is_valid_unicode(command):
            message = "Invalid command: a string holds a lone UTF-16 surrogate (not valid Unicode)"
            self.output(_error(command.get("id"), str(command.get("type")), message))
            return
        if command.get("type") == "extension_ui_response":
            self.ui.resolve(command)
            return
        task = asyncio.ensure_future(self._run(command))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, command: dict[str, Any]) -> None:
        request_id = command.get("id")
        kind = str(command.get("type"))
        handler = HANDLERS.get(kind)
        if handler is None:
            self.output(_error(request_id, kind, f"Unknown command: {kind}"))
            return
        try:
            data = await handler(self, command)
        except (CommandError, ValidationError, LookupError, ValueError, RuntimeError) as error:
            self.output(_error(request_id, kind, _message(error)))
            return
        except Exception as error:  # a bug or a plugin failure: report it, keep serving
            self.output(_error(request_id, kind, f"{type(error).__name__}: {error}"))
            return
        if data is _RESPONDED:
            return
        self.output(_success(request_id, kind, data))


_RESPONDED = object()

# A `\\uD800`-`\\uDFFF` escape: the only way a lone surrogate gets into a parsed line (the bytes
# were decoded as UTF-8 with replacement), so the full check runs only when one is present.
_LONE_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


_LEADING_ID = re.compile(r'\s*\{\s*"id"\s*:\s*("(?:[^"\\\\]|\\\\.)*"|-?\d+)\s*,')


def _leading_id(line: str) -> Any:
    """The id of a line too deep to parse, when it is the first field (as clients write it)."""
    match = _LEADING_ID.match(line)
    return json.loads(match.group(1)) if match else None


def _is_valid_unicode(command: dict[str, Any]) -> bool:
    """True when every string in the command encodes as UTF-8 (surrogates come in pairs)."""
    try:
        json.dumps(command, ensure_ascii=False).encode("utf-8")
    except (UnicodeEncodeError, RecursionError):
        return False
    return True


def _success(request_id: Any, command: str, data: Any = _NO_DATA) -> dict[str, Any]:
    response: dict[str, Any] = {"id": request_id, "type": "response", "command": command,
                                "success": True}  # fmt: skip
    if data is not _NO_DATA:
        response["data"] = data
    if request_id is None:
        del response["id"]
    return response


def _error(request_id: Any, command: str, message: str) -> dict[str, Any]:
    response = {"id": request_id, "type": "response", "command": command, "success": False,
                "error": message}  # fmt: skip
    if request_id is None:
        del response["id"]
    return response


def _message(error: BaseException) -> str:
    if isinstance(error, ValidationError):
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        return f"Invalid field {where!r}: {first['msg']}"
    return str(error.args[0]) if error.args else type(error).__name__


def _field(command: dict[str, Any], name: str, kind: type | tuple[type, ...] = str) -> Any:
    if name not in command:
        raise CommandError(f"Missing field {name!r} for command {command.get('type')!r}")
    value = command[name]
    if not isinstance(value, kind):
        raise CommandError(f"Field {name!r} of command {command.get('type')!r} has the wrong type")
    return value


def _images_of(command: dict[str, Any]) -> list[ImageContent] | None:
    raw = command.get("images")
    return _images.validate_python(raw) if raw else None


# --- commands --------------------------------------------------------------------------------


async def _prompt(server: RpcServer, command: dict[str, Any]) -> Any:
    message = _field(command, "message")
    behavior = command.get("streamingBehavior")
    if behavior not in (None, "steer", "followUp"):
        raise CommandError("streamingBehavior must be 'steer' or 'followUp'")
    request_id = command.get("id")
    accepted = False

    def on_accepted() -> None:
        nonlocal accepted
        accepted = True
        server.output(_success(request_id, "prompt"))

    try:
        await server.session.prompt(
            message,
            images=_images_of(command),
            streaming_behavior=behavior,
            source="rpc",
            on_accepted=on_accepted,
        )
    except Exception as error:
        if accepted:  # failures after acceptance reach the client as events and messages
            return _RESPONDED
        raise CommandError(_message(error)) from error
    return _RESPONDED


async def _steer(server: RpcServer, command: dict[str, Any]) -> Any:
    await server.session.steer(_field(command, "message"), _images_of(command))
    return _NO_DATA


async def _follow_up(server: RpcServer, command: dict[str, Any]) -> Any:
    await server.session.follow_up(_field(command, "message"), _images_of(command))
    return _NO_DATA


async def _abort(server: RpcServer, command: dict[str, Any]) -> Any:
    await server.session.abort()
    return _NO_DATA


async def _new_session(server: RpcServer, command: dict[str, Any]) -> Any:
    result = await server.session.new_session(parent_session=command.get("parentSession"))
    return {"cancelled": result["cancelled"]}


async def _get_state(server: RpcServer, command: dict[str, Any]) -> Any:
    session = server.session
    state: dict[str, Any] = {
        "model": session.model,
        "thinkingLevel": session.thinking_level,
        "isStreaming": session.is_streaming,
        "isCompacting": session.compaction.is_compacting,
        "steeringMode": session.agent.steering_mode,
        "followUpMode": session.agent.follow_up_mode,
        "sessionFile": session.session_file,
        "sessionId": session.session_id,
        "sessionName": session.session_name,
        "autoCompactionEnabled": session.settings.get_compaction_enabled(),
        "messageCount": len(session.messages),
        "pendingMessageCount": len(session.prompts.steering_texts)
        + len(session.prompts.follow_up_texts),
    }
    return {k: v for k, v in state.items() if v is not None or k == "model"}


async def _set_model(server: RpcServer, command: dict[str, Any]) -> Any:
    provider, model_id = _field(command, "provider"), _field(command, "modelId")
    model = next(
        (
            m
            for m in server.session.model_registry.available_models()
            if m.provider == provider and m.id == model_id
        ),
        None,
    )
    if model is None:
        raise CommandError(f"Model not found: {provider}/{model_id}")
    await server.session.set_model(model)
    return model


async def _cycle_model(server: RpcServer, command: dict[str, Any]) -> Any:
    result = await server.session.cycle_model()
    if result is None:
        return None
    model, level = result
    return {"model": model, "thinkingLevel": level, "isScoped": bool(server.session.scoped_models)}


async def _available_models(server: RpcServer, command: dict[str, Any]) -> Any:
    return {"models": server.session.model_registry.available_models()}


async def _set_thinking(server: RpcServer, command: dict[str, Any]) -> Any:
    level = _field(command, "level")
    if level not in THINKING_LEVELS:
        raise CommandError(f"Unknown thinking level: {level}")
    server.session.set_thinking_level(level)
    return _NO_DATA


async def _thinking_levels(server: RpcServer, command: dict[str, Any]) -> Any:
    return {"levels": server.session.available_thinking_levels()}


async def _cycle_thinking(server: RpcServer, command: dict[str, Any]) -> Any:
    level = server.session.cycle_thinking_level()
    return None if level is None else {"level": level}


def _mode(command: dict[str, Any]) -> str:
    mode = _field(command, "mode")
    if mode not in ("all", "one-at-a-time"):
        raise CommandError("mode must be 'all' or 'one-at-a-time'")
    return str(mode)


async def _steering_mode(server: RpcServer, command: dict[str, Any]) -> Any:
    server.session.set_steering_mode(_mode(command))
    return _NO_DATA


async def _follow_up_mode(server: RpcServer, command: dict[str, Any]) -> Any:
    server.session.set_follow_up_mode(_mode(command))
    return _NO_DATA


async def _compact(server: RpcServer, command: dict[str, Any]) -> Any:
    return await server.session.compact(command.get("customInstructions"))


async def _auto_compaction(server: RpcServer, command: dict[str, Any]) -> Any:
    server.session.settings.set_compaction_enabled(_field(command, "enabled", bool))
    return _NO_DATA


async def _auto_retry(server: RpcServer, command: dict[str, Any]) -> Any:
    server.session.settings.set_retry_enabled(_field(command, "enabled", bool))
    return _NO_DATA


async def _abort_retry(server: RpcServer, command: dict[str, Any]) -> Any:
    server.session.retry.cancel()
    return _NO_DATA


async def _bash(server: RpcServer, command: dict[str, Any]) -> Any:
    return await server.session.execute_bash(_field(command, "command"))


async def _abort_bash(server: RpcServer, command: dict[str, Any]) -> Any:
    server.session.bash.abort()
    return _NO_DATA


async def _stats(server: RpcServer, command: dict[str, Any]) -> Any:
    stats = server.session.get_session_stats()
    if stats.get("contextUsage") is None:
        stats.pop("contextUsage", None)
    return stats


async def _switch_session(server: RpcServer, command: dict[str, Any]) -> Any:
    result = await server.session.switch_session(_field(command, "sessionPath"))
    return {"cancelled": result["cancelled"]}


async def _fork(server: RpcServer, command: dict[str, Any]) -> Any:
    result = await server.session.fork(_field(command, "entryId"))
    return {"text": result.get("selected_text"), "cancelled": result["cancelled"]}


async def _clone(server: RpcServer, command: dict[str, Any]) -> Any:
    leaf = server.session.session_manager.get_leaf_id()
    if leaf is None:
        raise CommandError("Cannot clone session: no current entry selected")
    result = await server.session.fork(leaf, "at")
    return {"cancelled": result["cancelled"]}


async def _fork_messages(server: RpcServer, command: dict[str, Any]) -> Any:
    messages = []
    for entry in server.session.session_manager.get_entries():
        if isinstance(entry, SessionMessageEntry) and entry.message.role == "user":
            text = content_text(entry.message.content)
            if text:
                messages.append({"entryId": entry.id, "text": text})
    return {"messages": messages}


async def _last_text(server: RpcServer, command: dict[str, Any]) -> Any:
    text = server.session.get_last_assistant_text()
    return {} if text is None else {"text": text}  # pi leaves `text` out when there is none


async def _set_name(server: RpcServer, command: dict[str, Any]) -> Any:
    name = _field(command, "name").strip()
    if not name:
        raise CommandError("Session name cannot be empty")
    server.session.set_session_name(name)
    return _NO_DATA


async def _export_html(server: RpcServer, command: dict[str, Any]) -> Any:
    from pi_core.export import ExportError
    from pi_core.export.live import export_agent_session

    output = command.get("outputPath")
    if output is not None and not isinstance(output, str):
        raise CommandError("Field 'outputPath' of command 'export_html' has the wrong type")
    try:
        result = await asyncio.to_thread(export_agent_session, server.session, output or None)
    except ExportError as error:
        raise CommandError(str(error)) from None
    return {"path": str(result.path)}


async def _messages(server: RpcServer, command: dict[str, Any]) -> Any:
    return {"messages": server.session.messages}


async def _commands(server: RpcServer, command: dict[str, Any]) -> Any:
    from pi_core.agent_session.plugin_actions import slash_commands

    return {"commands": slash_commands(server.session)}


HANDLERS: dict[str, Handler] = {
    "prompt": _prompt,
    "steer": _steer,
    "follow_up": _follow_up,
    "abort": _abort,
    "new_session": _new_session,
    "get_state": _get_state,
    "set_model": _set_model,
    "cycle_model": _cycle_model,
    "get_available_models": _available_models,
    "set_thinking_level": _set_thinking,
    "cycle_thinking_level": _cycle_thinking,
    "get_available_thinking_levels": _thinking_levels,
    "set_steering_mode": _steering_mode,
    "set_follow_up_mode": _follow_up_mode,
    "compact": _compact,
    "set_auto_compaction": _auto_compaction,
    "set_auto_retry": _auto_retry,
    "abort_retry": _abort_retry,
    "bash": _bash,
    "abort_bash": _abort_bash,
    "get_session_stats": _stats,
    "switch_session": _switch_session,
    "fork": _fork,
    "clone": _clone,
    "get_fork_messages": _fork_messages,
    "get_last_assistant_text": _last_text,
    "set_session_name": _set_name,
    "get_messages": _messages,
    "get_commands": _commands,
    "export_html": _export_html,
}
"""Every command pi 0.73.1's RPC mode knows, and newer pi's `get_available_thinking_levels`."""


def _stdout_fd() -> int:
    """The descriptor under sys.stdout; -1 when it has none (an embedding caller replaced it)."""
    try:
        return sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return -1


async def run_rpc_mode(session: AgentSession, ui: RpcUI) -> int:
    """Serve stdin until it closes; return the exit code."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=2**26)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    server = RpcServer(session, ui)
    gone = asyncio.Event()
    unwatch = watch_hangup(_stdout_fd(), gone.set)
    try:
        await server.serve(reader, gone)
    finally:
        if unwatch is not None and not gone.is_set():
            unwatch()
        flush_records()
    return 1 if gone.is_set() else 0
