"""Record each move in the session tree, e.g. to draw a history later."""

from pi_core import hookimpl
from pi_core.events import SessionTreeEvent

moves: list[tuple[str | None, str | None]] = []


@hookimpl
def session_tree(event: SessionTreeEvent) -> None:
    moves.append((event.old_leaf_id, event.new_leaf_id))
