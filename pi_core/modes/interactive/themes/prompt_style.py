"""The live region's prompt_toolkit style (footer, dialogs, pickers, menu) from the theme."""

from __future__ import annotations

from functools import lru_cache

from prompt_toolkit.styles import BaseStyle, Style, merge_styles

from pi_core.modes.interactive.theme import STYLE, Theme

# prompt_toolkit class → theme token whose colour it takes
_CLASSES = {
    "footer": "dim",
    "footer.warning": "warning",
    "footer.error": "error",
    "queued": "dim",
    "spinner": "accent",
    "working": "muted",
    "status": "muted",
    "dialog.title": "accent",
    "dialog.hint": "dim",
    "tree.user": "accent",
    "tree.assistant": "success",
    "tree.tool": "muted",
    "tree.meta": "dim",
}


def _colour(style: str) -> str:
    """The colour of a rich style such as `italic #808080` (no background)."""
    words = [w for w in style.split() if w.startswith("#")]
    return words[-1] if words else ""


@lru_cache(maxsize=8)
def _build(pairs: tuple[tuple[str, str], ...]) -> BaseStyle:
    rules = {}
    for name, colour in pairs:
        bold = "bold " if name in ("dialog.title",) else ""
        rules[name] = f"{bold}{colour}".strip()
    selected = dict(pairs).get("selected.bg", "")
    rules["dialog.selected"] = f"bold bg:{selected}" if selected else "bold"
    return merge_styles([STYLE, Style.from_dict({k: v for k, v in rules.items() if v})])


def prompt_style(theme: Theme) -> BaseStyle:
    """The STYLE classes recoloured with the theme's tokens (cached per colour set)."""
    if not theme.color:
        return STYLE
    pairs = [(name, _colour(theme.style(token))) for name, token in _CLASSES.items()]
    pairs.append(("selected.bg", _colour(theme.style("selectedBg"))))
    return _build(tuple(pairs))
