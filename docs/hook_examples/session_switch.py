"""Remember every session file that was left, for a `/back` command to offer later."""

from pi_core import hookimpl
from pi_core.events import SessionSwitchEvent

left_behind: list[str] = []


@hookimpl
def session_switch(event: SessionSwitchEvent) -> None:
    if event.previous_session_file is not None:
        left_behind.append(event.previous_session_file)
