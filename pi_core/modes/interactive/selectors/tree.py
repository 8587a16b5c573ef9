"""`/tree`: move within the session file's tree, optionally summarizing the branch left."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from prompt_toolkit.key_binding import KeyPressEvent

from pi_core.modes.interactive.dialogs import Dialog
from pi_core.modes.interactive.selectors.picker import Picker, ask_text, choose, run_dialog
from pi_core.modes.interactive.selectors.tree_rows import FILTERS, TreeState, flatten

if TYPE_CHECKING:
    from pi_core.modes.interactive.host import CommandHost

NO_SUMMARY = "No summary"
SUMMARIZE = "Summarize"
SUMMARIZE_CUSTOM = "Summarize with custom prompt"
TREE_HINT = (
    "type to search  ↑↓ move  pgup/pgdn page  enter go  escape cancel\n"
    "shift+l label  shift+t label times  alt+← fold / up  alt+→ unfold / down\n"
    "filters: ctrl+d default  ctrl+t no tools  ctrl+u user  ctrl+l labeled  ctrl+a all  "
    "ctrl+o cycle"
)


def _tree_state(app: CommandHost, mode: str) -> TreeState:
    manager = app.session.session_manager
    active = {entry.id for entry in manager.get_branch()}
    return TreeState(flatten(manager.get_tree(), active), manager.get_leaf_id(), mode)


def _filter_keys(app: CommandHost, picker: Picker, state: TreeState) -> None:
    keymap = app.keymap
    kb = picker.key_bindings

    def bind(action: str, handler: Any) -> None:
        for keys in keymap.prompt_toolkit_keys(action):
            kb.add(*keys, eager=True)(handler)

    def set_mode(mode: str, toggle: bool = True) -> Any:
        def handler(event: KeyPressEvent) -> None:
            keep = picker.current()
            state.mode = "default" if toggle and state.mode == mode else mode
            picker.title = _title(state)
            picker.refresh(keep.value if keep else None)

        return handler

    bind("app.tree.filter.default", set_mode("default", toggle=False))
    bind("app.tree.filter.noTools", set_mode("no-tools"))
    bind("app.tree.filter.userOnly", set_mode("user-only"))
    bind("app.tree.filter.labeledOnly", set_mode("labeled-only"))
    bind("app.tree.filter.all", set_mode("all"))

    def cycle(step: int) -> Any:
        def handler(event: KeyPressEvent) -> None:
            keep = picker.current()
            state.mode = FILTERS[(FILTERS.index(state.mode) + step) % len(FILTERS)]
            picker.title = _title(state)
            picker.refresh(keep.value if keep else None)

        return handler

    bind("app.tree.filter.cycleForward", cycle(1))
    bind("app.tree.filter.cycleBackward", cycle(-1))

    def fold(event: KeyPressEvent) -> None:
        row = picker.current()
        node = state.node(row.value) if row else None
        if node is None:
            return
        if node.children and node.node.entry.id not in state.folded:
            state.folded.add(node.node.entry.id)
            picker.refresh(node.node.entry.id)
        elif node.parent is not None:
            picker.refresh(node.parent)

    def unfold(event: KeyPressEvent) -> None:
        row = picker.current()
        if row is None:
            return
        if row.value in state.folded:
            state.folded.discard(row.value)
            picker.refresh(row.value)
        else:
            picker.move(1)

    bind("app.tree.foldOrUp", fold)
    bind("app.tree.unfoldOrDown", unfold)

    def label_times(event: KeyPressEvent) -> None:
        state.show_label_times = not state.show_label_times
        picker.refresh()

    bind("app.tree.toggleLabelTimestamp", label_times)

    def edit_label(event: KeyPressEvent) -> None:
        row = picker.current()
        if row is not None:
            picker.answer(("label", row.value))

    bind("app.tree.editLabel", edit_label)


def _title(state: TreeState) -> str:
    return "Session Tree" + ("" if state.mode == "default" else f" [{state.mode}]")


async def open_tree(app: CommandHost, args: str = "") -> None:
    """Show the tree; Enter navigates (asking about a summary), Shift+L edits a label."""
    manager = app.session.session_manager
    if not manager.get_entries():
        app.transcript.status("No entries in session", "yellow")
        return
    mode = str(app.session.settings.get_tree_filter_mode() or "default")
    state = _tree_state(app, mode if mode in FILTERS else "default")
    selected: str | None = state.leaf
    query = ""
    while True:
        picker = Picker("picker", "", source=state.rows, prefill=query)
        picker.title = _title(state)
        picker.hint = TREE_HINT
        _filter_keys(app, picker, state)
        picker.refresh(selected)
        answer = await run_dialog(app, picker)
        query = picker.query
        if answer is None:
            return
        if isinstance(answer, tuple):  # Shift+L on a row
            _, entry_id = answer
            selected = entry_id
            current = manager.get_label(entry_id) or ""
            text = await ask_text(app, "Label (empty to clear)", prefill=current)
            if text is not None:
                manager.append_label_change(entry_id, text.strip() or None)
                state = _tree_state(app, state.mode)
            continue
        if answer == state.leaf:
            app.transcript.status("Already at this point")
            return
        if await _navigate(app, answer):
            return
        selected = answer  # Esc in the summary prompt: back to the tree


async def _navigate(app: CommandHost, target: str) -> bool:
    """Ask about the summary and move; False when the user went back to the tree."""
    summarize = False
    custom: str | None = None
    if not app.session.settings.get_branch_summary_settings().skip_prompt:
        choice = await choose(app, "Summarize branch?", [NO_SUMMARY, SUMMARIZE, SUMMARIZE_CUSTOM])
        if choice is None:
            return False
        if choice == SUMMARIZE_CUSTOM:
            custom = await run_dialog(app, Dialog("editor", "Custom summarization instructions"))
            if custom is None:
                return False
        summarize = choice != NO_SUMMARY
    if summarize:
        app.state.working = "Summarizing branch... (escape to cancel)"
    try:
        result = await app.session.navigate_tree(
            target, summarize=summarize, custom_instructions=custom or None
        )
    finally:
        app.state.working = None
    if result.get("cancelled"):
        app.transcript.status("Navigation cancelled", "yellow")
        return True
    editor_text = result.get("editor_text")
    if editor_text:
        app.buffer.text = editor_text
        app.buffer.cursor_position = len(editor_text)
    _reprint(app)
    app.transcript.status("Navigated to selected point")
    return True


def _reprint(app: CommandHost) -> None:
    """Print the new branch's messages so the scrollback shows where the session is now."""
    width = app.columns()
    app.transcript.status("─── branch ───", "")
    for message in app.session.messages:
        app.transcript.message(message, width)
