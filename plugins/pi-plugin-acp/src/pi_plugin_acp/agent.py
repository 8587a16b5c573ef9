"""`PiAcpAgent`: the ACP `Agent` whose sessions are real pi sessions (saved as session files)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from acp import PROTOCOL_VERSION, Client, RequestError
from acp.schema import (
    AgentCapabilities,
    CloseSessionResponse,
    ForkSessionResponse,
    Implementation,
    InitializeResponse,
    ListSessionsResponse,
    LoadSessionResponse,
    McpCapabilities,
    NewSessionResponse,
    PermissionOption,
    PromptCapabilities,
    PromptResponse,
    RequestPermissionResponse,
    ResumeSessionResponse,
    SessionCapabilities,
    SessionCloseCapabilities,
    SessionForkCapabilities,
    SessionInfo,
    SessionListCapabilities,
    SessionResumeCapabilities,
    SetSessionConfigOptionResponse,
    SetSessionModeResponse,
)

from pi_core import AgentSession, SessionManager, create_agent_session
from pi_core import agent_dir as default_agent_dir
from pi_core.session import default_session_dir, list_all_sessions, list_sessions
from pi_plugin_acp import extensions
from pi_plugin_acp.auth import auth_methods
from pi_plugin_acp.client_meta import PiMeta, pi_meta, require_model
from pi_plugin_acp.client_operations import client_operations
from pi_plugin_acp.config_options import apply_option, config_options
from pi_plugin_acp.dialogs import AcpDialogUI
from pi_plugin_acp.fork import METHOD as FORK_METHOD
from pi_plugin_acp.fork import fork_at
from pi_plugin_acp.mapping import PromptBlock, prompt_to_pi, stop_reason
from pi_plugin_acp.mcp_servers import hand_over
from pi_plugin_acp.modes import MODE_IDS, SessionModeHolder, mode_update
from pi_plugin_acp.permission import AcpPermissionGate
from pi_plugin_acp.replay import replay_updates
from pi_plugin_acp.rules import PermissionRules
from pi_plugin_acp.session_state import available_commands, title, title_update, usage
from pi_plugin_acp.updates import EventTranslator


@dataclass
class _Live:
    """One ACP session: its pi session and the state of the turn in flight."""

    session: AgentSession
    agent_dir: Path
    cwd: str
    mode: SessionModeHolder = field(default_factory=SessionModeHolder)
    cancelled: bool = False
    title: str | None = None
    pending: set[asyncio.Task[Any]] = field(default_factory=set)


class PiAcpAgent:
    """Serves pi sessions to one ACP client connection."""

    def __init__(self) -> None:
        self._conn: Client | None = None
        self._sessions: dict[str, _Live] = {}
        self._agent_dir = default_agent_dir()
        self._meta = PiMeta()
        self._capabilities: Any = None

    def on_connect(self, conn: Client) -> None:
        """Remember the client, to send it updates and ask it for permission."""
        self._conn = conn

    @property
    def _client(self) -> Client:
        if self._conn is None:
            raise RequestError.internal_error({"message": "no client connection"})
        return self._conn

    async def initialize(
        self, protocol_version: int, client_capabilities: Any = None, client_info: Any = None,
        **kwargs: Any,
    ) -> InitializeResponse:  # fmt: skip
        """Say what pi supports: loading sessions, images and embedded context, listing."""
        from pi_core import __version__

        self._capabilities = client_capabilities
        self._meta = pi_meta(kwargs)
        if self._meta.agent_dir is not None:
            self._agent_dir = self._meta.agent_dir

        return InitializeResponse(
            protocol_version=min(protocol_version, PROTOCOL_VERSION),
            agent_capabilities=AgentCapabilities(
                load_session=True,
                prompt_capabilities=PromptCapabilities(image=True, embedded_context=True),
                mcp_capabilities=McpCapabilities(http=True, sse=True),
                session_capabilities=SessionCapabilities(
                    list=SessionListCapabilities(),
                    fork=SessionForkCapabilities(),
                    resume=SessionResumeCapabilities(),
                    close=SessionCloseCapabilities(),
                ),
            ),
            auth_methods=auth_methods(),
            agent_info=Implementation(name="pi", title="pi", version=__version__),
        )

    async def new_session(
        self, cwd: str, additional_directories: Any = None, mcp_servers: Any = None, **kwargs: Any
    ) -> NewSessionResponse:
        """Start a new pi session in `cwd`; its id is the pi session id."""
        meta = pi_meta(kwargs).over(self._meta)
        session_id = await self._open(
            cwd, SessionManager.create(cwd, self._sessions_dir(cwd)), meta
        )
        live = self._live(session_id)
        if live.session.model is None:
            del self._sessions[session_id]
            await live.session.shutdown("quit")
            require_model(live.session, live.agent_dir)
        await hand_over(live.session, mcp_servers)
        options = config_options(live.session)
        self._announce_commands(session_id)
        return NewSessionResponse(
            session_id=session_id, config_options=options, modes=live.mode.state()
        )

    async def load_session(
        self,
        cwd: str,
        session_id: str,
        mcp_servers: Any = None,
        additional_directories: Any = None,
        **kwargs: Any,
    ) -> LoadSessionResponse:
        """Open a saved pi session and replay its whole conversation as updates."""
        live_id = await self._restore(cwd, session_id, mcp_servers)
        live = self._sessions[live_id]
        for update in replay_updates(live.session.messages, cwd):
            await self._client.session_update(session_id=live_id, update=update)
        live.title = title(live.session)
        self._announce_commands(live_id)
        return LoadSessionResponse(
            config_options=config_options(live.session), modes=live.mode.state()
        )

    async def _restore(self, cwd: str, session_id: str, mcp_servers: Any = None) -> str:
        if session_id in self._sessions:
            return session_id
        live_id = await self._open(
            cwd,
            SessionManager.open(
                self._session_path(cwd, session_id), self._sessions_dir(cwd), cwd=cwd
            ),
        )
        await hand_over(self._live(live_id).session, mcp_servers)
        return live_id

    def _session_path(self, cwd: str, session_id: str) -> str:
        """The file of a session: a live one's, else a saved one's in `cwd`."""
        live = self._sessions.get(session_id)
        if live is not None and live.session.session_file is not None:
            return live.session.session_file
        info = next(
            (i for i in list_sessions(cwd, self._sessions_dir(cwd)) if i.id == session_id), None
        )
        if info is None:
            raise RequestError.resource_not_found(session_id)
        return str(info.path)

    async def list_sessions(
        self, cwd: str | None = None, cursor: str | None = None, **kwargs: Any
    ) -> ListSessionsResponse:
        """The saved pi sessions of `cwd` (of every folder without one), most recent first."""
        found = (
            list_all_sessions(self._agent_dir)
            if cwd is None
            else list_sessions(cwd, self._sessions_dir(cwd))
        )
        return ListSessionsResponse(
            sessions=[
                SessionInfo(
                    session_id=info.id,
                    cwd=info.cwd or cwd or "",
                    title=info.name or info.first_message[:80] or None,
                    updated_at=info.modified.isoformat(),
                )
                for info in found
            ]
        )

    async def prompt(
        self, session_id: str, prompt: list[PromptBlock], **kwargs: Any
    ) -> PromptResponse:
        """Run one prompt to the end of the agent's turn."""
        live = self._live(session_id)
        require_model(live.session, live.agent_dir)
        live.cancelled = False
        text, images = prompt_to_pi(prompt)
        before = len(live.session.messages)
        await live.session.prompt(text, images=images or None, source="rpc")
        await self._drain(live)
        last = next(
            (
                m
                for m in reversed(live.session.messages[before:])
                if getattr(m, "role", "") == "assistant"
            ),
            None,
        )
        await self._report_state(session_id, live)
        reason = getattr(last, "stop_reason", None)
        if reason == "error" and not live.cancelled:
            message = getattr(last, "error_message", None) or "the model request failed"
            raise RequestError.internal_error({"message": message})
        return PromptResponse(stop_reason=stop_reason(reason, live.cancelled))

    async def cancel(self, session_id: str, **kwargs: Any) -> None:
        """Stop the turn in flight; its `session/prompt` answers `cancelled`."""
        live = self._sessions.get(session_id)
        if live is not None:
            live.cancelled = True
            await live.session.abort()

    async def resume_session(
        self,
        session_id: str,
        cwd: str,
        additional_directories: Any = None,
        mcp_servers: Any = None,
        **kwargs: Any,
    ) -> ResumeSessionResponse:
        """Open a saved pi session without replaying it."""
        live_id = await self._restore(cwd, session_id, mcp_servers)
        live = self._live(live_id)
        live.title = title(live.session)
        self._announce_commands(live_id)
        return ResumeSessionResponse(
            config_options=config_options(live.session), modes=live.mode.state()
        )

    async def close_session(self, session_id: str, **kwargs: Any) -> CloseSessionResponse:
        """Stop the session's turn, if any, and forget it (its file stays)."""
        live = self._live(session_id)
        if not live.session.is_idle:
            live.cancelled = True
            await live.session.abort()
        await live.session.shutdown("quit")
        del self._sessions[session_id]
        return CloseSessionResponse()

    async def close_all(self) -> None:
        """End every open session, as `session/close` does (the connection is over)."""
        for session_id in list(self._sessions):
            with contextlib.suppress(Exception):  # one failing must not keep the rest open
                await self.close_session(session_id)

    async def fork_session(
        self,
        session_id: str,
        cwd: str,
        additional_directories: Any = None,
        mcp_servers: Any = None,
        **kwargs: Any,
    ) -> ForkSessionResponse:
        """A new session with the whole history of `session_id` (a saved or a live one)."""
        fork_id = await self._fork(session_id, cwd, {}, mcp_servers)
        live = self._live(fork_id)
        return ForkSessionResponse(
            session_id=fork_id, config_options=config_options(live.session), modes=live.mode.state()
        )

    async def _fork(
        self, session_id: str, cwd: str, params: dict[str, Any], mcp_servers: Any = None
    ) -> str:
        path = self._session_path(cwd, session_id)

        async def prepare(session: AgentSession) -> None:
            await fork_at(session, params)

        fork_id = await self._open(
            cwd, SessionManager.open(path, self._sessions_dir(cwd), cwd=cwd), prepare=prepare
        )
        await hand_over(self._live(fork_id).session, mcp_servers)
        self._live(fork_id).title = title(self._live(fork_id).session)
        self._announce_commands(fork_id)
        return fork_id

    async def set_session_mode(
        self, session_id: str, mode_id: str, **kwargs: Any
    ) -> SetSessionModeResponse:
        """Switch the session's mode (see pi_plugin_acp.modes) and announce it."""
        live = self._live(session_id)
        if mode_id not in MODE_IDS:
            raise RequestError.invalid_params({"message": f"unknown mode {mode_id}"})
        live.mode.current = mode_id
        await self._client.session_update(session_id=session_id, update=mode_update(mode_id))
        return SetSessionModeResponse()

    async def set_config_option(
        self, config_id: str, session_id: str, value: str | bool, **kwargs: Any
    ) -> SetSessionConfigOptionResponse:
        """Switch the model or the thinking level."""
        session = self._live(session_id).session
        try:
            await apply_option(session, config_id, str(value))
        except ValueError as error:
            raise RequestError.invalid_params({"message": str(error)}) from error
        return SetSessionConfigOptionResponse(config_options=config_options(session))

    async def authenticate(self, method_id: str, **kwargs: Any) -> None:
        """No ACP authentication: pi's credentials come from its agent folder."""
        return None

    async def ext_method(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """pi's extensions: `_pi/steer` and `_pi/follow_up` (see pi_plugin_acp.extensions), and
        `_pi/fork` (see pi_plugin_acp.fork)."""
        if method not in (*extensions.METHODS, FORK_METHOD):
            raise RequestError.method_not_found(f"_{method}")
        session_id = params.get("sessionId")
        if not isinstance(session_id, str):
            raise RequestError.invalid_params({"message": "sessionId is required"})
        if method == FORK_METHOD:
            source = self._live(session_id)
            fork_id = await self._fork(session_id, source.cwd, params)
            return {"sessionId": fork_id}
        return await extensions.call(self._live(session_id).session, method, params)

    async def ext_notification(self, method: str, params: dict[str, Any]) -> None:
        """Extension notifications are ignored."""

    async def _report_state(self, session_id: str, live: _Live) -> None:
        current = usage(live.session)
        if current is not None:
            await self._client.session_update(session_id=session_id, update=current)
        name = title(live.session)
        if name and name != live.title:
            live.title = name
            await self._client.session_update(session_id=session_id, update=title_update(name))

    def _announce_commands(self, session_id: str) -> None:
        # after the answer that names the session, so the client knows the id
        live = self._live(session_id)
        update = available_commands(live.session)

        async def send() -> None:
            await asyncio.sleep(0)
            await self._client.session_update(session_id=session_id, update=update)

        task = asyncio.ensure_future(send())
        live.pending.add(task)
        task.add_done_callback(live.pending.discard)

    def _sessions_dir(self, cwd: str) -> Path:
        return default_session_dir(cwd, self._agent_dir)

    def _live(self, session_id: str) -> _Live:
        live = self._sessions.get(session_id)
        if live is None:
            raise RequestError.resource_not_found(session_id)
        return live

    async def _open(
        self,
        cwd: str,
        manager: SessionManager,
        meta: PiMeta | None = None,
        prepare: Callable[[AgentSession], Awaitable[None]] | None = None,
    ) -> str:
        meta = meta or self._meta
        agent_dir = self._agent_dir
        holder: dict[str, str] = {}

        async def ask(tool_call: Any, options: list[PermissionOption]) -> RequestPermissionResponse:
            return await self._client.request_permission(
                session_id=holder["id"], tool_call=tool_call, options=options
            )

        async def ask_dialog(
            tool_call: Any, options: list[PermissionOption], meta: dict[str, Any]
        ) -> RequestPermissionResponse:
            return await self._client.request_permission(
                session_id=holder["id"], tool_call=tool_call, options=options, **meta
            )

        async def notify(update: Any) -> None:
            await self._client.session_update(session_id=holder["id"], update=update)

        mode = SessionModeHolder()
        rules = PermissionRules(agent_dir / "acp-permissions.json")
        gate = AcpPermissionGate(ask, notify, rules, mode, cwd)
        operations = client_operations(self._capabilities, lambda: holder["id"], self._client)
        session = await create_agent_session(
            cwd=cwd,
            agent_dir=agent_dir,
            model=meta.model,
            thinking_level=meta.thinking_level,
            session=manager,
            plugins=gate.plugins,
            tool_operations=operations,
            ui=AcpDialogUI(ask_dialog),
        )
        if prepare is not None:
            try:
                await prepare(session)
            except BaseException:
                await session.shutdown("quit")
                raise
        holder["id"] = session.session_id
        live = _Live(session, agent_dir, cwd, mode)
        self._sessions[session.session_id] = live
        translator = EventTranslator(cwd, disk_diffs=operations is None or operations.write is None)

        def listener(event: Any) -> None:
            updates = translator.translate(event)
            if not updates:
                return
            # session/update notifications keep the order the events came in
            task = asyncio.ensure_future(self._send_all(session.session_id, updates, live))
            live.pending.add(task)
            task.add_done_callback(live.pending.discard)

        session.subscribe(listener)
        return session.session_id

    async def _send_all(self, session_id: str, updates: list[Any], live: _Live) -> None:
        for update in updates:
            await self._client.session_update(session_id=session_id, update=update)

    async def _drain(self, live: _Live) -> None:
        while live.pending:
            await asyncio.gather(*list(live.pending), return_exceptions=True)
