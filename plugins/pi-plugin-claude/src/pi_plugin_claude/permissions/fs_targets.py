"""The paths a file-changing shell command (`rm`, `mv`, `cp`, `touch`, `mkdir`, `sed -i`) names."""

from __future__ import annotations

import shlex

_OPAQUE = set("$`<>")
_SCRIPT_OPTIONS = frozenset({"-e", "-f", "--expression", "--file"})


def filesystem_targets(command: str) -> list[str] | None:
    """The path operands of one simple command, or None when they cannot be known statically."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    if not words:
        return []
    name, args = words[0], words[1:]
    operands: list[str] = []
    options_done = False
    has_script = False
    skip_next = False
    for word in args:
        if _OPAQUE.intersection(word):
            return None  # a variable, substitution or redirection: the target is not the word
        if skip_next:
            skip_next = False
            continue
        if options_done or not word.startswith("-") or word == "-":
            operands.append(word)
        elif word == "--":
            options_done = True
        elif name == "sed" and word in _SCRIPT_OPTIONS:
            has_script = skip_next = True
        elif "=" in word and word.startswith("--"):
            operands.append(word.split("=", 1)[1])  # `--target-directory=DIR`
        elif name in ("cp", "mv") and word.startswith("-t") and len(word) > 2:
            operands.append(word[2:])  # `-tDIR`
    if name == "sed" and not has_script and operands:
        operands = operands[1:]  # the first operand is the script
    return operands
