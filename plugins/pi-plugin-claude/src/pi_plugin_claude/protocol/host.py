"""The stream-json host loop: read stdin lines, queue prompts, answer control requests."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import Any

from pi_plugin_claude.managed_only import BYPASS_REFUSED
from pi_plugin_claude.permissions import parse_mode
from pi_plugin_claude.protocol.bridge import parse_hook_registrations
from pi_plugin_claude.runner import ClaudeRunner

LINE_LIMIT = 64 * 1024 * 1024


async def open_stdin() -> asyncio.StreamReader:
    """stdin as an asyncio stream (a pipe or a file; lines up to 64 MiB)."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=LINE_LIMIT)
    protocol = asyncio.StreamReaderProtocol(reader)
    await loop.connect_read_pipe(lambda: protocol, os.fdopen(os.dup(sys.stdin.fileno()), "rb"))
    return reader


class HostLoop:
    """Serves one host over stdin/stdout until EOF, then finishes queued prompts."""

    def __init__(self, runner: ClaudeRunner) -> None:
        self.runner = runner
        self.prompts: asyncio.Queue[Any] = asyncio.Queue()
        self.handlers: dict[str, asyncio.Task[None]] = {}
        self.initialized = False
        self.aborting: asyncio.Future[None] | None = None

    async def serve(self, reader: asyncio.StreamReader) -> int:
        """Read until EOF while a worker runs the prompts in order; return the exit code."""
        worker = asyncio.create_task(self._work())
        try:
            await self._read(reader)
            # The host cannot answer any more: hooks and prompts from now on get no reply.
            self.runner.control.enabled = False
            self.runner.control.fail_all("stdin closed before the host answered")
        finally:
            await self.prompts.put(None)
            await worker
            await self.runner.close()
        return self.runner.exit_code

    async def _read(self, reader: asyncio.StreamReader) -> None:
        while True:
            try:
                raw = await reader.readline()
            except ValueError:
                self._warn("a line longer than 64 MiB was dropped")
                continue
            if not raw:
                return
            line = raw.decode("utf-8", "replace").strip()
            if not line:
                continue
            try:
                message = json.loads(line)
            except json.JSONDecodeError as error:
                self._warn(f"ignored a line that is not JSON ({error.msg}): {line[:120]}")
                continue
            if isinstance(message, dict):
                self._dispatch(message)

    def _dispatch(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "user":
            body = message.get("message") or {}
            self.prompts.put_nowait(body.get("content", ""))
        elif kind == "control_request":
            request_id = str(message.get("request_id", ""))
            task = asyncio.create_task(self._answer(request_id, message.get("request") or {}))
            self.handlers[request_id] = task
            task.add_done_callback(lambda _: self.handlers.pop(request_id, None))
        elif kind == "control_response":
            self.runner.control.resolve(message.get("response") or {})
        elif kind == "control_cancel_request":
            pending = self.handlers.get(str(message.get("request_id", "")))
            if pending is not None:
                pending.cancel()
        elif kind != "keep_alive":
            self._warn(f"ignored a message of unknown type {kind!r}")

    async def _work(self) -> None:
        while True:
            content = await self.prompts.get()
            if content is None:
                return
            try:
                await self.runner.run_prompt(content)
            except Exception as error:  # a failed prompt must not take the host down with it
                self._warn(f"prompt failed: {error}")
                self.runner.exit_code = 1
                self.runner.emit(
                    {
                        "type": "result",
                        "subtype": "error_during_execution",
                        "is_error": True,
                        "duration_ms": 0,
                        "duration_api_ms": 0,
                        "num_turns": 0,
                        "result": str(error),
                        "session_id": self.runner.state.session_id,
                        "total_cost_usd": 0,
                        "usage": {"input_tokens": 0, "output_tokens": 0},
                        "permission_denials": [],
                    }
                )

    async def _answer(self, request_id: str, request: dict[str, Any]) -> None:
        control = self.runner.control
        try:
            response = await self._handle(request)
        except asyncio.CancelledError:
            return  # the host withdrew it: no reply, as the SDK expects
        except Exception as error:
            control.error(request_id, str(error) or type(error).__name__)
            return
        control.success(request_id, response)

    async def _handle(self, request: dict[str, Any]) -> dict[str, Any]:
        runner = self.runner
        subtype = request.get("subtype")
        if subtype == "initialize":
            return await self._initialize(request)
        if subtype == "interrupt":
            if runner.running and runner.session is not None:
                runner.state.interrupt_requested = True
                # Answer at once, as Claude does; the turn ends with its own result.
                self.aborting = asyncio.ensure_future(runner.session.abort())
            return {"still_queued": []}
        if subtype == "set_permission_mode":
            mode = parse_mode(str(request.get("mode")))
            if mode == "bypassPermissions" and runner.gate.policy.bypass_disabled:
                raise ValueError(BYPASS_REFUSED)
            runner.gate.policy.mode = mode
            runner.emit(
                {
                    "type": "system",
                    "subtype": "status",
                    "status": None,
                    "permissionMode": mode,
                    "session_id": runner.state.session_id,
                    "uuid": _uuid(),
                }
            )
            return {"mode": mode}
        if subtype == "set_model":
            await runner.start()
            name = request.get("model")
            chosen = await runner.set_model(str(name) if name else None)
            model = runner.session_or_fail().model
            label = f"{model.provider}/{model.id}" if model else chosen
            runner.emit(
                {
                    "type": "user",
                    "message": {
                        "role": "user",
                        "content": "<local-command-stdout>Set model to "
                        f"`{label}`</local-command-stdout>",
                    },
                    "parent_tool_use_id": None,
                    "session_id": runner.state.session_id,
                    "uuid": _uuid(),
                }
            )
            return {"model": chosen}
        if subtype == "set_max_thinking_tokens":
            await runner.start()
            runner.set_thinking_budget(int(request.get("max_thinking_tokens") or 0))
            return {}
        raise ValueError(f"Unsupported control request subtype: {subtype}")

    async def _initialize(self, request: dict[str, Any]) -> dict[str, Any]:
        if self.initialized:
            raise ValueError("Already initialized")
        self.initialized = True
        runner = self.runner
        runner.state.hooks = parse_hook_registrations(request.get("hooks"))
        system_prompt = request.get("systemPrompt")
        if isinstance(system_prompt, list):  # the TS SDK's prompt sections
            system_prompt = "\n\n".join(str(part) for part in system_prompt)
        if isinstance(system_prompt, str) and system_prompt:
            runner.state.system_prompt = system_prompt
        if isinstance(request.get("appendSystemPrompt"), str) and request["appendSystemPrompt"]:
            runner.state.append_system_prompt = request["appendSystemPrompt"]
        session = await runner.start()  # after the hooks are known, so SessionStart reaches them
        models = [
            {"value": f"{m.provider}/{m.id}", "displayName": m.name or m.id, "description": ""}
            for m in session.model_registry.available_models()
        ]
        return {
            "commands": [],
            "output_style": "default",
            "available_output_styles": ["default"],
            "models": models,
            "account": {"tokenSource": "none", "apiKeySource": "none"},
            "pid": os.getpid(),
            "current_permission_mode": runner.gate.policy.mode,
        }

    @staticmethod
    def _warn(text: str) -> None:
        print(f"pi-claude: {text}", file=sys.stderr, flush=True)


def _uuid() -> str:
    import uuid

    return str(uuid.uuid4())
