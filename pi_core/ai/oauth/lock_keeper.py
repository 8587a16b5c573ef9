"""Keep pi's auth.json lock fresh while a refresh runs, as proper-lockfile does."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from pathlib import Path

from pi_core.fileio import pi_lock

TOUCH_SECONDS = 2.0
"""How often the lock folder's mtime is renewed: well inside the staleness pi and we allow."""
STALE_SECONDS = 30.0
"""pi's refresh lock: renewed every 15 s by its holder, taken over once 30 s old."""
WAIT_SECONDS = 120.0
"""How long to wait for another process's refresh: pi retries its lock for about as long."""


@contextlib.contextmanager
def held_lock(path: Path) -> Iterator[None]:
    """Hold pi's lock on `path`, renewing its mtime so a slow refresh is not taken for a crash."""
    lock_dir = f"{path}.lock"
    stop = threading.Event()

    def touch() -> None:
        while not stop.wait(TOUCH_SECONDS):
            with contextlib.suppress(OSError):
                os.utime(lock_dir)

    with pi_lock(path, timeout=WAIT_SECONDS, stale=STALE_SECONDS):
        keeper = threading.Thread(target=touch, daemon=True)
        keeper.start()
        try:
            yield
        finally:
            stop.set()
            keeper.join()
