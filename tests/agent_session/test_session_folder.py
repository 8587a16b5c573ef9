"""The folder an SDK session works in follows the opened session file, as in pi 0.73.1:
`create_agent_session(session=SessionManager.open(path))` without `cwd` works in the file's
stored folder, and `switch_session` moves `cwd`, `ctx.cwd`, project settings and context files."""

from __future__ import annotations

import json
from pathlib import Path

from pi_core.plugins.manager import LoadOptions
from pi_core.sdk import create_agent_session
from pi_core.session.manager import SessionManager
from tests.agent_session.conftest import Harness
from tests.session.saved_sessions import write_saved_session


def project_of(folder: Path, marker: str, steering: str) -> Path:
    """A folder with its own AGENTS.md and project settings."""
    (folder / ".pi").mkdir(parents=True)
    (folder / "AGENTS.md").write_text(marker + "\n")
    (folder / ".pi" / "settings.json").write_text(json.dumps({"steeringMode": steering}))
    return folder


async def test_an_opened_file_without_cwd_works_in_its_stored_folder(harness: Harness) -> None:
    there = project_of(harness.cwd.parent / "there", "PLUMS-MARKER", "all")
    path = write_saved_session(harness.agent_dir, there)
    session = await create_agent_session(
        agent_dir=harness.agent_dir,
        model="fake/fake-model",
        session=SessionManager.open(path),
        load_options=LoadOptions(extension_paths=[]),
    )
    try:
        assert session.cwd == str(there)
        assert f"Current working directory: {there}" in session.base_system_prompt
        assert "PLUMS-MARKER" in session.base_system_prompt
        assert session.settings.get_steering_mode() == "all"
    finally:
        await session.shutdown()


async def test_switch_session_moves_the_session_and_new_session_stays(harness: Harness) -> None:
    project_of(harness.cwd, "APPLES-MARKER", "one-at-a-time")
    there = project_of(harness.cwd.parent / "there", "PLUMS-MARKER", "all")
    path = write_saved_session(harness.agent_dir, there)
    session = await harness.session()
    try:
        assert "APPLES-MARKER" in session.base_system_prompt
        await session.switch_session(str(path))
        assert session.cwd == str(there) and session.plugins.runtime.cwd == str(there)
        assert f"Current working directory: {there}" in session.base_system_prompt
        assert "PLUMS-MARKER" in session.base_system_prompt
        assert "APPLES-MARKER" not in session.base_system_prompt
        assert session.settings.get_steering_mode() == "all"
        assert session.agent.steering_mode == "all"
        await session.new_session()
        assert session.session_manager.get_header().cwd == str(there)
        assert session.cwd == str(there)
    finally:
        await session.shutdown()
