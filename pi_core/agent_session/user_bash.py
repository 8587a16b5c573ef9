"""Shell commands from the user: `!cmd` goes into the context, `!!cmd` does not.

The command is offered to the `user_bash` hook; the first plugin to answer runs it (the default
runner is pi-plugin-tools' bash). While the agent streams, the result waits and is added before
the next prompt, so it never lands between a tool call and its result.
"""

from __future__ import annotations

from collections.abc import Callable

from pi_core.abort import AbortController
from pi_core.agent.agent import Agent
from pi_core.events.user import BashResult, UserBashEvent
from pi_core.messages.agent import BashExecutionMessage
from pi_core.plugins.dispatch import HookDispatcher
from pi_core.resources.settings import SettingsManager
from pi_core.session.manager import SessionManager

NO_RUNNER = (
    "No plugin runs shell commands. Install pi-plugin-tools (it answers user_bash with its bash "
    "tool), or a plugin that implements user_bash."
)


class UserBash:
    """Runs the user's shell commands through plugins and records their output."""

    def __init__(
        self,
        *,
        agent: Agent,
        session_manager: SessionManager,
        settings: SettingsManager,
        dispatcher: HookDispatcher,
        cwd: Callable[[], str],
    ) -> None:
        self._agent = agent
        self._session_manager = session_manager
        self._settings = settings
        self._dispatcher = dispatcher
        self._cwd = cwd  # the session's folder: it moves when a session of another folder opens
        self.pending: list[BashExecutionMessage] = []
        self._abort: AbortController | None = None

    @property
    def is_running(self) -> bool:
        """Return whether a user command runs now."""
        return self._abort is not None

    def abort(self) -> None:
        """Stop the running command."""
        if self._abort is not None:
            self._abort.abort()

    async def execute(
        self,
        command: str,
        on_chunk: Callable[[str], None] | None = None,
        *,
        exclude_from_context: bool = False,
    ) -> BashResult:
        """Run `command` in the session's folder and record the result."""
        prefix = self._settings.get_shell_command_prefix()
        self._abort = AbortController()
        event = UserBashEvent(
            command=f"{prefix}\n{command}" if prefix else command,
            exclude_from_context=exclude_from_context,
            cwd=self._cwd(),
            signal=self._abort.signal,
            on_chunk=on_chunk,
        )
        try:
            answer = await self._dispatcher.user_bash(event)
        finally:
            self._abort = None
        if answer is None or answer.result is None:
            raise RuntimeError(NO_RUNNER)
        self.record(command, answer.result, exclude_from_context)
        return answer.result

    def record(self, command: str, result: BashResult, exclude_from_context: bool = False) -> None:
        """Add a finished command to the context and the session (later, if streaming)."""
        message = BashExecutionMessage(
            command=command,
            output=result.output,
            exit_code=result.exit_code,
            cancelled=result.cancelled,
            truncated=result.truncated,
            full_output_path=result.full_output_path,
            exclude_from_context=exclude_from_context or None,
        )
        if self._agent.is_streaming:
            self.pending.append(message)
        else:
            self._add(message)

    def flush_pending(self) -> None:
        """Add the commands that finished while the agent streamed."""
        pending, self.pending = self.pending, []
        for message in pending:
            self._add(message)

    def _add(self, message: BashExecutionMessage) -> None:
        self._agent.state.messages.append(message)
        self._session_manager.append_message(message)
