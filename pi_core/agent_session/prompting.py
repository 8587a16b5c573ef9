"""The prompt flow: a command runs first, then `input`, expansion, `before_agent_start`, the agent.

While the agent streams, a prompt must say whether it steers or follows up; plugins' messages
can also wait for the next turn.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from pi_core.agent.agent import Agent
from pi_core.agent_session.session_controls import SessionControls
from pi_core.agent_session.session_events import QueueUpdateEvent
from pi_core.agent_session.settling import RunSettling
from pi_core.agent_session.toolset import ToolSet
from pi_core.ai.guidance import prompt_no_model
from pi_core.ai.model_registry import ModelRegistry
from pi_core.events.agent import MessageEndEvent, MessageStartEvent
from pi_core.events.user import InputHandled, InputTransform
from pi_core.messages.agent import AgentMessage, CustomMessage
from pi_core.messages.content import ImageContent, TextContent
from pi_core.messages.llm import AssistantMessage, UserMessage, content_text
from pi_core.plugins.manager import PluginManager
from pi_core.resources.resource_loader import ResourceLoader
from pi_core.session.manager import SessionManager

BUSY = (
    "Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue "
    "the message."
)


class CommandNotQueueable(ValueError):
    """A plugin command cannot wait in a queue: it runs when given."""


class PromptFlow:
    """Turns what the user (or a plugin) typed into agent runs, queued messages or commands."""

    def __init__(
        self,
        *,
        agent: Agent,
        session_manager: SessionManager,
        plugins: PluginManager,
        model_registry: ModelRegistry,
        resources: ResourceLoader,
        tools: ToolSet,
        controls: SessionControls,
        base_system_prompt: Callable[[], str],
        flush_user_bash: Callable[[], None],
        check_compaction: Callable[[AssistantMessage, bool], Awaitable[None]],
        runs: RunSettling | None = None,
    ) -> None:
        self._agent = agent
        self._session_manager = session_manager
        self._plugins = plugins
        self._dispatcher = plugins.dispatcher
        self._model_registry = model_registry
        self._resources = resources
        self._tools = tools
        self._controls = controls
        self._base_system_prompt = base_system_prompt
        self._flush_user_bash = flush_user_bash
        self._check_compaction = check_compaction
        self._runs = runs or RunSettling()
        self.steering_texts: list[str] = []
        self.follow_up_texts: list[str] = []
        self.next_turn: list[AgentMessage] = []

    # --- the flow -------------------------------------------------------------------------

    async def prompt(
        self,
        text: str,
        *,
        images: list[Any] | None = None,
        streaming_behavior: str | None = None,
        expand_prompt_templates: bool = True,
        source: str = "interactive",
        on_accepted: Callable[[], None] | None = None,
    ) -> None:
        """Run a prompt through pi's stages (see the module docstring).

        `on_accepted` is called once the prompt ran as a command, was handled, queued, or is about
        to reach the agent; an exception before that means it was refused.
        """
        accepted = on_accepted or (lambda: None)
        if expand_prompt_templates and text.startswith("/") and await self._run_command(text):
            accepted()
            # A command's `send_user_message` or `compact` runs in the background: wait for it,
            # so `pi -p "/cmd"` prints the turn it started and the next prompt follows it.
            await self._controls.settle()
            return
        current_text, current_images = text, images
        if self._dispatcher.has_impls("input"):
            outcome = await self._dispatcher.input(current_text, current_images, source)
            if isinstance(outcome, InputHandled):
                accepted()
                return
            if isinstance(outcome, InputTransform):
                current_text = outcome.text
                current_images = outcome.images if outcome.images is not None else current_images
        expanded = self.expand(current_text) if expand_prompt_templates else current_text
        if self._agent.is_streaming:
            if streaming_behavior == "followUp":
                self._queue(expanded, current_images, follow_up=True)
            elif streaming_behavior == "steer":
                self._queue(expanded, current_images, follow_up=False)
            else:
                raise RuntimeError(BUSY)
            accepted()
            return
        self._flush_user_bash()
        model = self._agent.state.model
        if model is None:
            raise RuntimeError(prompt_no_model(self._plugins.agent_dir))
        await self._model_registry.auth.refresh_if_due(model.provider)
        self._model_registry.require_api_key(model)
        last = _last_assistant(self._agent.state.messages)
        if last is not None:
            await self._check_compaction(last, False)
        messages: list[AgentMessage] = [_user_message(expanded, current_images)]
        messages += self.next_turn
        self.next_turn = []
        outcome_bas = None
        if self._dispatcher.has_impls("before_agent_start"):
            outcome_bas = await self._dispatcher.before_agent_start(
                expanded,
                current_images,
                self._base_system_prompt(),
                self._resources.system_prompt_options(self._tools.active()).model_dump(),
            )
        if outcome_bas is not None:
            for injected in outcome_bas.messages:
                messages.append(
                    CustomMessage(
                        custom_type=injected.custom_type,
                        content=injected.content,
                        display=injected.display,
                        details=injected.details,
                    )
                )
        system_prompt = outcome_bas.system_prompt if outcome_bas is not None else None
        self._agent.state.system_prompt = system_prompt or self._base_system_prompt()
        accepted()
        async with self._runs.run():
            await self._agent.prompt(messages)
            await self._controls.settle()

    def expand(self, text: str) -> str:
        """Expand `/skill:name args` and `/template args` (other text is unchanged)."""
        resources = self._resources

        def on_error(skill: Any, message: str) -> None:
            self._dispatcher.publish_error(
                "", str(getattr(skill, "file_path", "")), "skill_expansion", RuntimeError(message)
            )

        return resources.expand_input(text, on_error)

    async def _run_command(self, text: str) -> bool:
        name, _, args = text[1:].partition(" ")
        command = self._plugins.registry.commands.get(name)
        if command is None:
            return False
        try:
            result = command.handler(args, self._plugins.command_ctx)
            if hasattr(result, "__await__"):
                await result
        except Exception as error:
            self._dispatcher.publish_error(command.plugin, f"command:{name}", "command", error)
        return True

    # --- queues ---------------------------------------------------------------------------

    async def steer(self, text: str, images: list[Any] | None = None) -> None:
        """Queue a steering message (expanded; plugin commands cannot be queued)."""
        self._refuse_command(text)
        self._queue(self.expand(text), images, follow_up=False)

    async def follow_up(self, text: str, images: list[Any] | None = None) -> None:
        """Queue a follow-up message (expanded; plugin commands cannot be queued)."""
        self._refuse_command(text)
        self._queue(self.expand(text), images, follow_up=True)

    def _refuse_command(self, text: str) -> None:
        if not text.startswith("/"):
            return
        name = text[1:].partition(" ")[0]
        if name in self._plugins.registry.commands:
            raise CommandNotQueueable(
                f'Extension command "/{name}" cannot be queued. Use prompt() or execute the '
                "command when not streaming."
            )

    def _queue(self, text: str, images: list[Any] | None, *, follow_up: bool) -> None:
        (self.follow_up_texts if follow_up else self.steering_texts).append(text)
        self.emit_queue_update()
        message = _user_message(text, images)
        if follow_up:
            self._agent.follow_up(message)
        else:
            self._agent.steer(message)

    def emit_queue_update(self) -> None:
        """Tell subscribers what waits in the queues."""
        self._controls.emit(
            QueueUpdateEvent(
                steering=list(self.steering_texts), follow_up=list(self.follow_up_texts)
            )
        )

    def dequeue_text(self, message: UserMessage) -> None:
        """A queued message reached the agent: take its text off the visible queue."""
        text = content_text(message.content)
        if not text:
            return
        for texts in (self.steering_texts, self.follow_up_texts):
            if text in texts:
                texts.remove(text)
                self.emit_queue_update()
                return

    def clear(self, notify: bool = True) -> dict[str, list[str]]:
        """Empty both queues and return their texts (to restore them to the editor)."""
        steering, follow_up = self.steering_texts, self.follow_up_texts
        self.steering_texts, self.follow_up_texts = [], []
        self._agent.clear_queues()
        if notify:
            self.emit_queue_update()
        return {"steering": steering, "followUp": follow_up}

    # --- plugins' messages ----------------------------------------------------------------

    async def send_custom_message(
        self, message: CustomMessage, *, deliver_as: str | None = None, trigger_turn: bool = False
    ) -> None:
        """Steer, follow up, wait for the next turn, start a turn, or just record the message."""
        if deliver_as == "nextTurn":
            self.next_turn.append(message)
        elif self._agent.is_streaming:
            if deliver_as == "followUp":
                self._agent.follow_up(message)
            else:
                self._agent.steer(message)
        elif trigger_turn:
            async with self._runs.run():
                await self._agent.prompt(message)
                await self._controls.settle()
        else:
            self._agent.state.messages.append(message)
            self._session_manager.append_custom_message_entry(
                message.custom_type, message.content, message.display, message.details
            )
            self._controls.emit(MessageStartEvent(message=message))
            self._controls.emit(MessageEndEvent(message=message))

    async def send_user_message(self, content: Any, *, deliver_as: str | None = None) -> None:
        """Prompt as the user would, without command handling or template expansion."""
        if isinstance(content, str):
            text, images = content, None
        else:
            text = "\n".join(b.text for b in content if isinstance(b, TextContent))
            images = [b for b in content if isinstance(b, ImageContent)] or None
        await self.prompt(
            text,
            images=images,
            streaming_behavior=deliver_as,
            expand_prompt_templates=False,
            source="extension",
        )


def _user_message(text: str, images: list[Any] | None) -> UserMessage:
    content: list[Any] = [TextContent(text=text)]
    content.extend(images or [])
    return UserMessage(content=content)


def _last_assistant(messages: list[AgentMessage]) -> AssistantMessage | None:
    for message in reversed(messages):
        if isinstance(message, AssistantMessage):
            return message
    return None
