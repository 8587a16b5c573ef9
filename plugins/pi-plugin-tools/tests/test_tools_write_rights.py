"""`write` and `edit` change a file as the user's own write would: rights checked on the file,
owner, mode and hard links kept."""

from __future__ import annotations

import asyncio
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from pi_plugin_tools.write import WriteTool

from pi_core.tools.inputs import WriteToolInput

NOBODY = 65534


class Ctx:
    def __init__(self, cwd: Path) -> None:
        self.cwd = str(cwd)
        self.model = None


def write(cwd: Path, path: str, content: str) -> None:
    tool = WriteTool()
    asyncio.run(tool.execute("c", WriteToolInput(path=path, content=content), None, None, Ctx(cwd)))


def test_a_hard_linked_file_is_written_in_place(tmp_path: Path) -> None:
    original = tmp_path / "a.txt"
    original.write_text("old")
    os.link(original, tmp_path / "b.txt")
    inode = original.stat().st_ino

    write(tmp_path, "a.txt", "new")

    assert original.stat().st_ino == inode
    assert (tmp_path / "b.txt").read_text() == "new"


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
def test_another_users_file_keeps_its_owner_and_mode(tmp_path: Path) -> None:
    target = tmp_path / "theirs.txt"
    target.write_text("old")
    os.chown(target, NOBODY, NOBODY)
    os.chmod(target, 0o640)

    write(tmp_path, "theirs.txt", "new")

    info = target.stat()
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (NOBODY, NOBODY, 0o640)
    assert target.read_text() == "new"


WRITE_AS_USER = """
import asyncio, json, sys
from pi_core.tools.inputs import WriteToolInput
from pi_plugin_tools.write import WriteTool

class Ctx:
    cwd = sys.argv[1]
    model = None

try:
    asyncio.run(WriteTool().execute("c", WriteToolInput(path="locked.txt", content="new"),
                                    None, None, Ctx()))
    print(json.dumps({"ok": True}))
except Exception as error:
    print(json.dumps({"ok": False, "type": type(error).__name__, "message": str(error)}))
"""


def test_a_file_the_user_cannot_write_is_refused_with_eacces(tmp_path: Path) -> None:
    """The folder is writable (a rename would succeed), the file is not: refused, unchanged."""
    target = tmp_path / "locked.txt"
    target.write_text("old")
    prefix: list[str] = []
    if os.geteuid() == 0:
        # root may write anything; without the capabilities that let it, it is an ordinary user
        # for a file it does not own (setpriv is util-linux's, on every Debian system)
        os.chown(target, NOBODY, NOBODY)
        prefix = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search,-fowner"]
    os.chmod(target, 0o444)

    done = subprocess.run(
        [*prefix, sys.executable, "-c", WRITE_AS_USER, str(tmp_path)],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    outcome = json.loads(done.stdout)

    assert outcome == {
        "ok": False,
        "type": "PermissionError",
        "message": f"EACCES: permission denied, open '{target}'",
    }
    assert target.read_text() == "old"
    assert stat.S_IMODE(target.stat().st_mode) == 0o444
