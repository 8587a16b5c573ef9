"""The colours the REPL uses; tool renderers look keys up with `theme.style(key)`."""

from __future__ import annotations

from dataclasses import dataclass, field

from prompt_toolkit.styles import Style

DARK: dict[str, str] = {
    "accent": "#8abeb7",
    "border": "#5f87ff",
    "muted": "#808080",
    "dim": "#666666",
    "success": "#b5bd68",
    "error": "#cc6666",
    "warning": "#ffff00",
    "text": "",
    "thinkingText": "italic #808080",
    "toolTitle": "bold",
    "toolOutput": "#808080",
    "toolDiffAdded": "#b5bd68",
    "toolDiffRemoved": "#cc6666",
    "toolDiffContext": "#808080",
    "userMessageBg": "on #343541",
    "customMessageLabel": "bold #9575cd",
    "bashMode": "#b5bd68",
    "thinkingOff": "#505050",
    "thinkingMinimal": "#6e6e6e",
    "thinkingLow": "#5f87af",
    "thinkingMedium": "#81a2be",
    "thinkingHigh": "#b294bb",
    "thinkingXhigh": "#d183e8",
}


@dataclass
class Theme:
    """A name → rich style table; `color=False` renders without any escape codes."""

    styles: dict[str, str] = field(default_factory=lambda: dict(DARK))
    color: bool = True
    name: str = "dark"

    def style(self, key: str) -> str:
        """Return the rich style for a theme key ('' when unknown)."""
        return self.styles.get(key, "")

    def thinking_border(self, level: str) -> str:
        """Return the editor border colour for a thinking level."""
        return self.style("thinking" + level.capitalize()) or self.style("border")


# The prompt_toolkit classes of the live region (footer, queue, dialogs, menu).
STYLE = Style.from_dict(
    {
        "footer": "#808080",
        "footer.warning": "#ffff00",
        "footer.error": "#cc6666",
        "queued": "#666666",
        "spinner": "#8abeb7",
        "working": "#808080",
        "dialog.title": "bold #8abeb7",
        "dialog.selected": "bold",
        "dialog.hint": "#666666",
        "status": "#808080",
        "completion-menu.completion": "bg:#303030 #c0c0c0",
        "completion-menu.completion.current": "bg:#5f87af #ffffff",
        "completion-menu.meta.completion": "bg:#262626 #808080",
        "completion-menu.meta.completion.current": "bg:#5f87af #ffffff",
    }
)
