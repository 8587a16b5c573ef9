"""`/settings`: a searchable list of the settings the REPL uses, changed in place, saved at once."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pi_core.modes.interactive.selectors.picker import Picker, Row, matches_tokens, run_dialog

if TYPE_CHECKING:
    from pi_core.modes.interactive.host import CommandHost

BOOLEAN = ("true", "false")
QUEUE_MODES = ("one-at-a-time", "all")


@dataclass(frozen=True)
class SettingSpec:
    """One setting: its settings.json key path, label, choices and default."""

    key: str
    label: str
    choices: tuple[str, ...] | Callable[[CommandHost], tuple[str, ...]]
    default: Any
    help: str
    number: bool = False  # written as an integer
    offered: Callable[[CommandHost], bool] | None = None  # None: always listed


def _themes(app: CommandHost) -> tuple[str, ...]:
    from pi_core.modes.interactive.themes.active import available_themes

    return tuple(available_themes(app.session))


def _levels(app: CommandHost) -> tuple[str, ...]:
    return tuple(app.session.available_thinking_levels())


def _draws_images(app: CommandHost) -> bool:
    return app.transcript.image_protocol is not None


THINKING = "defaultThinkingLevel"

# pi's /settings rows in pi's order (the image rows only where the terminal draws images),
# then two of ours; docs/repl.md says which of pi's rows are left out and why
SETTINGS: tuple[SettingSpec, ...] = (
    SettingSpec("compaction.enabled", "Auto-compact", BOOLEAN, True,
                "compact when the context fills up"),
    SettingSpec("terminal.showImages", "Show images", BOOLEAN, True,
                "draw images in the terminal", offered=_draws_images),
    SettingSpec("terminal.imageWidthCells", "Image width", ("60", "80", "120"), 60,
                "width of inline images, in terminal cells", number=True, offered=_draws_images),
    SettingSpec("enableSkillCommands", "Skill commands", BOOLEAN, True,
                "offer /skill:name commands"),
    SettingSpec("editorPaddingX", "Editor padding", ("0", "1", "2", "3"), 0,
                "blank columns left and right of the editor's text", number=True),
    SettingSpec("autocompleteMaxVisible", "Autocomplete max items",
                ("3", "5", "7", "10", "15", "20"), 5, "rows of the completion menu", number=True),
    SettingSpec("terminal.clearOnShrink", "Clear on shrink", BOOLEAN, False,
                "clear the rows left empty when the live area shrinks"),
    SettingSpec("terminal.showTerminalProgress", "Terminal progress", BOOLEAN, False,
                "show progress in the terminal's tab (OSC 9;4)"),
    SettingSpec("steeringMode", "Steering mode", QUEUE_MODES, "one-at-a-time",
                "how queued steering messages are delivered"),
    SettingSpec("followUpMode", "Follow-up mode", QUEUE_MODES, "one-at-a-time",
                "how queued follow-ups are delivered"),
    SettingSpec("hideThinkingBlock", "Hide thinking", BOOLEAN, False, "Ctrl+T toggles it too"),
    SettingSpec("collapseChangelog", "Collapse changelog", BOOLEAN, False,
                "after an upgrade, one line instead of the new changelog entries"),
    SettingSpec("quietStartup", "Quiet startup", BOOLEAN, False, "hide the start-up header"),
    SettingSpec("doubleEscapeAction", "Double-escape action", ("tree", "fork", "none"), "tree",
                "what Esc twice on an empty editor opens"),
    SettingSpec("treeFilterMode", "Tree filter mode",
                ("default", "no-tools", "user-only", "labeled-only", "all"), "default",
                "the filter /tree opens with"),
    SettingSpec(THINKING, "Thinking level", _levels, "medium",
                "this session's level, and the default for new ones"),
    SettingSpec("theme", "Theme", _themes, "dark", "colours of the REPL (previewed live)"),
    SettingSpec("retry.enabled", "Retry on errors", BOOLEAN, True,
                "retry overloaded / rate-limited requests"),
    SettingSpec("branchSummary.skipPrompt", "Skip branch summary prompt", BOOLEAN, False,
                "/tree never asks and never summarizes"),
)  # fmt: skip


def offered(app: CommandHost) -> tuple[SettingSpec, ...]:
    """The settings listed in this terminal."""
    return tuple(spec for spec in SETTINGS if spec.offered is None or spec.offered(app))


def current_value(app: CommandHost, spec: SettingSpec) -> str:
    """The setting's value as text (the default when unset)."""
    if spec.key == THINKING:
        return str(app.session.thinking_level)
    value = app.session.settings.get_raw(spec.key, spec.default)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _choices(app: CommandHost, spec: SettingSpec) -> tuple[str, ...]:
    return spec.choices(app) if callable(spec.choices) else spec.choices


def save(app: CommandHost, spec: SettingSpec, text: str) -> None:
    """Write the value to settings.json and apply what can change while running."""
    value: Any = text == "true" if spec.choices == BOOLEAN else text
    if spec.number:
        value = int(text)
    if spec.key == THINKING:
        app.session.set_thinking_level(text)  # pi's row: the session's level, saved as default
        app.invalidate()
        return
    app.session.settings.set(spec.key, value)
    if spec.key == "hideThinkingBlock":
        app.transcript.hide_thinking = bool(value)
    if spec.key == "terminal.showImages":
        app.transcript.show_images = bool(value)
    if spec.key == "terminal.imageWidthCells":
        app.transcript.image_width_cells = int(value)
    if spec.key == "theme":
        _preview(app, text)


def _preview(app: CommandHost, name: str) -> None:
    from pi_core.modes.interactive.themes.active import apply_theme, load_theme

    theme, warnings = load_theme(app.session, name, app.theme.color)
    for warning in warnings:
        app.transcript.status(f"Warning: {warning}", "yellow")
    apply_theme(app, theme)


async def open_settings(app: CommandHost, args: str = "") -> None:
    """The list: Enter flips a yes/no setting or opens the choices of another one."""
    specs = offered(app)
    width = max(len(spec.label) for spec in specs)

    def rows(query: str) -> list[Row]:
        found = []
        for spec in specs:
            line = f"{spec.label.ljust(width)}  {current_value(app, spec)}"
            if matches_tokens(query, f"{spec.label} {spec.key} {spec.help}"):
                found.append(Row(spec, f"{line}   ({spec.help})"))
        return found

    query = ""
    selected: Any = None
    while True:
        picker = Picker("picker", "Settings", source=rows, prefill=query)
        picker.hint = "type to search  ↑↓ move  enter change  escape close"
        picker.refresh(selected)
        spec = await run_dialog(app, picker)
        query = picker.query
        if spec is None:
            return
        selected = spec
        choices = _choices(app, spec)
        if choices == BOOLEAN:
            flipped = "false" if current_value(app, spec) == "true" else "true"
            save(app, spec, flipped)
            continue
        await _choose_value(app, spec, choices)


async def _choose_value(app: CommandHost, spec: SettingSpec, choices: tuple[str, ...]) -> None:
    before = current_value(app, spec)
    picker = Picker(
        "picker", spec.label, source=lambda q: [Row(c, c) for c in choices if matches_tokens(q, c)]
    )
    picker.hint = "↑↓ move  enter choose  escape back"
    picker.refresh(before)
    if spec.key == "theme":
        picker.on_move = lambda row: _preview(app, row.value) if row is not None else None
    chosen = await run_dialog(app, picker)
    if chosen is None:
        if spec.key == "theme":
            _preview(app, before)  # the preview ends where it started
        return
    save(app, spec, chosen)
