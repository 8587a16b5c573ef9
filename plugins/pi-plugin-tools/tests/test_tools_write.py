"""`write`: folders are created, content is exact, and a failed write never leaves half a file."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

import pytest
from pi_plugin_tools import files

from pi_core import fileio


async def test_creates_parent_folders_and_reports_bytes(run, cwd: Path) -> None:
    outcome = await run("write", {"path": "deep/er/file.txt", "content": "héllo\n"})
    assert not outcome.is_error
    assert outcome.result.text_content() == "Successfully wrote 7 bytes to deep/er/file.txt"
    assert (cwd / "deep" / "er" / "file.txt").read_bytes() == "héllo\n".encode()
    assert outcome.result.details is None


async def test_overwrites_and_keeps_permissions(run, cwd: Path) -> None:
    script = cwd / "run.sh"
    script.write_text("old")
    script.chmod(0o755)
    await run("write", {"path": "run.sh", "content": "#!/bin/sh\necho new\n"})
    assert script.read_text() == "#!/bin/sh\necho new\n"
    assert stat.S_IMODE(script.stat().st_mode) == 0o755


async def test_content_is_written_verbatim(run, cwd: Path) -> None:
    await run("write", {"path": "crlf.txt", "content": "a\r\nb\r\n"})
    assert (cwd / "crlf.txt").read_bytes() == b"a\r\nb\r\n"


async def test_writes_through_a_symlink(run, cwd: Path) -> None:
    (cwd / "real.txt").write_text("old")
    (cwd / "link.txt").symlink_to(cwd / "real.txt")
    await run("write", {"path": "link.txt", "content": "new"})
    assert (cwd / "link.txt").is_symlink()
    assert (cwd / "real.txt").read_text() == "new"


async def test_path_outside_the_cwd(run, tmp_path: Path) -> None:
    target = tmp_path / "outside" / "x.txt"
    outcome = await run("write", {"path": str(target), "content": "x"})
    assert outcome.result.text_content() == f"Successfully wrote 1 bytes to {target}"
    assert target.read_text() == "x"


async def test_a_crash_mid_write_leaves_the_original(
    run, cwd: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = cwd / "important.txt"
    original.write_text("precious original content")

    def crash_halfway(handle: BinaryIO, data: bytes) -> None:
        handle.write(data[: len(data) // 2])
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(fileio, "_write_payload", crash_halfway)
    outcome = await run("write", {"path": "important.txt", "content": "N" * 10_000})
    assert outcome.is_error
    assert "No space left on device" in outcome.result.text_content()
    assert original.read_text() == "precious original content"
    assert sorted(os.listdir(cwd)) == ["important.txt"]  # the temp file is gone too


async def test_writing_onto_a_directory_fails(run, cwd: Path) -> None:
    (cwd / "dir").mkdir()
    outcome = await run("write", {"path": "dir", "content": "x"})
    assert outcome.is_error and "is a directory" in outcome.result.text_content()


async def test_aborted_write_changes_nothing(run, cwd: Path) -> None:
    from pi_core.abort import AbortController

    controller = AbortController()
    controller.abort()
    outcome = await run("write", {"path": "x.txt", "content": "x"}, controller.signal)
    assert outcome.result.text_content() == "Operation aborted"
    assert not (cwd / "x.txt").exists()


def test_atomic_write_can_be_called_off_before_the_rename(tmp_path: Path) -> None:
    target = tmp_path / "f.txt"
    target.write_text("old")
    assert files.atomic_write(str(target), b"new", should_commit=lambda: False) is False
    assert target.read_text() == "old"
    assert os.listdir(tmp_path) == ["f.txt"]
