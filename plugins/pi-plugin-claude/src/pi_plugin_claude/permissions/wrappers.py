"""Commands that run another: `env`, `command`, `sudo`, `nice`, `timeout`, `xargs`, `sh -c` …

`unwrap` returns the command a wrapper runs, so permissions judge what really executes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Unwrapped:
    """What a wrapper runs: an argv, or a `-c` script for a shell; `unknown` if unclear."""

    argv: tuple[str, ...] = ()
    dynamic: frozenset[int] = frozenset()
    unknown: bool = False
    script: str | None = None
    script_dynamic: bool = False
    assigned: tuple[str, ...] = ()
    """Variables `env NAME=VALUE` sets for the command."""


@dataclass(frozen=True)
class _Options:
    """A wrapper's options: those that take a value, and those that do not (None: any)."""

    with_value: frozenset[str]
    plain: frozenset[str] | None = None
    positional: int = 0
    """Arguments before the command (timeout's DURATION)."""


_WRAPPERS: dict[str, _Options] = {
    "env": _Options(
        frozenset({"-u", "--unset", "-C", "--chdir"}),
        frozenset({"-i", "-", "--ignore-environment", "-0", "--null", "-v", "--debug"}),
    ),
    "command": _Options(frozenset(), frozenset({"-p"})),
    "builtin": _Options(frozenset(), frozenset()),
    "noglob": _Options(frozenset(), frozenset()),
    "nocorrect": _Options(frozenset(), frozenset()),
    "exec": _Options(frozenset({"-a"}), frozenset({"-c", "-l"})),
    "nohup": _Options(frozenset(), frozenset()),
    "time": _Options(frozenset(), frozenset({"-p"})),
    "nice": _Options(frozenset({"-n", "--adjustment"}), None),
    "timeout": _Options(
        frozenset({"-s", "--signal", "-k", "--kill-after"}),
        frozenset({"--preserve-status", "--foreground", "-v", "--verbose"}),
        positional=1,
    ),
    "stdbuf": _Options(frozenset({"-i", "-o", "-e", "--input", "--output", "--error"}), None),
    "sudo": _Options(
        frozenset(
            {
                "-u",
                "-g",
                "-U",
                "-C",
                "-D",
                "-h",
                "-p",
                "-r",
                "-R",
                "-t",
                "-T",
                "--user",
                "--group",
                "--other-user",
                "--close-from",
                "--chdir",
                "--host",
                "--prompt",
                "--role",
                "--chroot",
                "--type",
                "--command-timeout",
            }
        ),
        frozenset({"-E", "-H", "-n", "-P", "-S", "-k", "-A", "-b", "--preserve-env"}),
    ),
    "doas": _Options(frozenset({"-u", "-C"}), frozenset({"-n", "-s"})),
    "watch": _Options(frozenset({"-n", "--interval"}), None),
    "xargs": _Options(
        frozenset({"-I", "-n", "-P", "-L", "-s", "-E", "-d", "-a", "--arg-file"}),
        frozenset({"-0", "--null", "-t", "--verbose", "-r", "--no-run-if-empty", "-x"}),
    ),
}

_MOVES: dict[str, frozenset[str]] = {
    "env": frozenset({"-C", "--chdir"}),
    "sudo": frozenset({"-D", "--chdir", "-R", "--chroot"}),
    "doas": frozenset({"-C"}),
    "xargs": frozenset({"-a", "--arg-file"}),
}
"""Wrapper options after which the command's paths no longer mean what they say."""

_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_SHELL_OPTION_WITH_VALUE = frozenset({"-o", "+o", "-O", "+O", "--rcfile", "--init-file"})
SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh"})


def unwrap(argv: tuple[str, ...], dynamic: frozenset[int]) -> Unwrapped | None:
    """The command a wrapper runs, or None when `argv` is not a wrapper."""
    name = argv[0] if argv else ""
    if name in SHELLS:
        return _shell_script(argv, dynamic)
    options = _WRAPPERS.get(name)
    if options is None:
        return None
    if name == "command" and any(a in ("-v", "-V") for a in argv[1:2]):
        return None  # `command -v x` looks a name up; it runs nothing
    index = 1
    assigned: list[str] = []
    while index < len(argv):
        if index in dynamic:
            return Unwrapped(unknown=True)
        arg = argv[index]
        if arg == "--":
            index += 1
            break
        if name == "env" and _ASSIGNMENT.match(arg):
            assigned.append(arg.partition("=")[0])
            index += 1
            continue
        if not arg.startswith("-") or (arg == "-" and name != "env"):
            break
        flag, _, attached = arg.partition("=")
        if flag in _MOVES.get(name, ()):
            return Unwrapped(unknown=True)  # another folder or a list of words from a file
        if flag in options.with_value:
            index += 1 if attached else 2
        elif (
            _attached_short(flag, options.with_value)
            or options.plain is None
            or flag in options.plain
        ):
            index += 1
        else:
            return Unwrapped(unknown=True)  # an option we do not know: it may take the command
    while name == "env" and index < len(argv) and _ASSIGNMENT.match(argv[index]):
        assigned.append(argv[index].partition("=")[0])
        index += 1
    index += options.positional
    rest = argv[index:]
    shifted = frozenset(i - index for i in dynamic if i >= index)
    if name == "xargs":
        # the words xargs appends come from stdin: unknown paths
        rest = rest or ("echo",)
        return Unwrapped((*rest, ""), shifted | {len(rest)})
    return Unwrapped(rest, shifted, assigned=tuple(assigned))


def _attached_short(flag: str, with_value: frozenset[str]) -> bool:
    """`-n10`, `-oL`: a short option with its value attached."""
    return len(flag) > 2 and flag[1] != "-" and flag[:2] in with_value


def _shell_script(argv: tuple[str, ...], dynamic: frozenset[int]) -> Unwrapped | None:
    """`bash -c SCRIPT`: the script; a shell without `-c` is judged as itself."""
    index = 1
    has_c = False
    while index < len(argv) and not has_c:
        arg = argv[index]
        if index in dynamic:
            return Unwrapped(unknown=True)
        if arg in _SHELL_OPTION_WITH_VALUE:
            index += 2
        elif arg.startswith(("-", "+")) and arg not in ("-", "--"):
            has_c = not arg.startswith("--") and "c" in arg[1:]
            index += 1
        else:
            break
    if not has_c:
        return None
    if index >= len(argv):
        return Unwrapped(unknown=True)
    return Unwrapped(script=argv[index], script_dynamic=index in dynamic)
