"""Calling hook impls with pi's semantics: sync and async impls, errors isolated and reported."""

from __future__ import annotations

import asyncio
import inspect
import logging
import os
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

import pluggy
from pydantic import BaseModel, ConfigDict, TypeAdapter

from pi_core import deep
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
T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)
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


class Reducer(Protocol[T_co]):
    """One hook semantics: the event each impl sees, what a result does, what a failure does."""

    def event(self) -> Any:
        """The event for the next impl (a chain builds it from what the last impl produced)."""
        ...

    def accept(self, raw: Any, impl: pluggy.HookImpl) -> bool:
        """Take an impl's non-None result; return True to stop the walk."""
        ...

    def failed(self, impl: pluggy.HookImpl, error: BaseException) -> bool:
        """An impl raised (already reported); return True to stop the walk."""
        ...

    def result(self) -> T_co:
        """What the walk produced."""
        ...


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
        trace = os.environ.get("PI_TRACE_PLUGINS", "")
        self._trace_to = trace if trace not in ("", "0") else None

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
        """Return whether any plugin implements `hook` (cheap: asked once per streamed delta)."""
        for impl in getattr(self._pm.hook, hook).get_hookimpls():
            if not (impl.wrapper or impl.hookwrapper):
                return True
        return False

    async def _call(self, impl: pluggy.HookImpl, event: Any) -> Any:
        args = [event if name == "event" else self.ctx for name in impl.argnames]
        result = impl.function(*args)
        if inspect.isawaitable(result):
            result = await result
        return result

    async def _traced_call(self, hook: str, impl: pluggy.HookImpl, event: Any) -> Any:
        """`_call`, logging the hook, plugin, duration and result (PI_TRACE_PLUGINS is set)."""
        started = time.perf_counter()
        try:
            result = await self._call(impl, event)
        except BaseException as error:
            self._trace(hook, impl.plugin_name, started, f"raised {error!r}")
            raise
        self._trace(hook, impl.plugin_name, started, f"returned {result!r}")
        return result

    def _trace(self, hook: str, plugin: str, started: float, outcome: str) -> None:
        """Write one trace line to stderr (PI_TRACE_PLUGINS=1) or append it to the named file."""
        assert self._trace_to is not None
        elapsed_ms = (time.perf_counter() - started) * 1000
        if len(outcome) > 300:
            outcome = outcome[:297] + "..."
        line = f"pi trace: {hook} {plugin} {elapsed_ms:.3f} ms {outcome}\n"
        if self._trace_to == "1":
            sys.stderr.write(line)
        else:
            with open(self._trace_to, "a", encoding="utf-8") as log:
                log.write(line)

    async def walk(self, hook: str, reducer: Reducer[T]) -> T:
        """The one dispatch loop: call each impl in order, skip None, let `reducer` decide.

        An impl's exception is reported and handed to the reducer, never raised: not even
        SystemExit, KeyboardInterrupt or a CancelledError the impl raised itself. A cancellation
        of the walking task (an abort) still propagates.
        """
        traced = self._trace_to is not None
        for impl in self.impls(hook):
            try:
                if traced:
                    raw = await self._traced_call(hook, impl, reducer.event())
                else:
                    raw = await self._call(impl, reducer.event())
                if raw is not None and reducer.accept(raw, impl):
                    break
            except (Exception, SystemExit, KeyboardInterrupt, asyncio.CancelledError) as error:
                if isinstance(error, asyncio.CancelledError) and _being_cancelled():
                    raise
                self.report(impl, hook, error)
                if reducer.failed(impl, error):
                    break
        return reducer.result()

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

    # --- semantics ------------------------------------------------------------------------

    async def notify(self, hook: str, event: Any) -> None:
        """Notify: run every impl, ignore results, report and skip past exceptions."""
        if self.has_impls(hook):
            await self.walk(hook, _Notify(event))

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
        return await self.walk(hook, _Cancel(event, result_model))

    async def tool_call(self, event: ToolCallEvent) -> ToolCallResult | None:
        """Block: the first block=True wins; an impl that raises or answers nonsense blocks too."""
        return await self.walk("tool_call", _Block(event))

    async def context(self, messages: list[AgentMessage]) -> list[AgentMessage]:
        """Chain: each impl may replace the message list; impls see a deep copy of it."""
        return await self.walk("context", _ContextChain(messages))

    async def tool_result(self, event: ToolResultEvent) -> ToolResultPatch | None:
        """Chain: impls patch content, details, is_error in turn; returns the final patch if any."""
        return await self.walk("tool_result", _ToolResultChain(event))

    async def input(
        self, text: str, images: list[ImageContent] | None, source: str
    ) -> InputContinue | InputTransform | InputHandled:
        """Chain: transforms apply in turn; `handled` stops the walk."""
        return await self.walk("input", _InputChain(text, images, source))

    async def before_agent_start(
        self,
        prompt: str,
        images: list[ImageContent] | None,
        system_prompt: str,
        system_prompt_options: dict[str, Any] | None = None,
    ) -> BeforeAgentStartOutcome | None:
        """Chain: the system prompt passes through every impl; injected messages are collected."""
        chain = _BeforeAgentStartChain(prompt, images, system_prompt, system_prompt_options or {})
        return await self.walk("before_agent_start", chain)

    async def before_provider_request(self, payload: Any) -> Any:
        """Chain: each impl may return a replacement payload."""
        return await self.walk("before_provider_request", _PayloadChain(payload))

    async def message_end(self, message: AgentMessage) -> AgentMessage:
        """Chain: each impl may replace the final message, keeping its role."""
        return await self.walk("message_end", _MessageEndChain(message))

    async def user_bash(self, event: UserBashEvent) -> UserBashResult | None:
        """First: the first non-None result wins."""
        return await self.walk("user_bash", _UserBashFirst(event, UserBashResult))

    async def resources_discover(self, cwd: str, reason: str) -> DiscoveredResources:
        """Aggregate: merge every impl's paths, each tagged with its plugin."""
        event = ResourcesDiscoverEvent(cwd=cwd, reason=reason)
        return await self.walk("resources_discover", _DiscoverAggregate(event))


def _being_cancelled() -> bool:
    """Whether the current task was asked to cancel (as opposed to an impl raising it itself)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


def _coerce(result: Any, model: type[R]) -> R:
    if isinstance(result, model):
        return result
    if isinstance(result, dict):
        return model.model_validate(result)
    raise TypeError(f"expected {model.__name__} or a dict, got {_kind(result)}")


def _check_flag(result: Any, name: str) -> None:
    """Refuse a dict whose `cancel` / `block` is not a bool (pydantic would read "no" as False
    and "yes" as True): a wrong type is reported, never guessed."""
    if isinstance(result, dict) and name in result and not isinstance(result[name], bool):
        raise TypeError(f"expected `{name}` to be true or false, got {_kind(result[name])}")


def _kind(value: Any) -> str:
    """A wrong result's type, as an error message names it."""
    return type(value).__name__


# --- the reducers: one small class per semantics ----------------------------------------------


class _Walk(Generic[T]):
    """Defaults: the same event for every impl, and a failure skips to the next impl."""

    def __init__(self, event: Any) -> None:
        self._event = event

    def event(self) -> Any:
        return self._event

    def failed(self, impl: pluggy.HookImpl, error: BaseException) -> bool:
        return False


class _Notify(_Walk[None]):
    def accept(self, raw: Any, impl: pluggy.HookImpl) -> bool:
        return False

    def result(self) -> None:
        return None


class _Cancel(_Walk[R | None]):
    def __init__(self, event: Any, model: type[R]) -> None:
        super().__init__(event)
        self._model = model
        self._last: R | None = None
        self._shows_earlier = "earlier_result" in getattr(type(event), "model_fields", {})

    def event(self) -> Any:
        if self._shows_earlier:
            self._event.earlier_result = self._last
        return self._event

    def accept(self, raw: Any, impl: pluggy.HookImpl) -> bool:
        _check_flag(raw, "cancel")
        self._last = _coerce(raw, self._model)
        return bool(getattr(self._last, "cancel", False))

    def result(self) -> R | None:
        return self._last


class _Block(_Cancel[ToolCallResult]):
    """Fail closed: an impl that raises or answers nonsense blocks the tool."""

    def __init__(self, event: ToolCallEvent) -> None:
        super().__init__(event, ToolCallResult)

    def accept(self, raw: Any, impl: pluggy.HookImpl) -> bool:
        _check_flag(raw, "block")
        self._last = _coerce(raw, ToolCallResult)
        return self._last.block

    def failed(self, impl: pluggy.HookImpl, error: BaseException) -> bool:
        self._last = ToolCallResult(
            block=True,
            reason=f"Tool call blocked: plugin {impl.plugin_name!r} failed in tool_call "
            f"({type(error).__name__}: {error})",
        )
        return True


class _First(_Cancel[R]):
    def accept(self, raw: Any, impl: pluggy.HookImpl) -> bool:
        self._last = _coerce(raw, self._model)
        return True


class _UserBashFirst(_First[UserBashResult]):
    """A result must carry the finished command: `operations` alone runs nothing here."""

    def accept(self, raw: Any, impl: pluggy.HookImpl) -> bool:
        result = _coerce(raw, UserBashResult)
        if result.result is None:
            raise TypeError(
                "expected a UserBashResult with `result` (the finished command) or None"
            )
        self._last = result
        return True


class _ContextChain(_Walk[list[AgentMessage]]):
    def __init__(self, messages: list[AgentMessage]) -> None:
        super().__init__(None)
        self._current = deep.deepcopy(messages)  # each impl edits its own copy

    def event(self) -> Any:
        return ContextEvent.model_construct(messages=self._current)

    def accept(self, raw: Any, impl: pluggy.HookImpl) -> bool:
        result = _coerce(raw, ContextResult)
        if result.messages is not None:
            self._current = result.messages
        return False

    def result(self) -> list[AgentMessage]:
        return self._current


class _ToolResultChain(_Walk[ToolResultPatch | None]):
    """Patches apply to the event itself, so each impl sees the previous one's result."""

    def __init__(self, event: ToolResultEvent) -> None:
        super().__init__(event)
        self._modified = False

    def accept(self, raw: Any, impl: pluggy.HookImpl) -> bool:
        patch = _coerce(raw, ToolResultPatch)
        event = self._event
        for name in ("content", "details", "is_error"):
            if name in patch.model_fields_set and (
                name == "details" or getattr(patch, name) is not None
            ):
                setattr(event, name, getattr(patch, name))
                self._modified = True
        return False

    def result(self) -> ToolResultPatch | None:
        if not self._modified:
            return None
        event = self._event
        return ToolResultPatch(
            content=event.content, details=event.details, is_error=event.is_error
        )


class _InputChain(_Walk[InputContinue | InputTransform | InputHandled]):
    def __init__(self, text: str, images: list[ImageContent] | None, source: str) -> None:
        super().__init__(None)
        self._text, self._images, self._source = text, images, source
        self._changed = False
        self._handled: InputHandled | None = None

    def event(self) -> Any:
        return InputEvent(text=self._text, images=self._images, source=self._source)

    def accept(self, raw: Any, impl: pluggy.HookImpl) -> bool:
        result = raw if isinstance(raw, BaseModel) else _input_result.validate_python(raw)
        if isinstance(result, InputHandled):
            self._handled = result
            return True
        if isinstance(result, InputTransform):
            self._text = result.text
            if result.images is not None:
                self._images = result.images
            self._changed = True
        return False

    def result(self) -> InputContinue | InputTransform | InputHandled:
        if self._handled is not None:
            return self._handled
        if self._changed:
            return InputTransform(text=self._text, images=self._images)
        return InputContinue()


class _BeforeAgentStartChain(_Walk[BeforeAgentStartOutcome | None]):
    def __init__(
        self,
        prompt: str,
        images: list[ImageContent] | None,
        system_prompt: str,
        options: dict[str, Any],
    ) -> None:
        super().__init__(None)
        self._prompt, self._images, self._options = prompt, images, options
        self._current = system_prompt
        self._outcome = BeforeAgentStartOutcome()

    def event(self) -> Any:
        return BeforeAgentStartEvent(
            prompt=self._prompt,
            images=self._images,
            system_prompt=self._current,
            system_prompt_options=self._options,
        )

    def accept(self, raw: Any, impl: pluggy.HookImpl) -> bool:
        result = _coerce(raw, BeforeAgentStartResult)
        if result.message is not None:
            self._outcome.messages.append(result.message)
        if result.system_prompt is not None:
            self._current = result.system_prompt
            self._outcome.system_prompt = self._current
        return False

    def result(self) -> BeforeAgentStartOutcome | None:
        outcome = self._outcome
        if not outcome.messages and outcome.system_prompt is None:
            return None
        return outcome


class _PayloadChain(_Walk[Any]):
    def __init__(self, payload: Any) -> None:
        super().__init__(None)
        self._current = payload

    def event(self) -> Any:
        return BeforeProviderRequestEvent(payload=self._current)

    def accept(self, raw: Any, impl: pluggy.HookImpl) -> bool:
        if isinstance(self._current, dict) and not isinstance(raw, dict):
            raise TypeError(f"expected a replacement payload (a dict) or None, got {_kind(raw)}")
        self._current = raw
        return False

    def result(self) -> Any:
        return self._current


class _MessageEndChain(_Walk[AgentMessage]):
    def __init__(self, message: AgentMessage) -> None:
        super().__init__(None)
        self._current = message

    def event(self) -> Any:
        return MessageEndEvent(message=self._current)

    def accept(self, raw: Any, impl: pluggy.HookImpl) -> bool:
        result = _coerce(raw, MessageEndResult)
        if result.message is None:
            return False
        if result.message.role != self._current.role:
            raise ValueError(
                f"message_end must keep the role {self._current.role!r}, "
                f"got {result.message.role!r}"
            )
        self._current = result.message
        return False

    def result(self) -> AgentMessage:
        return self._current


class _DiscoverAggregate(_Walk[DiscoveredResources]):
    def __init__(self, event: ResourcesDiscoverEvent) -> None:
        super().__init__(event)
        self._merged = DiscoveredResources()

    def accept(self, raw: Any, impl: pluggy.HookImpl) -> bool:
        result = _coerce(raw, ResourcesDiscoverResult)
        plugin, merged = impl.plugin_name, self._merged
        merged.skill_paths += [TaggedPath(p, plugin) for p in result.skill_paths]
        merged.prompt_paths += [TaggedPath(p, plugin) for p in result.prompt_paths]
        merged.theme_paths += [TaggedPath(p, plugin) for p in result.theme_paths]
        return False

    def result(self) -> DiscoveredResources:
        return self._merged


_CANCEL_RESULTS: dict[str, type[BaseModel]] = {
    "session_before_switch": SessionBeforeSwitchResult,
    "session_before_fork": SessionBeforeForkResult,
    "session_before_compact": SessionBeforeCompactResult,
    "session_before_tree": SessionBeforeTreeResult,
}
