"""The live progress line, and the error table's decisions."""

from __future__ import annotations

import io

import pytest
from pi_plugin_batch.child import ChildOutcome
from pi_plugin_batch.errors import Disposition, judge
from pi_plugin_batch.progress import Progress


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        """Yes."""
        return True


def _record(status: str = "ok") -> dict[str, object]:
    return {"final": True, "status": status, "error_class": None, "cost": 0.5, "wall_s": 1.0}


def test_the_live_line_shows_done_cost_eta_and_each_running_tool() -> None:
    stream = Terminal()
    progress = Progress(total=3, stream=stream)
    progress.started("a")
    progress.started("b")
    progress.finished("a", _record(), spent=0.5)
    progress.event("b", {"type": "tool_execution_start", "toolName": "bash"})
    last = stream.getvalue().rsplit("\r\x1b[K", 1)[-1]
    assert last.startswith("1/3 $0.5000 ETA ")
    assert "ETA ?" not in last and "b:bash" in last
    assert "1/3 a: ok $0.5000 1.0s\n" in stream.getvalue()


def test_without_a_terminal_only_finished_lines_are_printed() -> None:
    stream = io.StringIO()
    progress = Progress(total=2, stream=stream)
    progress.started("a")
    progress.event("a", {"type": "tool_execution_start", "toolName": "bash"})
    progress.finished("a", _record("idle_timeout"), spent=0.5)
    assert stream.getvalue() == "1/2 a: idle_timeout $0.5000 1.0s\n"


def _ended_with(error: str) -> ChildOutcome:
    message = {"role": "assistant", "stopReason": "error", "errorMessage": error}
    return ChildOutcome(exit_code=0, messages=[message], saw_agent_end=True)


@pytest.mark.parametrize(
    ("error", "status", "error_class", "disposition"),
    [
        ("503 overloaded", "error", "transient", Disposition.RETRY),
        ("429 rate limit reached", "error", "transient", Disposition.RETRY),
        ("401 invalid api key", "error", "auth", Disposition.STOP),
        ("400 This model's maximum context length is 8192 tokens", "context_overflow",
         "context_overflow", Disposition.FINAL),
        ("400 tool schema rejected", "agent_error", "agent", Disposition.FINAL),
    ],
)  # fmt: skip
def test_the_error_table(
    error: str, status: str, error_class: str, disposition: Disposition
) -> None:
    verdict = judge(_ended_with(error), budget_exceeded=False, stderr_tail="")
    assert (verdict.status, verdict.error_class, verdict.disposition) == (
        status, error_class, disposition,
    )  # fmt: skip


def test_a_child_that_died_before_its_turn_ended_is_retried() -> None:
    verdict = judge(ChildOutcome(exit_code=-9), budget_exceeded=False, stderr_tail="")
    assert (verdict.error_class, verdict.disposition) == ("infrastructure", Disposition.RETRY)
