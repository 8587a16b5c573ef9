"""Which menu entry is highlighted, and taking it with Enter or Tab (pi's editor rules).

The menu opens with an entry highlighted: the one whose text equals what was typed, else the
first that starts with it, else the first. Enter and Tab take the highlighted entry and close the
menu; after a `/command` name, Enter then runs the command.
"""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.buffer import Buffer, CompletionState
from prompt_toolkit.completion import CompleteEvent, Completion


def best_index(state: CompletionState) -> int | None:
    """The entry to highlight: an exact match, else the first prefix match, else the first."""
    if not state.completions:
        return None
    before = state.original_document.text_before_cursor
    first_prefix = None
    for index, completion in enumerate(state.completions):
        typed = before[len(before) + completion.start_position :]
        offered = completion.text.rstrip()
        if typed and offered == typed:
            return index
        if first_prefix is None and typed and offered.startswith(typed):
            first_prefix = index
    return first_prefix if first_prefix is not None else 0


def highlighter(active: Callable[[], bool]) -> Callable[[Buffer], None]:
    """An `on_completions_changed` handler that highlights the best entry while `active()`.

    The highlight only marks the entry; the editor's text stays as typed until it is taken.
    """

    def highlight(buffer: Buffer) -> None:
        state = buffer.complete_state
        if state is None or state.complete_index is not None or not active():
            return
        state.go_to_index(best_index(state))

    return highlight


def chosen(buffer: Buffer) -> Completion | None:
    """The entry Enter or Tab takes: the highlighted one, else the best one, else None."""
    state = buffer.complete_state
    if state is None or not state.completions:
        return None
    if state.current_completion is not None:
        return state.current_completion
    index = best_index(state)
    return None if index is None else state.completions[index]


def takes_command_name(buffer: Buffer) -> bool:
    """True when the menu completes a `/command` name (Enter then runs it)."""
    state = buffer.complete_state
    if state is None:
        return False
    before = state.original_document.text_before_cursor
    return before.startswith("/") and " " not in before and "\n" not in before


def command_typed_ahead(buffer: Buffer) -> Completion | None:
    """The entry the menu would highlight for a `/command` name whose menu is not open yet.

    The menu is filled in the background, so an Enter typed right after the name (keys replayed
    at start-up, a fast typist) can arrive first; it still takes the command.
    """
    document = buffer.document
    before = document.text_before_cursor
    in_name = before.startswith("/") and " " not in before and "\n" not in before
    if not in_name or buffer.completer is None or not buffer.complete_while_typing():
        return None
    event = CompleteEvent(text_inserted=True)
    state = CompletionState(document, list(buffer.completer.get_completions(document, event)))
    index = best_index(state)
    return None if index is None else state.completions[index]


def take(buffer: Buffer, completion: Completion) -> None:
    """Put the entry into the editor and close the menu without reopening it (one undo step)."""
    if buffer.complete_state is not None:
        buffer.go_to_completion(None)
    buffer.save_to_undo_stack()
    buffer.complete_state = None
    buffer.delete_before_cursor(-completion.start_position)
    buffer.insert_text(completion.text, fire_event=False)


def completing_context(before: str) -> bool:
    """Whether the text before the cursor asks for completions as one types: a `/` command
    name, or a word starting with `@` (files) or `#` (plugins' completers, as in pi)."""
    if before.startswith("/") and "\n" not in before:
        return True
    word = before.rsplit(None, 1)[-1] if before and not before[-1].isspace() else ""
    return word.startswith(("@", "#"))
