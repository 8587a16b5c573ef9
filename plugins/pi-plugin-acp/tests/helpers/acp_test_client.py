"""The ACP SDK's client side of `pi acp` for this plugin's tests: a recording client, a checker
that validates every message pi sends against the SDK's schema models, and a project folder
with an isolated agent dir and HOME against the loopback fake model."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from acp import PROTOCOL_VERSION, spawn_agent_process
from acp.connection import StreamDirection, StreamEvent
from acp.schema import (
    AllowedOutcome,
    CloseSessionResponse,
    CreateTerminalRequest,
    CreateTerminalResponse,
    DeniedOutcome,
    ForkSessionResponse,
    InitializeResponse,
    KillTerminalRequest,
    KillTerminalResponse,
    ListSessionsResponse,
    LoadSessionResponse,
    NewSessionResponse,
    PromptResponse,
    ReadTextFileRequest,
    ReadTextFileResponse,
    ReleaseTerminalRequest,
    ReleaseTerminalResponse,
    RequestPermissionRequest,
    RequestPermissionResponse,
    ResumeSessionResponse,
    SessionNotification,
    SetSessionConfigOptionResponse,
    SetSessionModeResponse,
    TerminalOutputRequest,
    TerminalOutputResponse,
    ToolCallStart,
    WaitForTerminalExitRequest,
    WaitForTerminalExitResponse,
    WriteTextFileRequest,
    WriteTextFileResponse,
)
from pydantic import BaseModel

from pi_core.testing import (
    FakeLLMServer,
    chat_models_json,
    console_script,
)

SESSION_WIDE = {"available_commands_update", "usage_update", "session_info_update"}


class Recorder:
    """An ACP client: records every update, answers permission requests as told."""

    def __init__(self, answer: str = "allow_once") -> None:
        self.answer = answer
        self.updates: list[Any] = []
        self.asked: list[Any] = []
        self.tool_announced = asyncio.Event()
        self.release = asyncio.Event()
        self.hold = False
        self.buffers: dict[str, str] = {}
        self.reads: list[str] = []
        self.terminals: list[list[Any]] = []
        self.released: list[str] = []
        self.killed: list[str] = []
        self.terminal_started = asyncio.Event()
        self.terminal_release = asyncio.Event()
        self.terminal_release.set()

    async def request_permission(
        self, options: Any, session_id: str, tool_call: Any, **kwargs: Any
    ) -> RequestPermissionResponse:
        self.asked.append(tool_call)
        if self.answer == "fail":
            raise RuntimeError("the editor could not show the dialog")
        if self.hold:
            await self.release.wait()
            return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
        return RequestPermissionResponse(
            outcome=AllowedOutcome(outcome="selected", option_id=self.answer)
        )

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        # validate the whole notification as it came over the wire
        SessionNotification.model_validate(
            {"sessionId": session_id, "update": update.model_dump(by_alias=True, exclude_none=True)}
        )
        self.updates.append(update)
        if isinstance(update, ToolCallStart):
            self.tool_announced.set()

    async def read_text_file(self, path: str, session_id: str, **kwargs: Any) -> Any:
        self.reads.append(path)
        return ReadTextFileResponse(content=self.buffers[path])

    async def write_text_file(self, content: str, path: str, session_id: str, **kwargs: Any) -> Any:
        self.buffers[path] = content
        return WriteTextFileResponse()

    async def create_terminal(
        self, command: str, session_id: str, args: Any = None, cwd: Any = None, **kwargs: Any
    ) -> Any:
        self.terminals.append([command, *(args or []), cwd])
        self.terminal_started.set()
        return CreateTerminalResponse(terminal_id=f"term-{len(self.terminals)}")

    async def wait_for_terminal_exit(self, session_id: str, terminal_id: str, **kwargs: Any) -> Any:
        await self.terminal_release.wait()
        return WaitForTerminalExitResponse(exit_code=0)

    async def terminal_output(self, session_id: str, terminal_id: str, **kwargs: Any) -> Any:
        return TerminalOutputResponse(output="output of the editor's terminal\n", truncated=False)

    async def kill_terminal(self, session_id: str, terminal_id: str, **kwargs: Any) -> Any:
        self.killed.append(terminal_id)
        self.terminal_release.set()
        return KillTerminalResponse()

    async def release_terminal(self, session_id: str, terminal_id: str, **kwargs: Any) -> Any:
        self.released.append(terminal_id)
        return ReleaseTerminalResponse()

    def kinds(self) -> list[str]:
        """The sessionUpdate kind of every conversation update, in order."""
        return [u.session_update for u in self.updates if u.session_update not in SESSION_WIDE]


AGENT_REQUESTS: dict[str, type[BaseModel]] = {
    "session/update": SessionNotification,
    "session/request_permission": RequestPermissionRequest,
    "fs/read_text_file": ReadTextFileRequest,
    "fs/write_text_file": WriteTextFileRequest,
    "terminal/create": CreateTerminalRequest,
    "terminal/wait_for_exit": WaitForTerminalExitRequest,
    "terminal/output": TerminalOutputRequest,
    "terminal/release": ReleaseTerminalRequest,
    "terminal/kill": KillTerminalRequest,
}
AGENT_RESPONSES: dict[str, type[BaseModel]] = {
    "initialize": InitializeResponse,
    "session/new": NewSessionResponse,
    "session/prompt": PromptResponse,
    "session/load": LoadSessionResponse,
    "session/list": ListSessionsResponse,
    "session/resume": ResumeSessionResponse,
    "session/close": CloseSessionResponse,
    "session/set_config_option": SetSessionConfigOptionResponse,
    "session/set_mode": SetSessionModeResponse,
    "session/fork": ForkSessionResponse,
}


class WireChecker:
    """Validates every raw JSON-RPC message `pi acp` sends against the SDK's schema models."""

    def __init__(self) -> None:
        self.asked: dict[Any, str] = {}
        self.checked = 0
        self.invalid: list[str] = []

    def __call__(self, event: StreamEvent) -> None:
        try:
            self._check(event)
        except Exception as error:  # the SDK swallows an observer's exceptions
            self.invalid.append(f"{event.message!r}: {error!r}")

    def _check(self, event: StreamEvent) -> None:
        message = event.message
        if event.direction == StreamDirection.OUTGOING:
            if "method" in message and "id" in message:
                self.asked[message["id"]] = message["method"]
            return
        self.checked += 1
        if "method" in message:
            AGENT_REQUESTS[message["method"]].model_validate(message["params"])
        elif "error" in message:
            assert isinstance(message["error"]["code"], int)
            assert isinstance(message["error"]["message"], str)
        elif self.asked[message["id"]].startswith("_"):
            assert isinstance(message["result"], dict)  # an extension method's answer
        else:
            AGENT_RESPONSES[self.asked[message["id"]]].model_validate(message["result"] or {})


class Project:
    """A project folder, an isolated agent dir and HOME, the fake model."""

    def __init__(self, root: Path, fake: FakeLLMServer) -> None:
        self.fake = fake
        self.cwd = root / "project"
        self.agent_dir = root / "agent"
        self.cwd.mkdir()
        self.agent_dir.mkdir()
        (self.agent_dir / "models.json").write_text(json.dumps(chat_models_json(fake.base_url)))
        (self.agent_dir / "settings.json").write_text(
            json.dumps({"defaultProvider": "fake", "defaultModel": "fake-model"})
        )
        subprocess.run(["git", "init", "-q", str(self.cwd)], check=True)
        self.env = {**os.environ, "HOME": str(root), "PI_CODING_AGENT_DIR": str(self.agent_dir)}
        self.wire = WireChecker()
        self.initialized: InitializeResponse | None = None

    @asynccontextmanager
    async def agent(
        self, client: Recorder, capabilities: Any = None, **meta: Any
    ) -> AsyncIterator[Any]:
        """Spawn `pi acp` and initialize a connection to it (`meta`: the `_meta` it sends)."""
        async with spawn_agent_process(
            client,
            console_script("pi"),
            "acp",
            env=self.env,
            cwd=str(self.cwd),
            observers=[self.wire],
        ) as (conn, _process):
            # a pi without `acp` never answers: fail instead of hanging
            reply = await asyncio.wait_for(
                conn.initialize(
                    protocol_version=PROTOCOL_VERSION, client_capabilities=capabilities, **meta
                ),
                timeout=30,
            )
            assert reply.agent_capabilities is not None
            assert reply.agent_capabilities.load_session is True
            self.initialized = reply
            yield conn

    def sent_texts(self, index: int) -> str:
        """Everything the fake's request number `index` carried, as one string."""
        return json.dumps(self.fake.requests[index].json()["messages"])
