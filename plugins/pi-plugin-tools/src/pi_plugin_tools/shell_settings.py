"""`shellPath` and `shellCommandPrefix` from settings, for the bash tool and `!` (as pi)."""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class ShellSettings:
    """The shell to run commands with (None: the default choice) and the text put before them."""

    shell_path: str | None = None
    command_prefix: str | None = None

    def shell_argv(self) -> list[str] | None:
        """`[shellPath, "-c"]`, or None for the default shell; a missing shellPath is an error."""
        if not self.shell_path:
            return None
        if not os.path.exists(self.shell_path):
            raise FileNotFoundError(f"Custom shell path not found: {self.shell_path}")
        return [self.shell_path, "-c"]

    def prefixed(self, command: str) -> str:
        """The command with `shellCommandPrefix` and a newline before it, when one is set."""
        return f"{self.command_prefix}\n{command}" if self.command_prefix else command


def load_shell_settings(cwd: str) -> ShellSettings:
    """Read the two settings (global, then the project's) for a command run in `cwd`."""
    from pi_core import SettingsManager

    settings = SettingsManager.create(cwd)
    return ShellSettings(settings.get_shell_path(), settings.get_shell_command_prefix())
