"""Turn a pi theme (vars + colors) into the REPL's style table; report bad colours."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pi_core.modes.interactive.theme import Theme
from pi_core.modes.interactive.themes.builtin import BUILTIN, REQUIRED_TOKENS

_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
# the styles some tokens carry besides their colour
_EXTRA = {"thinkingText": "italic", "toolTitle": "bold", "customMessageLabel": "bold"}


class ThemeError(ValueError):
    """A theme file that cannot be used (the message says which token and why)."""


@dataclass
class ThemeSource:
    """A theme by name: its data and the file it came from (None for built-ins)."""

    name: str
    data: dict[str, Any]
    path: str | None = None
    warnings: list[str] = field(default_factory=list)


def xterm_hex(index: int) -> str:
    """The xterm 256-colour palette entry as #rrggbb."""
    base = ["#000000", "#800000", "#008000", "#808000", "#000080", "#800080", "#008080",
            "#c0c0c0", "#808080", "#ff0000", "#00ff00", "#ffff00", "#0000ff", "#ff00ff",
            "#00ffff", "#ffffff"]  # fmt: skip
    if index < 16:
        return base[index]
    if index < 232:
        steps = [0, 95, 135, 175, 215, 255]
        index -= 16
        red, green, blue = steps[index // 36], steps[(index // 6) % 6], steps[index % 6]
        return f"#{red:02x}{green:02x}{blue:02x}"
    level = 8 + (index - 232) * 10
    return f"#{level:02x}{level:02x}{level:02x}"


def resolve_colour(value: Any, variables: dict[str, Any], token: str, depth: int = 0) -> str:
    """A colour value (hex, 0-255, a var name, or "") as #rrggbb or "" (the default)."""
    if isinstance(value, bool):
        raise ThemeError(f"{token}: {value!r} is not a colour")
    if isinstance(value, int):
        if 0 <= value <= 255:
            return xterm_hex(value)
        raise ThemeError(f"{token}: colour index {value} is outside 0-255")
    if not isinstance(value, str):
        raise ThemeError(f"{token}: {value!r} is not a colour")
    if value == "":
        return ""
    if _HEX.match(value):
        return value.lower()
    if value in variables and depth < 8:
        return resolve_colour(variables[value], variables, token, depth + 1)
    raise ThemeError(f"{token}: {value!r} is neither #rrggbb, 0-255 nor a defined var")


def build_styles(data: dict[str, Any]) -> dict[str, str]:
    """The rich style of every token; ThemeError when a token is missing or a colour bad."""
    if not isinstance(data, dict):
        raise ThemeError("a theme must be a JSON object")
    variables = data.get("vars") or {}
    colours = data.get("colors")
    if not isinstance(variables, dict) or not isinstance(colours, dict):
        raise ThemeError("a theme needs a `colors` object (and `vars`, if any, an object)")
    missing = [token for token in REQUIRED_TOKENS if token not in colours]
    if missing:
        raise ThemeError(f"missing colours: {', '.join(missing)}")
    styles: dict[str, str] = {}
    for token, value in colours.items():
        colour = resolve_colour(value, variables, token)
        if token.endswith("Bg"):
            styles[token] = f"on {colour}" if colour else ""
        else:
            styles[token] = " ".join(p for p in (_EXTRA.get(token, ""), colour) if p)
    return styles


def make_theme(source: ThemeSource, color: bool = True) -> Theme:
    """A Theme from a source (ThemeError when it is unusable)."""
    return Theme(styles=build_styles(source.data), color=color, name=source.name)


def builtin_source(name: str) -> ThemeSource:
    """The built-in dark or light theme."""
    return ThemeSource(name, BUILTIN[name])
