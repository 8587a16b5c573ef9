"""Open a login URL in the user's browser, as pi does: `open` on macOS, else `xdg-open`."""

from __future__ import annotations

import contextlib
import subprocess
import sys


def open_browser(url: str) -> None:
    """Ask the desktop to open `url`, in the background; nothing happens where it cannot."""
    command = "open" if sys.platform == "darwin" else "xdg-open"
    with contextlib.suppress(OSError):
        subprocess.Popen(
            [command, url],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
