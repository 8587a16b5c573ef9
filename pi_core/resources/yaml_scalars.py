"""Scalars for the YAML reader: core-schema resolution, escapes, block folding, tags."""

from __future__ import annotations

import math
import re
from typing import Any


class YamlError(ValueError):
    """YAML that cannot be read; the message ends with `at line L, column C`."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(f"{message} at line {line}, column {column}")
        self.line = line
        self.column = column


_INT = re.compile(r"[-+]?[0-9]+")
_OCT = re.compile(r"0o[0-7]+")
_HEX = re.compile(r"0x[0-9a-fA-F]+")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")
ESCAPES = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f",
    "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85",
    "_": "\xa0", "L": "\u2028", "P": "\u2029",
}  # fmt: skip
HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}


def resolve_plain(text: str) -> Any:
    """Turn a plain scalar into null, bool, int, float or str (YAML 1.2 core schema)."""
    if text in ("", "~", "null", "Null", "NULL"):
        return None
    if text in ("true", "True", "TRUE"):
        return True
    if text in ("false", "False", "FALSE"):
        return False
    if _INT.fullmatch(text):
        return int(text)
    if _OCT.fullmatch(text):
        return int(text[2:], 8)
    if _HEX.fullmatch(text):
        return int(text[2:], 16)
    if _FLOAT.fullmatch(text):
        return float(text)
    lowered = text.lstrip("+-")
    if lowered in (".inf", ".Inf", ".INF"):
        return -math.inf if text.startswith("-") else math.inf
    if text in (".nan", ".NaN", ".NAN"):
        return math.nan
    return text


def fold_block(lines: list[str], folded: bool, chomp: str) -> str:
    """Join a block scalar's lines: literal (`|`) or folded (`>`), then chomp (`-`, `+`)."""
    result = ""
    empty = 0
    has_content = False
    more_indented = False
    for text in lines:
        if text == "":
            empty += 1
            continue
        if folded:
            if text.startswith((" ", "\t")):
                more_indented = True
                result += "\n" * ((1 + empty) if has_content else empty)
            elif more_indented:
                more_indented = False
                result += "\n" * (empty + 1)
            elif empty == 0:
                if has_content:
                    result += " "
            else:
                result += "\n" * empty
        else:
            result += "\n" * ((1 + empty) if has_content else empty)
        result += text
        has_content = True
        empty = 0
    if chomp == "+":
        result += "\n" * ((empty + 1) if has_content else empty)
    elif chomp != "-" and has_content:
        result += "\n"
    return result


def unquote_single(text: str) -> str:
    """Undo the doubled quotes of a single-quoted scalar."""
    return text.replace("''", "'")


def unescape(text: str, line_number: int, column: int) -> str:
    """Resolve the escapes of a double-quoted scalar on one line."""
    out: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char != "\\" or i + 1 >= len(text):
            out.append(char)
            i += 1
            continue
        code = text[i + 1]
        if code in HEX_ESCAPES:
            width = HEX_ESCAPES[code]
            out.append(chr(int(text[i + 2 : i + 2 + width], 16)))
            i += 2 + width
        elif code in ESCAPES:
            out.append(ESCAPES[code])
            i += 2
        else:
            raise YamlError(f"Invalid escape sequence \\{code}", line_number, column + i)
    return "".join(out)


def as_key(value: Any) -> str:
    """Return a scalar as a mapping key, spelled the way JavaScript would."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def apply_tag(value: Any, tag: str | None) -> Any:
    """Apply a core-schema tag (`!!str`, `!!int`, …); other tags leave the value alone."""
    if tag is None:
        return value
    if tag == "!!str":
        return "" if value is None else as_key(value)
    if tag == "!!int" and isinstance(value, str):
        return int(value)
    if tag == "!!float" and isinstance(value, str | int):
        return float(value)
    if tag == "!!bool" and isinstance(value, str):
        return value.lower() == "true"
    if tag == "!!null":
        return None
    return value
