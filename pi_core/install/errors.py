"""The installer's errors: each carries a message fit to show the user as it is."""

from __future__ import annotations


class InstallError(Exception):
    """An install, remove, list or update that could not be done; nothing was recorded."""


class InstallerFailed(InstallError):
    """pip or uv exited non-zero; the message ends with the last lines it wrote to stderr."""

    def __init__(self, action: str, returncode: int, stderr: str, tail: int = 20) -> None:
        lines = [line for line in stderr.rstrip().splitlines() if line.strip()]
        shown = lines[-tail:]
        head = f"{action} failed (exit {returncode})"
        if not shown:
            message = f"{head}; it wrote nothing to stderr"
        else:
            more = f" (last {len(shown)} of {len(lines)})" if len(lines) > len(shown) else ""
            message = f"{head}; its stderr{more}:\n" + "\n".join(f"  {line}" for line in shown)
        super().__init__(message)
        self.returncode = returncode
        self.stderr = stderr
