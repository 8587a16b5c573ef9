"""Writing files safely: atomic replacement with one permission policy, and pi's lock folders.

Every file pi for Python rewrites (settings.json, auth.json, session files, files the tools write)
goes through `atomic_write`; settings.json and auth.json are also written under `pi_lock`, the
lock pi itself takes on them, so the two programs never write one of them at the same time.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
import time
from collections.abc import Callable, Iterator
from typing import BinaryIO

PRIVATE_MODE = 0o600  # auth.json: readable by its owner only
PI_LOCK_STALE_SECONDS = 10.0  # proper-lockfile's default: an older `<file>.lock` was abandoned
PI_LOCK_TIMEOUT_SECONDS = 10.0
PI_LOCK_POLL_SECONDS = 0.02  # pi retries every 20 ms too


class LockTimeout(TimeoutError):
    """Another program held a file's lock for longer than we wait."""

    def __init__(self, path: str) -> None:
        super().__init__(f"{path} is locked ({path}.lock exists)")
        self.path = path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _write_payload(handle: BinaryIO, data: bytes) -> None:
    """Write all of `data` to the temporary file (a seam for tests that simulate a crash)."""
    handle.write(data)


def write_target(path: str) -> str:
    """Return the file a write to `path` lands in: the target of a symlink, else `path`."""
    return os.path.realpath(path) if os.path.islink(path) else path


def atomic_write(
    path: str | os.PathLike[str],
    data: bytes | str,
    should_commit: Callable[[], bool] | None = None,
    *,
    mode: int | None = None,
) -> bool:
    """Write `data` to a temporary file beside `path`, then rename it over `path`.

    A crash at any point leaves the old file or the new one, never a mix. Permissions: with
    `mode` the file gets exactly that mode (auth.json: PRIVATE_MODE); without it an existing
    file keeps its mode and a new one gets the umask default. A symlink is written through.
    `should_commit` is asked just before the rename; False discards the write. Returns whether
    the file was replaced.
    """
    target = write_target(os.fspath(path))
    folder = os.path.dirname(target) or "."
    payload = data.encode("utf-8") if isinstance(data, str) else data
    mode = _mode_for(target, mode)
    fd, temp_path = _temporary_beside(target)
    try:
        with os.fdopen(fd, "wb") as handle:
            _write_payload(handle, payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp_path, mode)
        if should_commit is not None and not should_commit():
            os.unlink(temp_path)
            return False
        os.replace(temp_path, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_path)
        raise
    _sync_folder(folder)
    return True


@contextlib.contextmanager
def atomic_output(path: str | os.PathLike[str], *, mode: int | None = None) -> Iterator[BinaryIO]:
    """A file to write into part by part; on a clean exit it replaces `path`, else it is removed.

    `atomic_write` for output too large to build in memory first (an HTML export, a migrated
    session): a failure never leaves half a file; `mode` as in `atomic_write`.
    """
    target = write_target(os.fspath(path))
    mode = _mode_for(target, mode)
    fd, temp_path = _temporary_beside(target)
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
    _sync_folder(os.path.dirname(target) or ".")


def _mode_for(target: str, mode: int | None) -> int:
    """`mode` if given, else the existing file's mode, else the umask default for a new file."""
    if mode is not None:
        return mode
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        return 0o666 & ~_umask()


def _temporary_beside(target: str) -> tuple[int, str]:
    """A new temporary file in `target`'s folder (so the rename stays on one file system)."""
    return tempfile.mkstemp(
        prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=os.path.dirname(target) or "."
    )


def _sync_folder(folder: str) -> None:
    """Make the rename durable (POSIX; Windows cannot open a folder, which is fine)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextlib.contextmanager
def pi_lock(
    path: str | os.PathLike[str],
    *,
    timeout: float = PI_LOCK_TIMEOUT_SECONDS,
    stale: float = PI_LOCK_STALE_SECONDS,
) -> Iterator[None]:
    """Hold pi's lock on `path` (a `<path>.lock` folder) while the block runs.

    Hand-written on purpose: this is proper-lockfile's protocol, which pi uses for settings.json
    and auth.json, and no Python library speaks it. `mkdir` is atomic on every system, so it
    excludes pi and our own processes alike; a lock folder older than 10 s was left by a crashed
    holder and is taken over, as pi does (`stale`: pi's token refresh renews its lock only every
    15 s, so it is taken over after 30 s). Raises LockTimeout after `timeout` seconds.
    """
    lock_dir = f"{os.fspath(path)}.lock"
    deadline = time.monotonic() + timeout
    while True:
        try:
            os.mkdir(lock_dir)
            break
        except FileExistsError:
            if _break_if_stale(lock_dir, stale):
                continue
            if time.monotonic() > deadline:
                raise LockTimeout(os.fspath(path)) from None
            time.sleep(PI_LOCK_POLL_SECONDS)
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            os.rmdir(lock_dir)


def _break_if_stale(lock_dir: str, stale: float = PI_LOCK_STALE_SECONDS) -> bool:
    try:
        if time.time() - os.stat(lock_dir).st_mtime <= stale:
            return False
        os.rmdir(lock_dir)
    except OSError:
        return False
    return True
