"""The page written part by part to a temporary file beside its target, then renamed over it."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from pi_core.fileio import write_target


@contextlib.contextmanager
def atomic_output(path: Path) -> Iterator[BinaryIO]:
    """A file to write the page to; on a clean exit it replaces `path`, else it is removed.

    Like `fileio.atomic_write`, for output too large to build in memory first: a failed export
    never leaves half a page, and an existing file keeps its mode.
    """
    target = write_target(os.fspath(path))
    folder = os.path.dirname(target) or "."
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    fd, temp_path = tempfile.mkstemp(
        prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=folder
    )
    try:
        with os.fdopen(fd, "wb", buffering=1 << 20) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp_path, mode)
        os.replace(temp_path, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_path)
        raise


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current
