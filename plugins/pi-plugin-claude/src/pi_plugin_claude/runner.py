"""One pi-claude conversation: the pi session behind it, and each prompt's stream-json messages."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path
from typing import Any

from pi_core import (
    AgentSession,
    AuthStorage,
    LoadOptions,
    Model,
    PluginManager,
    agent_dir,
    create_agent_session,
)
from pi_core.messages import (
    AssistantMessage,
    ImageContent,
    TextContent,
    ToolCall,
    ToolResultMessage,
)
from pi_plugin_claude.bridge import ClaudeCompat
from pi_plugin_claude.fallback import fallback_trigger, model_fallback_line
from pi_plugin_claude.options import CLAUDE_ALIASES, ClaudeOptions
from pi_plugin_claude.permissions.offered import offered_tools
from pi_plugin_claude.profile import create_claude_tools
from pi_plugin_claude.protocol.bridge import BridgeState, HostBridge, SdkHookSource
from pi_plugin_claude.protocol.control import ControlChannel, Output
from pi_plugin_claude.protocol.messages import (
    STOP_REASONS,
    StreamEvents,
    assistant_lines,
    error_assistant_line,
    new_uuid,
    stream_event_line,
    tool_result_line,
    user_text_line,
)
from pi_plugin_claude.proxy_model import choose_model
from pi_plugin_claude.runtime import create_claude_runtime
from pi_plugin_claude.session.locate import choose_session
from pi_plugin_claude.session.transcript import TranscriptWriter, transcript_path
from pi_plugin_claude.thinking_budget import ThinkingBudget

CLAUDE_CODE_VERSION = "2.1.5"
"""The Claude Code release whose protocol pi-claude speaks (reported in system/init)."""
DEFAULT_CLAUDE_MODEL = "claude-sonnet-4-5"
PROFILE_ENTRY_POINT = "claude-profile"
"""The name of the Claude profile's `pi` entry point (the plugin for plain pi)."""
ANTHROPIC_ENV = ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL")


def requested_model(options: ClaudeOptions) -> str | None:
    """The model to ask pi for: --model; else Claude when ANTHROPIC_* is set; else settings'."""
    if options.model and options.model != "default":
        name = CLAUDE_ALIASES.get(options.model, options.model)
        if "/" not in name and name.startswith("claude") and _anthropic_env():
            return f"anthropic/{name}"
        return name
    if _anthropic_env():
        return f"anthropic/{os.environ.get('ANTHROPIC_MODEL') or DEFAULT_CLAUDE_MODEL}"
    return None


def _anthropic_env() -> bool:
    return any(os.environ.get(name) for name in ANTHROPIC_ENV)


def anthropic_key() -> str | None:
    """The Anthropic key a Claude Code host passes (API key, else auth token)."""
    return os.environ.get("ANTHROPIC_API_KEY") or os.environ.get("ANTHROPIC_AUTH_TOKEN")


class TurnRecorder:
    """Translates one prompt's pi events into stream-json lines and transcript lines."""

    def __init__(self, runner: ClaudeRunner) -> None:
        self.runner = runner
        self.stream = StreamEvents()
        self.assistants: list[AssistantMessage] = []
        self.max_turns_hit = False
        self.abort_task: asyncio.Future[None] | None = None
        self.tool_inputs: dict[str, dict[str, Any]] = {}

    def __call__(self, event: Any) -> None:
        """Handle one session event (a subscriber of the AgentSession)."""
        runner = self.runner
        kind = getattr(event, "type", "")
        partial = runner.options.include_partial_messages
        message = getattr(event, "message", None)
        if kind == "message_start" and partial and isinstance(message, AssistantMessage):
            self._stream(self.stream.start(message))
        elif kind == "message_update" and partial:
            self._stream(self.stream.update(event.assistant_message_event))
        elif kind == "message_end":
            self._message_end(message)
        elif kind == "turn_end" and runner.options.max_turns is not None:
            calls = isinstance(message, AssistantMessage) and message.stop_reason == "toolUse"
            if calls and len(self.assistants) >= runner.options.max_turns:
                self.max_turns_hit = True
                self.abort_task = asyncio.ensure_future(runner.session_or_fail().abort())

    def _stream(self, events: list[dict[str, Any]]) -> None:
        for sse in events:
            self.runner.emit(stream_event_line(sse, self.runner.state.session_id))

    def _message_end(self, message: Any) -> None:
        runner = self.runner
        failed = isinstance(message, AssistantMessage) and message.stop_reason == "error"
        if runner.transcript is not None and message is not None and not failed:
            runner.transcript.record(message)
        if isinstance(message, AssistantMessage):
            if runner.options.include_partial_messages and message.stop_reason != "error":
                self._stream(self.stream.finish(message))
            self.assistants.append(message)
            for block in message.content:
                if isinstance(block, ToolCall):
                    self.tool_inputs[block.id] = block.arguments
            if message.stop_reason != "error":
                for line in assistant_lines(message, runner.state.session_id):
                    runner.emit(line)
        elif isinstance(message, ToolResultMessage):
            tool_input = self.tool_inputs.pop(message.tool_call_id, None)
            runner.emit(tool_result_line(message, runner.state.session_id, tool_input))


class ClaudeRunner:
    """Owns the pi session, the host bridge and the output; runs prompts one at a time."""

    def __init__(self, options: ClaudeOptions, cwd: str, output: Output, stream_input: bool):
        self.options = options
        self.cwd = str(Path(cwd).resolve())
        self.output = output
        self.control = ControlChannel(output, enabled=stream_input)
        self.runtime = create_claude_runtime(
            self.cwd,
            setting_sources=options.setting_sources,
            settings=options.settings,
            permission_mode=options.permission_mode,
            allowed_tools=options.allowed_tools,
            disallowed_tools=options.disallowed_tools,
            add_dirs=options.add_dirs,
        )
        self.problems = list(self.runtime.problems)
        self.runtime.on_user_message = self._tell_user
        self.state = BridgeState(
            cwd=self.cwd,
            system_prompt=self._system_prompt(options),
            append_system_prompt=options.append_system_prompt,
        )
        self.gate = self.runtime.gate
        if stream_input:
            self.runtime.hooks.sources.append(SdkHookSource(self.state, self.control))
        self.compat = ClaudeCompat(self.runtime)
        self.bridge = HostBridge(self.state, self.control, self.compat)
        self.thinking_budget = ThinkingBudget()
        if options.permission_prompt_tool == "stdio" and stream_input:
            self.gate.ask = self.bridge.ask_host
        self.session: AgentSession | None = None
        self.transcript: TranscriptWriter | None = None
        self.exit_code = 0
        self.running = False
        self.reads_session_state = os.environ.get("CLAUDE_CODE_SDK_READS_SESSION_STATE") == "1"

    @staticmethod
    def _tell_user(message: str) -> None:
        """Hook errors and `systemMessage`s are for the user: stderr (hosts log it)."""
        print(f"pi-claude: {message}", file=sys.stderr, flush=True)

    @staticmethod
    def _system_prompt(options: ClaudeOptions) -> str | None:
        if options.system_prompt_file:
            return Path(options.system_prompt_file).read_text(encoding="utf-8")
        return options.system_prompt or None  # the SDKs send "" for "pi's own prompt"

    def emit(self, message: dict[str, Any]) -> None:
        """Send one stream-json line (text and json output print only the end result)."""
        if self.options.output_format == "stream-json":
            self.output.send(message)

    def session_or_fail(self) -> AgentSession:
        """The running session (a control request before it exists starts it)."""
        if self.session is None:
            raise RuntimeError("the session has not started")
        return self.session

    async def start(self) -> AgentSession:
        """Open the session the flags name and wire the host bridge into it (once)."""
        if self.session is not None:
            return self.session
        chosen = choose_session(self.options, self.cwd)
        manager = chosen.manager
        self.state.session_id = manager.session_id
        self.state.transcript_path = str(transcript_path(self.cwd, manager.session_id))
        self.runtime.hooks.session_id = self.state.session_id
        self.runtime.hooks.transcript_path = self.state.transcript_path
        self.runtime.resumed = chosen.resumed
        tools: list[str] | None = None
        if self.options.tools is not None and self.options.tools != ["default"]:
            tools = list(self.options.tools)
        # pi-claude wires the profile itself: the entry point must not add it a second time
        plugins = PluginManager(Path(self.cwd), agent_dir=agent_dir())
        plugins.load(LoadOptions(blocked=[PROFILE_ENTRY_POINT]))
        auth = AuthStorage(plugins.agent_dir / "auth.json")
        wanted = requested_model(self.options)
        model: Model | str | None = wanted
        if wanted is not None:
            model = choose_model(wanted, plugins.model_registry(auth), _anthropic_env())
        on_anthropic = wanted is not None and (
            isinstance(model, Model) or wanted.startswith("anthropic/")
        )
        session = await create_agent_session(
            cwd=self.cwd,
            model=model,
            plugin_manager=plugins,
            auth=auth,
            tools=tools,
            no_builtin_tools=True,  # Claude's tools replace pi's seven
            custom_tools=create_claude_tools(self.cwd),
            plugins=[self.compat, self.bridge, self.thinking_budget],
            session=manager,
            api_key=anthropic_key() if on_anthropic else None,  # never another provider's key
        )
        self.session = session
        session.set_active_tools(
            offered_tools(session.get_active_tool_names(), self.gate.policy.deny)
        )
        await self._point_anthropic_at_env()
        if self.options.max_thinking_tokens is not None:
            self.set_thinking_budget(self.options.max_thinking_tokens)
        if not self.options.no_session_persistence:
            self.transcript = TranscriptWriter(self.cwd, manager.session_id, CLAUDE_CODE_VERSION)
            if chosen.forked_from:
                self.transcript.fork_from(transcript_path(self.cwd, chosen.forked_from))
        return session

    async def _point_anthropic_at_env(self) -> None:
        """Honour ANTHROPIC_BASE_URL for the anthropic provider, as Claude Code does."""
        session = self.session_or_fail()
        base_url = os.environ.get("ANTHROPIC_BASE_URL")
        model = session.model
        anthropic = model is not None and model.provider == "anthropic"
        if base_url and model is not None and anthropic and model.base_url != base_url:
            await session.set_model(model.model_copy(update={"base_url": base_url}))

    async def set_model(self, name: str | None) -> str:
        """Switch models (`set_model`): `provider/id`, an id, or None/"default" for the default."""
        session = self.session_or_fail()
        options = ClaudeOptions(model=name if name and name != "default" else None)
        wanted = requested_model(options)
        if wanted is None:
            raise ValueError("no default model: pass a model name")
        chosen = choose_model(wanted, session.model_registry, _anthropic_env())
        if isinstance(chosen, str):
            chosen = session.model_registry.resolve(chosen).model
        await session.set_model(chosen)
        await self._point_anthropic_at_env()
        return name or "default"

    def set_thinking_budget(self, tokens: int) -> None:
        """`--max-thinking-tokens` / `set_max_thinking_tokens`: the budget; 0 turns thinking off."""
        session = self.session_or_fail()
        self.thinking_budget.tokens = tokens if tokens > 0 else None
        if tokens <= 0:
            session.set_thinking_level("off")
        elif session.thinking_level == "off":
            session.set_thinking_level("medium")

    def init_message(self) -> dict[str, Any]:
        """The `system/init` line sent at the start of every turn."""
        session = self.session_or_fail()
        model = session.model
        return {
            "type": "system",
            "subtype": "init",
            "cwd": self.cwd,
            "session_id": self.state.session_id,
            "tools": session.get_active_tool_names(),
            "mcp_servers": [],
            "model": f"{model.provider}/{model.id}" if model else "",
            "permissionMode": self.gate.policy.mode,
            "slash_commands": [],
            "apiKeySource": "ANTHROPIC_API_KEY" if anthropic_key() else "none",
            "claude_code_version": CLAUDE_CODE_VERSION,
            "output_style": "default",
            "agents": [],
            "skills": [],
            "plugins": [],
            "uuid": new_uuid(),
        }

    def session_state(self, state: str) -> None:
        """`system/session_state_changed`, for SDKs that ask for it (they swallow it)."""
        if self.reads_session_state:
            self.emit(
                {
                    "type": "system",
                    "subtype": "session_state_changed",
                    "state": state,
                    "session_id": self.state.session_id,
                    "uuid": new_uuid(),
                    "sdk_host_only": True,
                }
            )

    async def run_prompt(self, content: Any) -> dict[str, Any]:
        """Run one user message to its end; emit its lines; return (and emit) its result."""
        session = await self.start()
        started = time.monotonic()
        self.state.interrupt_requested = False
        denials_before = len(self.gate.denials)
        recorder = TurnRecorder(self)
        if self.transcript is not None:
            self.transcript.begin_prompt(self.gate.policy.mode)
        text, images = split_content(content)
        self.running = True
        self.session_state("running")
        unsubscribe = session.subscribe(recorder)
        try:
            self.emit(self.init_message())
            await session.prompt(text, images=images or None, source="rpc")
            if self._can_fall_back(recorder):
                await self._retry_on_fallback(session, recorder)
        finally:
            unsubscribe()
            self.running = False
        result = self._result(recorder, started, denials_before)
        self.emit(result)
        self.session_state("idle")
        return result

    def _can_fall_back(self, recorder: TurnRecorder) -> bool:
        last = recorder.assistants[-1] if recorder.assistants else None
        interrupted = self.state.interrupt_requested or recorder.max_turns_hit
        trigger = fallback_trigger(last)
        return bool(self.options.fallback_model) and not interrupted and trigger is not None

    async def _retry_on_fallback(self, session: AgentSession, recorder: TurnRecorder) -> None:
        """The model is overloaded or unavailable: switch to --fallback-model, run the turn again.

        As in Claude Code, the switch lasts for the rest of the session; pi's own retries (the
        `retry` settings) have already run on the main model.
        """
        fallback = self.options.fallback_model or ""
        trigger = fallback_trigger(recorder.assistants[-1]) or "server_error"
        original = session.model
        original_name = f"{original.provider}/{original.id}" if original else ""
        self.options.fallback_model = None  # one switch: a failing fallback ends the turn
        try:
            await self.set_model(fallback)
        except Exception as error:  # an unknown model: the turn ends with the original error
            print(
                f"pi-claude: cannot switch to --fallback-model {fallback}: {error}", file=sys.stderr
            )
            return
        chosen = session.model
        fallback_name = f"{chosen.provider}/{chosen.id}" if chosen else fallback
        line = model_fallback_line(trigger, original_name, fallback_name, self.state.session_id)
        if self.options.output_format == "stream-json":
            self.emit(line)
        else:
            print(f"pi-claude: {line['content']}", file=sys.stderr, flush=True)
        session.drop_trailing_error()
        await session.agent.continue_()
        await session.settle()

    def _result(
        self, recorder: TurnRecorder, started: float, denials_before: int
    ) -> dict[str, Any]:
        elapsed = int((time.monotonic() - started) * 1000)
        assistants = recorder.assistants
        last = assistants[-1] if assistants else None
        subtype = "success"
        is_error = False
        text = ""
        extra: dict[str, Any] = {}
        if last is not None:
            text = "".join(b.text for b in last.content if isinstance(b, TextContent))
        if recorder.max_turns_hit:
            subtype, is_error = "error_max_turns", True
        elif self.state.interrupt_requested or (last is not None and last.stop_reason == "aborted"):
            self.emit(user_text_line("[Request interrupted by user]", self.state.session_id))
            subtype, is_error = "error_during_execution", True
            extra["terminal_reason"] = "aborted_streaming"
        elif last is not None and last.stop_reason == "error":
            text = f"API Error: {last.error_message or 'request failed'}"
            self.emit(error_assistant_line(text, self.state.session_id))
            is_error = True
            self.exit_code = 1
            status = (last.error_message or "").split(" ", 1)[0]
            if status.isdigit():
                extra["api_error_status"] = int(status)
        completed = [m for m in assistants if m.stop_reason not in ("error", "aborted")]
        usage = {
            "input_tokens": sum(m.usage.input for m in assistants),
            "output_tokens": sum(m.usage.output for m in assistants),
            "cache_creation_input_tokens": sum(m.usage.cache_write for m in assistants),
            "cache_read_input_tokens": sum(m.usage.cache_read for m in assistants),
        }
        return {
            "type": "result",
            "subtype": subtype,
            "is_error": is_error,
            "duration_ms": elapsed,
            "duration_api_ms": elapsed,
            "num_turns": len(completed),  # 0 when a UserPromptSubmit hook dropped the prompt
            "result": text,
            "stop_reason": STOP_REASONS.get(last.stop_reason) if last is not None else None,
            "session_id": self.state.session_id,
            "total_cost_usd": sum(m.usage.cost.total for m in assistants),
            "usage": usage,
            "modelUsage": {},
            "permission_denials": [
                {"tool_name": d.tool_name, "tool_use_id": d.tool_use_id, "tool_input": d.tool_input}
                for d in self.gate.denials[denials_before:]
            ],
            "uuid": new_uuid(),
            **extra,
        }

    async def close(self) -> None:
        """End the session (SessionEnd hooks run), flushing what pi persists."""
        if self.session is not None:
            await self.session.shutdown()


def split_content(content: Any) -> tuple[str, list[Any]]:
    """A host's `message.content` (a string or Anthropic blocks) as pi's text and images."""
    if isinstance(content, str):
        return content, []
    texts: list[str] = []
    images: list[Any] = []
    for block in content if isinstance(content, list) else []:
        if not isinstance(block, dict):
            continue
        if block.get("type") == "text":
            texts.append(str(block.get("text", "")))
        elif block.get("type") == "image":
            source = block.get("source") or {}
            if source.get("type") == "base64":
                images.append(
                    ImageContent(
                        data=source.get("data", ""), mime_type=source.get("media_type", "")
                    )
                )
    return "\n".join(texts), images
