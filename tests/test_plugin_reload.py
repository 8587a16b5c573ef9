"""Reloading plugins from files and folders: packages afresh; a failure leaves all as it was."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from pi_core.plugins.errors import PluginLoadFailed
from pi_core.plugins.manager import LoadOptions
from pi_core.sdk import create_agent_session
from pi_core.session.manager import SessionManager

INIT = """
from pi_core import hookimpl

from .words import WORD


@hookimpl
def register_commands(register):
    register("word", lambda args, ctx: None, description=WORD)
"""


async def test_a_package_and_its_submodules_are_imported_afresh(
    tmp_path: Path, isolated_agent_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)  # a .pyc is cached, as for users
    package = tmp_path / "wordy"
    package.mkdir()
    (package / "__init__.py").write_text(INIT)
    (package / "words.py").write_text('WORD = "one"\n')
    session = await create_agent_session(
        cwd=tmp_path,
        agent_dir=isolated_agent_dir,
        load_options=LoadOptions(extension_paths=[str(package)], installed=False),
        session=SessionManager.in_memory(str(tmp_path)),
    )
    assert session.plugins.registry.commands["word"].description == "one"
    words = package / "words.py"
    stamp = words.stat().st_mtime_ns
    words.write_text('WORD = "two"\n')
    os.utime(words, ns=(stamp, stamp))  # same size, same second: the .pyc looks up to date
    assert await session.reload() == []
    assert session.plugins.registry.commands["word"].description == "two"

    before = {name: module for name, module in sys.modules.items() if "wordy" in name}
    (package / "words.py").write_text("WORD = \n")
    errors = await session.reload()
    assert [error.source for error in errors] == [str(package)]
    assert "SyntaxError" in errors[0].error
    assert session.plugins.registry.commands["word"].description == "two"
    assert {n: m for n, m in sys.modules.items() if "wordy" in n} == before
    assert len(session.plugins.plugins) == 1


async def test_a_file_added_to_an_extension_folder_loads_and_ctx_reload_raises_on_failure(
    tmp_path: Path, isolated_agent_dir: Path
) -> None:
    folder = tmp_path / ".pi" / "extensions"
    folder.mkdir(parents=True)
    command = "from pi_core import hookimpl\n\n@hookimpl\ndef register_commands(register):\n"
    (folder / "first.py").write_text(command + "    register('first', lambda a, c: None)\n")
    session = await create_agent_session(
        cwd=tmp_path,
        agent_dir=isolated_agent_dir,
        load_options=LoadOptions(installed=False),
        session=SessionManager.in_memory(str(tmp_path)),
    )
    assert sorted(session.plugins.registry.commands) == ["first"]
    (folder / "second.py").write_text(command + "    register('second', lambda a, c: None)\n")
    await session.plugins.command_ctx.reload()
    assert sorted(session.plugins.registry.commands) == ["first", "second"]
    (folder / "second.py").write_text(command + "    raise RuntimeError('no')\n")
    with pytest.raises(PluginLoadFailed, match="RuntimeError: no"):
        await session.plugins.command_ctx.reload()
    assert sorted(session.plugins.registry.commands) == ["first", "second"]
