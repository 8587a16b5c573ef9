"""Count the tool calls that failed in each turn."""

from pi_core import hookimpl
from pi_core.events import TurnEndEvent

failures_per_turn: dict[int, int] = {}


@hookimpl
def turn_end(event: TurnEndEvent) -> None:
    failed = sum(1 for result in event.tool_results if result.is_error)
    failures_per_turn[event.turn_index] = failed
