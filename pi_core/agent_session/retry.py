"""Automatic retries of retryable provider errors, with exponential backoff."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from pi_core.abort import AbortController
from pi_core.agent_session.session_events import AutoRetryEndEvent, AutoRetryStartEvent
from pi_core.ai.errors import classify_error, retry_after_ms
from pi_core.messages.llm import AssistantMessage
from pi_core.resources.settings.models import RetrySettings

Emit = Callable[[Any], None]


class RetryController:
    """Decides after each run whether to retry, waits (abortably), and tells subscribers.

    The failed attempt stays in the session file for history but leaves the agent's context, so
    the retry sends the same conversation again.
    """

    def __init__(self, get_settings: Callable[[], RetrySettings], emit: Emit) -> None:
        self._get_settings = get_settings
        self._emit = emit
        self.attempt = 0
        self._wait: AbortController | None = None
        self._idle = asyncio.Event()
        self._idle.set()

    @property
    def is_retrying(self) -> bool:
        """Return whether a retry is waiting or running."""
        return not self._idle.is_set()

    def is_retryable(self, message: AssistantMessage, context_window: int) -> bool:
        """Return whether the error is one a retry can fix (context overflow is not)."""
        if message.stop_reason != "error" or not message.error_message:
            return False
        return classify_error(message, context_window) == "retryable"

    def begin(self) -> None:
        """Mark a retry as in progress (before the run's end is processed)."""
        self._idle.clear()

    def succeeded(self) -> None:
        """An attempt answered without error: report success if we were retrying."""
        if self.attempt > 0:
            self._emit(_end(True, self.attempt))
            self.attempt = 0

    async def handle(self, message: AssistantMessage, drop_failed: Callable[[], None]) -> bool:
        """Wait before the next attempt; False when disabled, exhausted or cancelled."""
        settings = self._get_settings()
        if not settings.enabled:
            self.finish()
            return False
        self._idle.clear()
        self.attempt += 1
        if self.attempt > settings.max_retries:
            self._emit(_end(False, self.attempt - 1, message.error_message))
            self.attempt = 0
            self.finish()
            return False
        delay_ms = settings.base_delay_ms * 2 ** (self.attempt - 1)
        asked = retry_after_ms(message)  # the server's Retry-After, capped by maxRetryDelayMs
        if asked is not None:
            delay_ms = max(delay_ms, min(asked, settings.provider.max_retry_delay_ms))
        self._emit(
            AutoRetryStartEvent(
                attempt=self.attempt,
                max_attempts=settings.max_retries,
                delay_ms=delay_ms,
                error_message=message.error_message or "Unknown error",
            )
        )
        drop_failed()
        self._wait = AbortController()
        signal = self._wait.signal
        try:
            await asyncio.wait_for(signal.wait(), delay_ms / 1000)
        except TimeoutError:
            pass
        finally:
            self._wait = None
        if signal.aborted:
            attempt, self.attempt = self.attempt, 0
            self._emit(_end(False, attempt, "Retry cancelled"))
            self.finish()
            return False
        return True

    def cancel(self) -> None:
        """Cancel a waiting retry (abort does this)."""
        if self._wait is not None:
            self._wait.abort()
        self.finish()

    def finish(self) -> None:
        """No retry is pending any more."""
        self._idle.set()

    async def wait(self) -> None:
        """Wait until no retry is pending."""
        await self._idle.wait()


def _end(success: bool, attempt: int, error: str | None = None) -> AutoRetryEndEvent:
    return AutoRetryEndEvent(success=success, attempt=attempt, final_error=error)
