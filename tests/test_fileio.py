"""Atomic writes (one permission policy) and locks shared with pi: settings, auth.json, sessions."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import filelock
import pytest

from pi_core import fileio
from pi_core.ai.auth import AuthStorage
from pi_core.fileio import PRIVATE_MODE, atomic_write, pi_lock
from pi_core.resources.settings import SettingsManager
from pi_core.session import jsonl
from pi_core.session.jsonl import Appender

WAIT = 30  # seconds: only reached when something is broken


def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_an_existing_file_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "notes.txt"
    target.write_text("old")
    target.chmod(0o640)
    assert atomic_write(target, "new") is True
    assert target.read_text() == "new" and mode_of(target) == 0o640
    assert not [name for name in os.listdir(tmp_path) if name.endswith(".tmp")]


def test_a_new_file_gets_the_umask_default_or_the_mode_asked_for(tmp_path: Path) -> None:
    mask = os.umask(0o022)
    try:
        atomic_write(tmp_path / "plain.txt", b"x")
        atomic_write(tmp_path / "secret.json", "{}", mode=PRIVATE_MODE)
    finally:
        os.umask(mask)
    assert mode_of(tmp_path / "plain.txt") == 0o644
    assert mode_of(tmp_path / "secret.json") == 0o600


def test_a_private_mode_applies_to_an_existing_file_too(tmp_path: Path) -> None:
    target = tmp_path / "auth.json"
    target.write_text("{}")
    target.chmod(0o644)
    atomic_write(target, "{}", mode=PRIVATE_MODE)
    assert mode_of(target) == 0o600


def test_a_symlink_is_written_through(tmp_path: Path) -> None:
    (tmp_path / "real.json").write_text("old")
    (tmp_path / "link.json").symlink_to(tmp_path / "real.json")
    atomic_write(tmp_path / "link.json", "new")
    assert (tmp_path / "link.json").is_symlink()
    assert (tmp_path / "real.json").read_text() == "new"


def test_a_write_called_off_leaves_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "f.txt"
    target.write_text("old")
    assert atomic_write(target, "new", lambda: False) is False
    assert target.read_text() == "old"
    assert not [name for name in os.listdir(tmp_path) if name.endswith(".tmp")]


# --- pi's lock: a `<file>.lock` folder (proper-lockfile) ---------------------------------------


@pytest.fixture
def lock_contended(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """Set once a writer finds the lock folder taken (and has to wait)."""
    contended = threading.Event()
    original = fileio._break_if_stale

    def noting(lock_dir: str, *stale: float) -> bool:
        contended.set()
        return original(lock_dir, *stale)

    monkeypatch.setattr(fileio, "_break_if_stale", noting)
    return contended


def run_in_thread(action: Callable[[], Any]) -> tuple[threading.Thread, list[BaseException]]:
    errors: list[BaseException] = []

    def target() -> None:
        try:
            action()
        except BaseException as error:  # reported by the test
            errors.append(error)

    thread = threading.Thread(target=target)
    thread.start()
    return thread, errors


def test_a_settings_write_waits_while_pi_holds_the_lock(
    project: Path, isolated_agent_dir: Path, lock_contended: threading.Event
) -> None:
    settings = isolated_agent_dir / "settings.json"
    settings.write_text('{"theme": "light"}')
    lock = isolated_agent_dir / "settings.json.lock"
    lock.mkdir()  # what proper-lockfile's lockSync does while pi writes settings.json
    manager = SettingsManager.create(project, str(isolated_agent_dir))
    thread, errors = run_in_thread(lambda: manager.set_theme("dark"))
    assert lock_contended.wait(WAIT)
    assert json.loads(settings.read_text()) == {"theme": "light"}  # still waiting
    lock.rmdir()  # pi releases
    thread.join(WAIT)
    assert not thread.is_alive() and errors == []
    assert json.loads(settings.read_text()) == {"theme": "dark"}
    assert not lock.exists()


def test_an_auth_write_waits_while_pi_holds_the_lock(
    tmp_path: Path, lock_contended: threading.Event
) -> None:
    path = tmp_path / "auth.json"
    path.write_text(json.dumps({"openai": {"type": "api_key", "key": "sk-old"}}))
    auth = AuthStorage(path)
    lock = tmp_path / "auth.json.lock"
    lock.mkdir()
    thread, errors = run_in_thread(lambda: auth.set_api_key("anthropic", "sk-new"))
    assert lock_contended.wait(WAIT)
    assert "anthropic" not in json.loads(path.read_text())
    # pi writes another provider's key meanwhile: it must survive our write
    path.write_text(json.dumps({"openai": {"type": "api_key", "key": "sk-old"}, "google": {}}))
    lock.rmdir()
    thread.join(WAIT)
    assert not thread.is_alive() and errors == []
    assert json.loads(path.read_text()) == {
        "openai": {"type": "api_key", "key": "sk-old"},
        "google": {},
        "anthropic": {"type": "api_key", "key": "sk-new"},
    }
    assert mode_of(path) == 0o600 and not lock.exists()


def test_a_malformed_auth_file_is_not_written_over(tmp_path: Path) -> None:
    path = tmp_path / "auth.json"
    path.write_text('{"openai": ')
    with pytest.raises(ValueError, match="invalid JSON"):
        AuthStorage(path).set_api_key("anthropic", "sk-new")
    assert path.read_text() == '{"openai": '
    assert not (tmp_path / "auth.json.lock").exists()


def test_while_we_hold_the_lock_pi_sees_it_taken(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    with pi_lock(path):
        lock = tmp_path / "settings.json.lock"
        # proper-lockfile: mkdir fails with EEXIST and the folder is fresh, so pi retries
        with pytest.raises(FileExistsError):
            os.mkdir(lock)
        assert time.time() - lock.stat().st_mtime < fileio.PI_LOCK_STALE_SECONDS
    assert not lock.exists()


def test_a_lock_left_by_a_crash_is_taken_over(tmp_path: Path) -> None:
    lock = tmp_path / "settings.json.lock"
    lock.mkdir()
    old = time.time() - 60
    os.utime(lock, (old, old))
    with pi_lock(tmp_path / "settings.json"):
        assert lock.is_dir()
    assert not lock.exists()


def test_a_lock_held_too_long_times_out(tmp_path: Path) -> None:
    (tmp_path / "settings.json.lock").mkdir()
    with (
        pytest.raises(fileio.LockTimeout, match=r"settings\.json is locked"),
        pi_lock(tmp_path / "settings.json", timeout=0),
    ):
        pass


# --- session appends: on Windows, a lock on the file itself ------------------------------------


@pytest.fixture
def append_contended(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """Set once an append finds the session file locked by another descriptor."""
    contended = threading.Event()
    original = filelock.lock_descriptor

    def noting(fd: int, **options: Any) -> bool:
        if not original(fd, blocking=False):
            contended.set()
            return original(fd, **options)
        return True

    monkeypatch.setattr(filelock, "lock_descriptor", noting)
    yield contended


def test_where_appends_are_locked_an_append_waits_for_another_writer(
    tmp_path: Path, append_contended: threading.Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jsonl, "_LOCKED_APPENDS", True)  # as on Windows
    path = tmp_path / "session.jsonl"
    path.write_text('{"type":"session","id":"s"}\n')
    other = os.open(path, os.O_RDWR)  # another process appending holds the file's lock
    try:
        assert filelock.lock_descriptor(other, blocking=False)
        appender = Appender(path)
        thread, errors = run_in_thread(lambda: appender.append(['{"type":"message"}']))
        assert append_contended.wait(WAIT)
        assert path.read_text() == '{"type":"session","id":"s"}\n'
        filelock.unlock_descriptor(other)
        thread.join(WAIT)
        appender.close()
    finally:
        os.close(other)
    assert not thread.is_alive() and errors == []
    assert path.read_text() == '{"type":"session","id":"s"}\n{"type":"message"}\n'


IMPORT_ALL_WITHOUT_FCNTL = """
import importlib, pkgutil, sys
sys.modules["fcntl"] = None  # as on Windows, where `import fcntl` fails
import pi_core
for info in pkgutil.walk_packages(pi_core.__path__, "pi_core."):
    if not info.name.endswith("__main__"):
        importlib.import_module(info.name)
print("imported")
"""


def test_pi_core_imports_without_fcntl() -> None:
    result = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL_WITHOUT_FCNTL],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "imported"
