"""Events the session adds to the agent's: queues, compaction, retries, name and thinking changes.

Subscribers (the SDK, the JSON and RPC modes) receive these beside the agent events, with pi's
`type` names and camelCase fields.
"""

from typing import Any, Literal

from pydantic import Field, SerializerFunctionWrapHandler, model_serializer

from pi_core.compaction.types import CompactionResult
from pi_core.messages.base import WireModel
from pi_core.model_defaults import empty_list

CompactionReason = Literal["manual", "threshold", "overflow"]


class SessionEvent(WireModel):
    """Base of the session's events: unset optional fields are left out, as pi leaves them."""

    @model_serializer(mode="wrap")
    def _drop_none(self, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(self)
        return {k: v for k, v in data.items() if v is not None} if isinstance(data, dict) else data


class QueueUpdateEvent(SessionEvent):
    """The steering and follow-up texts still waiting."""

    type: Literal["queue_update"] = "queue_update"
    steering: list[str] = Field(default_factory=empty_list)
    follow_up: list[str] = Field(default_factory=empty_list)


class CompactionStartEvent(SessionEvent):
    """A compaction began (by hand, over the threshold, or after a context overflow)."""

    type: Literal["compaction_start"] = "compaction_start"
    reason: CompactionReason


class CompactionEndEvent(SessionEvent):
    """A compaction finished, was cancelled, or failed (`error_message`)."""

    type: Literal["compaction_end"] = "compaction_end"
    reason: CompactionReason
    result: CompactionResult | None = None
    aborted: bool = False
    will_retry: bool = False
    error_message: str | None = None


class AutoRetryStartEvent(SessionEvent):
    """A retryable provider error: the next attempt starts after `delay_ms`."""

    type: Literal["auto_retry_start"] = "auto_retry_start"
    attempt: int
    max_attempts: int
    delay_ms: int
    error_message: str


class AutoRetryEndEvent(SessionEvent):
    """Retrying ended: an attempt succeeded, the attempts ran out, or the wait was cancelled."""

    type: Literal["auto_retry_end"] = "auto_retry_end"
    success: bool
    attempt: int
    final_error: str | None = None


class ThinkingLevelChangedEvent(SessionEvent):
    """The thinking level changed."""

    type: Literal["thinking_level_changed"] = "thinking_level_changed"
    level: str


class SessionInfoChangedEvent(SessionEvent):
    """The session's display name changed."""

    type: Literal["session_info_changed"] = "session_info_changed"
    name: str | None = None
