"""Calling hook impls with pi's semantics: sync and async impls, errors isolated and reported."""

from __future__ import annotations

import inspect
import logging
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pluggy
from pydantic import BaseModel, ConfigDict, TypeAdapter

from pi_core.events import (
    BeforeAgentStartEvent,
    BeforeAgentStartOutcome,
    BeforeAgentStartResult,
    BeforeProviderRequestEvent,
    ContextEvent,
    ContextResult,
    InputContinue,
    InputEvent,
    InputHandled,
    InputResult,
    InputTransform,
    MessageEndEvent,
    MessageEndResult,
    ResourcesDiscoverEvent,
    ResourcesDiscoverResult,
    SessionBeforeCompactResult,
    SessionBeforeForkResult,
    SessionBeforeSwitchResult,
    SessionBeforeTreeResult,
    ToolCallEvent,
    ToolCallResult,
    ToolResultEvent,
    ToolResultPatch,
    UserBashEvent,
    UserBashResult,
)
from pi_core.hookspecs import EVENT_HOOKS
from pi_core.messages.agent import AgentMessage
from pi_core.messages.content import ImageContent
from pi_core.plugins.context import ExtensionContext
from pi_core.plugins.errors import HookError

logger = logging.getLogger("pi.plugins")

R = TypeVar("R", bound=BaseModel)
ErrorListener = Callable[[HookError], None]
_input_result: TypeAdapter[InputResult] = TypeAdapter(
    InputResult, config=ConfigDict(defer_build=True)
)


@dataclass(frozen=True)
class TaggedPath:
    """A resource path and the plugin that contributed it."""

    path: str
    plugin: str


@dataclass
class DiscoveredResources:
    """The merged result of resources_discover."""

    skill_paths: list[TaggedPath] = field(default_factory=list)
    prompt_paths: list[TaggedPath] = field(default_factory=list)
    theme_paths: list[TaggedPath] = field(default_factory=list)


class HookDispatcher:
    """Walks a hook's impls in pluggy's call order and applies that hook's semantics."""

    def __init__(
        self,
        pm: pluggy.PluginManager,
        ctx: ExtensionContext,
        describe_plugin: Callable[[str], str] = str,
    ) -> None:
        self._pm = pm
        self.ctx = ctx
        self._describe = describe_plugin
        self._listeners: list[ErrorListener] = []

    # --- plumbing -------------------------------------------------------------------------

    def on_error(self, listener: ErrorListener) -> Callable[[], None]:
        """Call `listener(HookError)` whenever an impl raises; returns an unsubscribe function."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def impls(self, hook: str) -> list[pluggy.HookImpl]:
        """Return a hook's impls in the order they run (tryfirst, newest plugin first, trylast)."""
        caller = getattr(self._pm.hook, hook)
        return [i for i in reversed(caller.get_hookimpls()) if not (i.wrapper or i.hookwrapper)]

    def has_impls(self, hook: str) -> bool:
        """Return whether any plugin implements `hook`."""
        return bool(self.impls(hook))

    async def _call(self, impl: pluggy.HookImpl, event: Any) -> Any:
        args = [event if name == "event" else self.ctx for name in impl.argnames]
        result = impl.function(*args)
        if inspect.isawaitable(result):
            result = await result
        return result

    def report(self, impl: pluggy.HookImpl, hook: str, error: BaseException) -> HookError:
        """Tell the error listeners that `impl` failed in `hook` (logged when nobody listens)."""
        return self.publish_error(impl.plugin_name, self._describe(impl.plugin_name), hook, error)

    def publish_error(
        self, plugin: str, source: str, event: str, error: BaseException
    ) -> HookError:
        """Build a HookError and hand it to every error listener."""
        record = HookError(
            plugin=plugin,
            source=source,
            event=event,
            error=f"{type(error).__name__}: {error}",
            traceback="".join(traceback.format_exception(error)),
        )
        if not self._listeners:
            logger.warning("plugin %s failed in %s: %s", plugin or "?", event, record.error)
        for listener in list(self._listeners):
            try:
                listener(record)
            except Exception:
                logger.exception("error listener failed")
        return record

    @staticmethod
    def _coerce(result: Any, model: type[R]) -> R:
        if isinstance(result, model):
            return result
        if isinstance(result, dict):
            return model.model_validate(result)
        raise TypeError(f"expected {model.__name__} or a dict, got {type(result).__name__}")

    # --- semantics ------------------------------------------------------------------------

    async def notify(self, hook: str, event: Any) -> None:
        """Notify: run every impl, ignore results, report and skip past exceptions."""
        for impl in self.impls(hook):
            try:
                await self._call(impl, event)
            except Exception as error:
                self.report(impl, hook, error)

    async def emit(self, event: Any) -> Any:
        """Dispatch a notify or cancel event by its `type`; returns a cancel hook's result."""
        hook = event.type
        semantics = EVENT_HOOKS[hook]
        if semantics == "notify":
            await self.notify(hook, event)
            return None
        if semantics == "cancel":
            result_model = _CANCEL_RESULTS[hook]
            return await self.cancel(hook, event, result_model)
        raise ValueError(f"{hook} is a {semantics} hook; use its own dispatch method")

    async def cancel(self, hook: str, event: Any, result_model: type[R]) -> R | None:
        """Cancel: stop at a result with cancel=True; else the last non-None result stands.

        An event with an `earlier_result` field sees, in each impl, the result standing so far.
        """
        last: R | None = None
        shows_earlier = "earlier_result" in type(event).model_fields
        for impl in self.impls(hook):
            if shows_earlier:
                event.earlier_result = last
            try:
                raw = await self._call(impl, event)
                if raw is None:
                    continue
                result = self._coerce(raw, result_model)
            except Exception as error:
                self.report(impl, hook, error)
                continue
            last = result
            if getattr(result, "cancel", False):
                return result
        return last

    async def tool_call(self, event: ToolCallEvent) -> ToolCallResult | None:
        """Block: the first block=True wins; an impl that raises or answers nonsense blocks too."""
        last: ToolCallResult | None = None
        for impl in self.impls("tool_call"):
            try:
                raw = await self._call(impl, event)
                if raw is None:
                    continue
                result = self._coerce(raw, ToolCallResult)
            except Exception as error:
                self.report(impl, "tool_call", error)
                return ToolCallResult(
                    block=True,
                    reason=f"Tool call blocked: plugin {impl.plugin_name!r} failed in tool_call "
                    f"({type(error).__name__}: {error})",
                )
            last = result
            if result.block:
                return result
        return last

    async def context(self, messages: list[AgentMessage]) -> list[AgentMessage]:
        """Chain: each impl may replace the message list; impls see a deep copy of it."""
        current = [message.model_copy(deep=True) for message in messages]
        for impl in self.impls("context"):
            try:
                raw = await self._call(impl, ContextEvent.model_construct(messages=current))
                if raw is None:
                    continue
                result = self._coerce(raw, ContextResult)
            except Exception as error:
                self.report(impl, "context", error)
                continue
            if result.messages is not None:
                current = result.messages
        return current

    async def tool_result(self, event: ToolResultEvent) -> ToolResultPatch | None:
        """Chain: impls patch content, details, is_error in turn; returns the final patch if any."""
        modified = False
        for impl in self.impls("tool_result"):
            try:
                raw = await self._call(impl, event)
                if raw is None:
                    continue
                patch = self._coerce(raw, ToolResultPatch)
            except Exception as error:
                self.report(impl, "tool_result", error)
                continue
            for name in ("content", "details", "is_error"):
                if name in patch.model_fields_set and (
                    name == "details" or getattr(patch, name) is not None
                ):
                    setattr(event, name, getattr(patch, name))
                    modified = True
        if not modified:
            return None
        return ToolResultPatch(
            content=event.content, details=event.details, is_error=event.is_error
        )

    async def input(
        self, text: str, images: list[ImageContent] | None, source: str
    ) -> InputContinue | InputTransform | InputHandled:
        """Chain: transforms apply in turn; `handled` stops the walk."""
        current_text, current_images, changed = text, images, False
        for impl in self.impls("input"):
            event = InputEvent(text=current_text, images=current_images, source=source)
            try:
                raw = await self._call(impl, event)
                if raw is None:
                    continue
                result = raw if isinstance(raw, BaseModel) else _input_result.validate_python(raw)
            except Exception as error:
                self.report(impl, "input", error)
                continue
            if isinstance(result, InputHandled):
                return result
            if isinstance(result, InputTransform):
                current_text = result.text
                if result.images is not None:
                    current_images = result.images
                changed = True
        if changed:
            return InputTransform(text=current_text, images=current_images)
        return InputContinue()

    async def before_agent_start(
        self,
        prompt: str,
        images: list[ImageContent] | None,
        system_prompt: str,
        system_prompt_options: dict[str, Any] | None = None,
    ) -> BeforeAgentStartOutcome | None:
        """Chain: the system prompt passes through every impl; injected messages are collected."""
        outcome = BeforeAgentStartOutcome()
        current = system_prompt
        for impl in self.impls("before_agent_start"):
            event = BeforeAgentStartEvent(
                prompt=prompt,
                images=images,
                system_prompt=current,
                system_prompt_options=system_prompt_options or {},
            )
            try:
                raw = await self._call(impl, event)
                if raw is None:
                    continue
                result = self._coerce(raw, BeforeAgentStartResult)
            except Exception as error:
                self.report(impl, "before_agent_start", error)
                continue
            if result.message is not None:
                outcome.messages.append(result.message)
            if result.system_prompt is not None:
                current = result.system_prompt
                outcome.system_prompt = current
        if not outcome.messages and outcome.system_prompt is None:
            return None
        return outcome

    async def before_provider_request(self, payload: Any) -> Any:
        """Chain: each impl may return a replacement payload."""
        current = payload
        for impl in self.impls("before_provider_request"):
            try:
                raw = await self._call(impl, BeforeProviderRequestEvent(payload=current))
            except Exception as error:
                self.report(impl, "before_provider_request", error)
                continue
            if raw is not None:
                current = raw
        return current

    async def message_end(self, message: AgentMessage) -> AgentMessage:
        """Chain: each impl may replace the final message, keeping its role."""
        current = message
        for impl in self.impls("message_end"):
            try:
                raw = await self._call(impl, MessageEndEvent(message=current))
                if raw is None:
                    continue
                result = self._coerce(raw, MessageEndResult)
                if result.message is None:
                    continue
                if result.message.role != current.role:
                    raise ValueError(
                        f"message_end must keep the role {current.role!r}, "
                        f"got {result.message.role!r}"
                    )
            except Exception as error:
                self.report(impl, "message_end", error)
                continue
            current = result.message
        return current

    async def user_bash(self, event: UserBashEvent) -> UserBashResult | None:
        """First: the first non-None result wins."""
        for impl in self.impls("user_bash"):
            try:
                raw = await self._call(impl, event)
                if raw is None:
                    continue
                return self._coerce(raw, UserBashResult)
            except Exception as error:
                self.report(impl, "user_bash", error)
        return None

    async def resources_discover(self, cwd: str, reason: str) -> DiscoveredResources:
        """Aggregate: merge every impl's paths, each tagged with its plugin."""
        merged = DiscoveredResources()
        event = ResourcesDiscoverEvent(cwd=cwd, reason=reason)
        for impl in self.impls("resources_discover"):
            try:
                raw = await self._call(impl, event)
                if raw is None:
                    continue
                result = self._coerce(raw, ResourcesDiscoverResult)
            except Exception as error:
                self.report(impl, "resources_discover", error)
                continue
            plugin = impl.plugin_name
            merged.skill_paths += [TaggedPath(p, plugin) for p in result.skill_paths]
            merged.prompt_paths += [TaggedPath(p, plugin) for p in result.prompt_paths]
            merged.theme_paths += [TaggedPath(p, plugin) for p in result.theme_paths]
        return merged


_CANCEL_RESULTS: dict[str, type[BaseModel]] = {
    "session_before_switch": SessionBeforeSwitchResult,
    "session_before_fork": SessionBeforeForkResult,
    "session_before_compact": SessionBeforeCompactResult,
    "session_before_tree": SessionBeforeTreeResult,
}
