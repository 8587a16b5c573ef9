"""Modified keys as kitty's keyboard protocol (CSI u) and xterm's modifyOtherKeys send them.

Once the REPL asks for these codes (`keyboard_protocol.py`), the terminal sends a key with
modifiers as `ESC [ code ; mods u` (kitty) or `ESC [ 27 ; mods ; code ~` (xterm), Ctrl+C and Esc
included in some terminals. prompt_toolkit knows neither form, so each is mapped here to the key
it would have been in the legacy encoding; Shift+Enter (a new line) and Shift+Ctrl+P (keys.py)
keep their own meaning; a shifted character sent in xterm's form is typed as that character.
The terminal's answer to the kitty query, `ESC [ ? flags u`, arrives as `KITTY_REPLY`, a key no
keyboard sends.
"""

from __future__ import annotations

import string
from typing import Any

from prompt_toolkit.input.ansi_escape_sequences import ANSI_SEQUENCES
from prompt_toolkit.input.vt100_parser import Vt100Parser
from prompt_toolkit.keys import Keys

KITTY_REPLY = Keys.F23

_SHIFT, _ALT, _CTRL = 1, 2, 4
_NAMED = {9: Keys.ControlI, 13: Keys.ControlM, 27: Keys.Escape, 127: Keys.ControlH}
_CTRL_PUNCTUATION = {ord(" "): Keys.ControlAt, ord("@"): Keys.ControlAt,
                     ord("\\"): Keys.ControlBackslash, ord("]"): Keys.ControlSquareClose,
                     ord("^"): Keys.ControlCircumflex, ord("_"): Keys.ControlUnderscore,
                     ord("-"): Keys.ControlUnderscore}  # fmt: skip

KeyOrKeys = Keys | tuple[Keys | str, ...]


def legacy_key(code: int, modifiers: int) -> KeyOrKeys | None:
    """The prompt_toolkit key(s) for a key `code` pressed with `modifiers` (kitty's bits: 1
    shift, 2 alt, 4 ctrl); None when the legacy encoding has no such key."""
    shift, alt, ctrl = modifiers & _SHIFT, modifiers & _ALT, modifiers & _CTRL
    key: Keys | str | None
    if code in _NAMED:
        key = _NAMED[code]
        if code == 9 and shift:
            key = Keys.BackTab
        elif code == 13 and shift and not alt:
            key = Keys.ControlJ  # Shift+Enter: a new line
    elif ctrl and chr(code).lower() in string.ascii_lowercase:
        key = Keys(f"c-{chr(code).lower()}")
    elif ctrl:
        key = _CTRL_PUNCTUATION.get(code)
    elif alt and 32 < code < 127:
        char = chr(code)
        key = char.upper() if shift and char in string.ascii_lowercase else char
    else:
        key = None  # plain or shifted text is sent as text, not as these codes
    if key is None:
        return None
    return (Keys.Escape, key) if alt else key  # type: ignore[return-value]


def install() -> None:
    """Add the CSI u and modifyOtherKeys forms to prompt_toolkit's table (existing entries,
    such as keys.py's Shift+Ctrl+P, are kept)."""
    codes = [9, 13, 27, 127, *range(32, 127)]
    for code in codes:
        for modifiers in range(1, 8):
            key = legacy_key(code, modifiers)
            if key is None:
                continue
            encoded = modifiers + 1
            for sequence in (f"\x1b[{code};{encoded}u", f"\x1b[27;{encoded};{code}~"):
                ANSI_SEQUENCES.setdefault(sequence, key)  # type: ignore[arg-type]
    for code in (9, 13, 27, 127):  # kitty's unmodified forms of keys it disambiguates
        ANSI_SEQUENCES.setdefault(f"\x1b[{code}u", _NAMED[code])
    for flags in range(32):
        ANSI_SEQUENCES.setdefault(f"\x1b[?{flags}u", KITTY_REPLY)
    for code in range(33, 127):  # Shift+character in xterm's form: the character itself
        ANSI_SEQUENCES.setdefault(f"\x1b[27;2;{code}~", chr(code))  # type: ignore[arg-type]
    if not getattr(Vt100Parser, "_pi_types_characters", False):
        Vt100Parser._call_handler = _typing_call_handler(Vt100Parser._call_handler)  # type: ignore[method-assign]
        Vt100Parser._pi_types_characters = True  # type: ignore[attr-defined]


def _typing_call_handler(call: Any) -> Any:
    """prompt_toolkit hands a key its escape sequence as the text it types; a character
    mapped from a sequence above types the character."""

    def call_handler(parser: Vt100Parser, key: Any, insert_text: str) -> None:
        if isinstance(key, str) and len(key) == 1 and insert_text.startswith("\x1b["):
            insert_text = key
        call(parser, key, insert_text)

    return call_handler


install()
