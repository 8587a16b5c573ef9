"""`~/.pi/agent/keybindings.json`: pi's action ids, their default keys, the user's overrides.

The file maps an action id (`app.model.select`) to a key (`"ctrl+l"`) or a list of keys. Legacy
names (`selectModel`) are migrated as pi does; an unknown id or a key we cannot parse is reported
as a warning and ignored, so a bad file never stops the REPL.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from prompt_toolkit.key_binding import KeyBindings

_SUSPEND = [] if sys.platform == "win32" else ["ctrl+z"]
_PASTE_IMAGE = ["alt+v"] if sys.platform == "win32" else ["ctrl+v"]

# action id → (default keys, what it does)
ACTIONS: dict[str, tuple[list[str], str]] = {
    "tui.editor.cursorUp": (["up"], "cursor up"),
    "tui.editor.cursorDown": (["down"], "cursor down"),
    "tui.editor.cursorLeft": (["left", "ctrl+b"], "cursor left"),
    "tui.editor.cursorRight": (["right", "ctrl+f"], "cursor right"),
    "tui.editor.cursorWordLeft": (["alt+left", "ctrl+left", "alt+b"], "word left"),
    "tui.editor.cursorWordRight": (["alt+right", "ctrl+right", "alt+f"], "word right"),
    "tui.editor.cursorLineStart": (["home", "ctrl+a"], "start of line"),
    "tui.editor.cursorLineEnd": (["end", "ctrl+e"], "end of line"),
    "tui.editor.jumpForward": (["ctrl+]"], "jump to a character"),
    "tui.editor.jumpBackward": (["ctrl+alt+]"], "jump back to a character"),
    "tui.editor.pageUp": (["pageUp"], "page up"),
    "tui.editor.pageDown": (["pageDown"], "page down"),
    "tui.editor.deleteCharBackward": (["backspace"], "delete a character back"),
    "tui.editor.deleteCharForward": (["delete", "ctrl+d"], "delete a character forward"),
    "tui.editor.deleteWordBackward": (["ctrl+w", "alt+backspace"], "delete a word back"),
    "tui.editor.deleteWordForward": (["alt+d", "alt+delete"], "delete a word forward"),
    "tui.editor.deleteToLineStart": (["ctrl+u"], "delete to line start"),
    "tui.editor.deleteToLineEnd": (["ctrl+k"], "delete to line end"),
    "tui.editor.yank": (["ctrl+y"], "yank"),
    "tui.editor.yankPop": (["alt+y"], "yank the previous kill"),
    "tui.editor.undo": (["ctrl+-"], "undo"),
    "tui.input.newLine": (["shift+enter"], "new line"),
    "tui.input.submit": (["enter"], "send"),
    "tui.input.tab": (["tab"], "complete"),
    "tui.input.copy": (["ctrl+c"], "copy the selection"),
    "tui.select.up": (["up"], "selection up"),
    "tui.select.down": (["down"], "selection down"),
    "tui.select.pageUp": (["pageUp"], "selection page up"),
    "tui.select.pageDown": (["pageDown"], "selection page down"),
    "tui.select.confirm": (["enter"], "choose the selection"),
    "tui.select.cancel": (["escape", "ctrl+c"], "cancel the selection"),
    "app.interrupt": (["escape"], "abort / cancel"),
    "app.clear": (["ctrl+c"], "clear the editor (twice: exit)"),
    "app.exit": (["ctrl+d"], "exit when the editor is empty"),
    "app.suspend": (_SUSPEND, "suspend to the background"),
    "app.thinking.cycle": (["shift+tab"], "next thinking level"),
    "app.model.cycleForward": (["ctrl+p"], "next model"),
    "app.model.cycleBackward": (["shift+ctrl+p"], "previous model"),
    "app.model.select": (["ctrl+l"], "open the model selector"),
    "app.tools.expand": (["ctrl+o"], "expand / collapse tool output"),
    "app.thinking.toggle": (["ctrl+t"], "hide / show thinking blocks"),
    "app.session.toggleNamedFilter": (["ctrl+n"], "sessions: named ones only"),
    "app.editor.external": (["ctrl+g"], "edit in $VISUAL / $EDITOR"),
    "app.message.followUp": (["alt+enter"], "queue a follow-up message"),
    "app.message.dequeue": (["alt+up"], "pull queued messages back"),
    "app.clipboard.pasteImage": (_PASTE_IMAGE, "paste an image"),
    "app.session.new": ([], "start a new session"),
    "app.session.tree": ([], "open the session tree"),
    "app.session.fork": ([], "fork the session"),
    "app.session.resume": ([], "resume a session"),
    "app.tree.foldOrUp": (["ctrl+left", "alt+left"], "tree: fold or go up"),
    "app.tree.unfoldOrDown": (["ctrl+right", "alt+right"], "tree: unfold or go down"),
    "app.tree.editLabel": (["shift+l"], "tree: edit the label"),
    "app.tree.toggleLabelTimestamp": (["shift+t"], "tree: label times"),
    "app.session.togglePath": (["ctrl+p"], "sessions: show paths"),
    "app.session.toggleSort": (["ctrl+s"], "sessions: change the sort"),
    "app.session.rename": (["ctrl+r"], "sessions: rename"),
    "app.session.delete": (["ctrl+d"], "sessions: delete"),
    "app.session.deleteNoninvasive": (["ctrl+backspace"], "sessions: delete (empty query)"),
    "app.models.save": (["ctrl+s"], "scoped models: save"),
    "app.models.enableAll": (["ctrl+a"], "scoped models: enable all"),
    "app.models.clearAll": (["ctrl+x"], "scoped models: clear all"),
    "app.models.toggleProvider": (["ctrl+p"], "scoped models: toggle a provider"),
    "app.models.reorderUp": (["alt+up"], "scoped models: move up"),
    "app.models.reorderDown": (["alt+down"], "scoped models: move down"),
    "app.tree.filter.default": (["ctrl+d"], "tree filter: default"),
    "app.tree.filter.noTools": (["ctrl+t"], "tree filter: no tool results"),
    "app.tree.filter.userOnly": (["ctrl+u"], "tree filter: user messages"),
    "app.tree.filter.labeledOnly": (["ctrl+l"], "tree filter: labeled entries"),
    "app.tree.filter.all": (["ctrl+a"], "tree filter: everything"),
    "app.tree.filter.cycleForward": (["ctrl+o"], "tree filter: next"),
    "app.tree.filter.cycleBackward": (["shift+ctrl+o"], "tree filter: previous"),
}

# pi's pre-namespace names, migrated when read.
LEGACY_NAMES: dict[str, str] = {
    "cursorUp": "tui.editor.cursorUp", "cursorDown": "tui.editor.cursorDown",
    "cursorLeft": "tui.editor.cursorLeft", "cursorRight": "tui.editor.cursorRight",
    "cursorWordLeft": "tui.editor.cursorWordLeft",
    "cursorWordRight": "tui.editor.cursorWordRight",
    "cursorLineStart": "tui.editor.cursorLineStart",
    "cursorLineEnd": "tui.editor.cursorLineEnd", "jumpForward": "tui.editor.jumpForward",
    "jumpBackward": "tui.editor.jumpBackward", "pageUp": "tui.editor.pageUp",
    "pageDown": "tui.editor.pageDown", "deleteCharBackward": "tui.editor.deleteCharBackward",
    "deleteCharForward": "tui.editor.deleteCharForward",
    "deleteWordBackward": "tui.editor.deleteWordBackward",
    "deleteWordForward": "tui.editor.deleteWordForward",
    "deleteToLineStart": "tui.editor.deleteToLineStart",
    "deleteToLineEnd": "tui.editor.deleteToLineEnd", "yank": "tui.editor.yank",
    "yankPop": "tui.editor.yankPop", "undo": "tui.editor.undo", "newLine": "tui.input.newLine",
    "submit": "tui.input.submit", "tab": "tui.input.tab", "copy": "tui.input.copy",
    "selectUp": "tui.select.up", "selectDown": "tui.select.down",
    "selectPageUp": "tui.select.pageUp", "selectPageDown": "tui.select.pageDown",
    "selectConfirm": "tui.select.confirm", "selectCancel": "tui.select.cancel",
    "interrupt": "app.interrupt", "clear": "app.clear", "exit": "app.exit",
    "suspend": "app.suspend", "cycleThinkingLevel": "app.thinking.cycle",
    "cycleModelForward": "app.model.cycleForward",
    "cycleModelBackward": "app.model.cycleBackward", "selectModel": "app.model.select",
    "expandTools": "app.tools.expand", "toggleThinking": "app.thinking.toggle",
    "toggleSessionNamedFilter": "app.session.toggleNamedFilter",
    "externalEditor": "app.editor.external", "followUp": "app.message.followUp",
    "dequeue": "app.message.dequeue", "pasteImage": "app.clipboard.pasteImage",
    "newSession": "app.session.new", "tree": "app.session.tree", "fork": "app.session.fork",
    "resume": "app.session.resume", "treeFoldOrUp": "app.tree.foldOrUp",
    "treeUnfoldOrDown": "app.tree.unfoldOrDown", "treeEditLabel": "app.tree.editLabel",
    "treeToggleLabelTimestamp": "app.tree.toggleLabelTimestamp",
    "toggleSessionPath": "app.session.togglePath",
    "toggleSessionSort": "app.session.toggleSort", "renameSession": "app.session.rename",
    "deleteSession": "app.session.delete",
    "deleteSessionNoninvasive": "app.session.deleteNoninvasive",
}  # fmt: skip


@dataclass
class Keymap:
    """The keys in effect for every action, and the warnings found reading the file."""

    overrides: dict[str, list[str]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def keys(self, action: str) -> list[str]:
        """The keys bound to an action (the user's, else pi's defaults)."""
        if action in self.overrides:
            return self.overrides[action]
        return list(ACTIONS[action][0])

    def prompt_toolkit_keys(self, action: str) -> list[tuple[str, ...]]:
        """The action's keys as prompt_toolkit key tuples (unparseable ones left out)."""
        parsed = [parse_key(key) for key in self.keys(action)]
        return [keys for keys in parsed if keys is not None]


def keybindings_path(agent_dir: Path) -> Path:
    """Where the user's key bindings live."""
    return agent_dir / "keybindings.json"


def load_keymap(path: Path) -> Keymap:
    """Read keybindings.json; a missing file means the defaults, a bad one a warning."""
    keymap = Keymap()
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return keymap
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        keymap.warnings.append(f"{path}: ignored, cannot read it: {error}")
        return keymap
    if not isinstance(raw, dict):
        keymap.warnings.append(f"{path}: ignored, it must be a JSON object")
        return keymap
    for name, value in raw.items():
        action = LEGACY_NAMES.get(name, name)
        if action != name and action in raw:
            continue  # the new name wins over its legacy spelling
        if action not in ACTIONS:
            keymap.warnings.append(f"{path}: unknown action {name!r} ignored")
            continue
        keys = [value] if isinstance(value, str) else value
        if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
            keymap.warnings.append(f"{path}: {name}: expected a key or a list of keys")
            continue
        good = []
        for key in keys:
            if parse_key(key) is not None:
                good.append(key)
            else:
                keymap.warnings.append(f"{path}: {name}: key {key!r} not understood, ignored")
        keymap.overrides[action] = good
    return keymap


def parse_key(key: str) -> tuple[str, ...] | None:
    """pi's key syntax as prompt_toolkit keys; None when prompt_toolkit has no such key."""
    from prompt_toolkit.key_binding import KeyBindings

    from pi_core.modes.interactive.keys import to_prompt_toolkit_keys

    try:
        keys = to_prompt_toolkit_keys(key)
        KeyBindings().add(*keys)(_ignore)
    except ValueError:
        return None
    return keys


def _ignore(event: Any) -> None:
    return None


def hotkey_rows(keymap: Keymap) -> list[tuple[str, str, str]]:
    """(keys, action id, description) for every action that has a key, in pi's order."""
    rows = []
    for action, (_defaults, description) in ACTIONS.items():
        keys = keymap.keys(action)
        if keys:
            rows.append((", ".join(keys), action, description))
    return rows


class Rebindable(Protocol):
    """The app actions a user may move to other keys."""

    def cycle_thinking(self) -> None:
        """Shift+Tab."""

    def cycle_model(self, backward: bool) -> None:
        """Ctrl+P."""

    def run_command(self, name: str, args: str) -> None:
        """Run a built-in slash command as if typed."""

    def toggle_expanded(self) -> None:
        """Ctrl+O."""

    def toggle_thinking(self) -> None:
        """Ctrl+T."""

    def external_editor(self) -> None:
        """Ctrl+G."""

    def dequeue(self) -> None:
        """Alt+Up."""

    def paste_image(self) -> None:
        """Ctrl+V."""


# The app actions a user may move to other keys: action id → what it calls on the app.
REBINDABLE: dict[str, Callable[[Rebindable], Any]] = {
    "app.thinking.cycle": lambda app: app.cycle_thinking(),
    "app.model.cycleForward": lambda app: app.cycle_model(backward=False),
    "app.model.cycleBackward": lambda app: app.cycle_model(backward=True),
    "app.model.select": lambda app: app.run_command("model", ""),
    "app.tools.expand": lambda app: app.toggle_expanded(),
    "app.thinking.toggle": lambda app: app.toggle_thinking(),
    "app.editor.external": lambda app: app.external_editor(),
    "app.message.dequeue": lambda app: app.dequeue(),
    "app.clipboard.pasteImage": lambda app: app.paste_image(),
    "app.session.new": lambda app: app.run_command("new", ""),
    "app.session.tree": lambda app: app.run_command("tree", ""),
    "app.session.fork": lambda app: app.run_command("fork", ""),
    "app.session.resume": lambda app: app.run_command("resume", ""),
}
# Keys the core key table (keys.py) binds itself; rebinding them removes these defaults there.
CORE_DEFAULTS = ("app.thinking.cycle", "app.model.cycleForward", "app.model.cycleBackward",
                 "app.tools.expand", "app.thinking.toggle", "app.editor.external",
                 "app.message.dequeue")  # fmt: skip


def apply_keymap(kb: KeyBindings, app: Rebindable, keymap: Keymap, editing: Any) -> None:
    """Add the rebindable actions' keys to `kb` (the user's keys replace the defaults)."""
    for action, run in REBINDABLE.items():
        if action in CORE_DEFAULTS and action not in keymap.overrides:
            continue  # keys.py binds the default already
        if action in CORE_DEFAULTS:
            for default in ACTIONS[action][0]:
                parsed = parse_key(default)
                if parsed is not None:
                    with contextlib.suppress(ValueError):
                        kb.remove(*parsed)
        for keys in keymap.prompt_toolkit_keys(action):
            kb.add(*keys, filter=editing)(_runner(app, run))


def _runner(app: Rebindable, run: Callable[[Rebindable], Any]) -> Callable[[Any], None]:
    def handler(event: Any) -> None:
        run(app)

    return handler


def install_keymap(
    kb: KeyBindings,
    app: Rebindable,
    agent_dir: Path,
    dialog_open: Callable[[], bool],
    warn: Callable[[str], None],
) -> Keymap:
    """(Re)read keybindings.json, report its problems, bind the rebindable actions on `kb`
    (while no dialog is open) and return the keymap read."""
    from prompt_toolkit.filters import Condition, is_searching

    keymap = load_keymap(keybindings_path(agent_dir))
    for warning in keymap.warnings:
        warn(warning)
    editing = ~Condition(dialog_open) & ~is_searching
    apply_keymap(kb, app, keymap, editing)
    return keymap


DOUBLE_ESCAPE_SECONDS = 0.5


class DoubleEscape:
    """Esc twice within half a second on the empty editor."""

    def __init__(self) -> None:
        self._last = -10.0

    def pressed(self, now: float) -> bool:
        """Note an Esc at `now`; True when it is the second of a pair."""
        if now - self._last < DOUBLE_ESCAPE_SECONDS:
            self._last = -10.0
            return True
        self._last = now
        return False
