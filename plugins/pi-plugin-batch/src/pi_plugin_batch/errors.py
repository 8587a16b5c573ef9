"""The error table: what an attempt's ending means — a result, a retry, or a stopped batch."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from pi_plugin_batch.child import ChildOutcome


class Disposition(StrEnum):
    """What the driver does with an attempt that ended this way."""

    FINAL = "final"  # a valid result of the task, recorded as is
    RETRY = "retry"  # not the task's fault: run it again after a backoff
    STOP = "stop"  # no task can succeed (auth, unknown model): stop the batch


@dataclass(frozen=True)
class Verdict:
    """An attempt's status, error class and disposition."""

    status: str
    error_class: str | None
    disposition: Disposition
    message: str | None = None


# (error class, disposition, pattern over the provider's error message)
_PROVIDER_ERRORS: list[tuple[str, Disposition, re.Pattern[str]]] = [
    ("auth", Disposition.STOP,
     re.compile(r"^(401|403)\b|invalid.api.key|no api key|unauthori[sz]ed|authentication", re.I)),
    ("unknown_model", Disposition.STOP,
     re.compile(r"unknown model|model_not_found|model .* does not exist|^404\b.*model", re.I)),
    ("context_overflow", Disposition.FINAL,
     re.compile(r"context (length|window)|maximum context|too many tokens|prompt is too long"
               , re.I)),
    ("transient", Disposition.RETRY,
     re.compile(r"^(408|409|425|429|5\d\d)\b|overloaded|rate.limit|timed? ?out|connection|"
                r"ended before|temporarily", re.I)),
]  # fmt: skip

OK = Verdict("ok", None, Disposition.FINAL)


def judge(outcome: ChildOutcome, budget_exceeded: bool, stderr_tail: str) -> Verdict:
    """Sort an attempt's ending into the table."""
    if budget_exceeded:
        return Verdict("budget_exceeded", "budget", Disposition.FINAL)
    if outcome.killed_for is not None:
        return Verdict(outcome.killed_for, outcome.killed_for, Disposition.FINAL)
    last = _last_assistant(outcome)
    if not outcome.saw_agent_end or last is None:
        return _startup_failure(outcome, stderr_tail)
    if last.get("stopReason") == "error":
        return _provider_error(str(last.get("errorMessage") or ""))
    if last.get("stopReason") == "aborted":
        return Verdict("agent_error", "aborted", Disposition.FINAL, "the turn was aborted")
    return OK


def _provider_error(message: str) -> Verdict:
    if message.startswith("replay divergence"):  # a request --replay could not answer
        return Verdict("error", "replay_divergence", Disposition.FINAL, message)
    for error_class, disposition, pattern in _PROVIDER_ERRORS:
        if pattern.search(message):
            status = "context_overflow" if error_class == "context_overflow" else "error"
            return Verdict(status, error_class, disposition, message)
    return Verdict("agent_error", "agent", Disposition.FINAL, message)


def _startup_failure(outcome: ChildOutcome, stderr_tail: str) -> Verdict:
    """pi ended without finishing a turn: a bad model or key stops the batch, else infra."""
    line = stderr_tail.strip().splitlines()[-1] if stderr_tail.strip() else ""
    for error_class, disposition, pattern in _PROVIDER_ERRORS[:2]:
        if pattern.search(line):
            return Verdict("error", error_class, disposition, line)
    code = outcome.exit_code
    why = line or f"pi exited with status {code} before the turn ended"
    return Verdict("error", "infrastructure", Disposition.RETRY, why)


def _last_assistant(outcome: ChildOutcome) -> dict[str, Any] | None:
    found = [m for m in outcome.messages if m.get("role") == "assistant"]
    return found[-1] if found else None
