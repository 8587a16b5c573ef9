"""Keep a tally of the messages started, by role."""

from collections import Counter

from pi_core import hookimpl
from pi_core.events import MessageStartEvent

started: Counter[str] = Counter()


@hookimpl
def message_start(event: MessageStartEvent) -> None:
    started[event.message.role] += 1
