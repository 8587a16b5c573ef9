"""`--api-key VALUE` off the process's command line: a re-exec that passes the key by a pipe.

Any process of the same user reads /proc/PID/cmdline (`ps`, and the bash tool's
`cat /proc/$PPID/cmdline`), so pi's own process must not keep the key there. pi (Node) rewrites
its process title; CPython cannot without a C extension, so when the key is given on the command
line the process re-executes itself at once, before anything else runs, with the key removed
from the arguments. The key travels through an inherited pipe (a descriptor number in
`PI_API_KEY_FD`; /proc/PID/environ is readable by the same user too, so the key itself is not
put in the environment). The new process reads the pipe, closes it, drops the variable and puts
the key back into `sys.argv` in memory only, where the option parser finds it.

Only a command line with `--api-key` pays for the re-exec; the key is visible in the first
process for the few milliseconds before it execs, as in pi before its title is set.
"""

from __future__ import annotations

import os
import sys

FD_VARIABLE = "PI_API_KEY_FD"
_OPTION = "--api-key"


def hide_api_key() -> None:
    """Re-exec without `--api-key`'s value on the command line; or take it back after one."""
    received = os.environ.pop(FD_VARIABLE, None)
    if received is not None:
        _take_back(received)
        return
    if os.name == "nt":  # no exec that replaces the process; and no /proc to read it from
        return
    split = _split_key(sys.argv[1:])
    user_arguments = len(sys.argv) - 1
    if split is None or sys.orig_argv[len(sys.orig_argv) - user_arguments :] != sys.argv[1:]:
        return  # no key, or `main()` called in a process whose command line is not pi's
    arguments, key = split
    read_end, write_end = os.pipe()
    try:
        os.write(write_end, key.encode("utf-8", "surrogateescape"))  # far below a pipe's buffer
    finally:
        os.close(write_end)
    os.set_inheritable(read_end, True)
    os.environ[FD_VARIABLE] = str(read_end)
    interpreter = sys.orig_argv[: len(sys.orig_argv) - user_arguments]
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, [*interpreter, *arguments, _OPTION])


def _split_key(arguments: list[str]) -> tuple[list[str], str] | None:
    """The arguments without the key's value, and the value; None when no key is given.

    The option itself stays, last, as a marker where the value goes back (`--api-key` with no
    value after it is otherwise a usage error, so it cannot be a user's own argument).
    """
    for index, argument in enumerate(arguments):
        if argument == "--":
            return None
        if argument == _OPTION and index + 1 < len(arguments):
            return arguments[:index] + arguments[index + 2 :], arguments[index + 1]
        if argument.startswith(_OPTION + "="):
            return arguments[:index] + arguments[index + 1 :], argument[len(_OPTION) + 1 :]
    return None


def _take_back(received: str) -> None:
    """Read the key from the inherited pipe and put it back after the marker in `sys.argv`."""
    fd = int(received)
    chunks: list[bytes] = []
    try:
        while chunk := os.read(fd, 65536):
            chunks.append(chunk)
    finally:
        os.close(fd)
    key = b"".join(chunks).decode("utf-8", "surrogateescape")
    if sys.argv[-1:] == [_OPTION]:
        sys.argv.append(key)
