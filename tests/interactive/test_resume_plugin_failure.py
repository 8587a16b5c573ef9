"""`/resume` of a session whose folder has a plugin that fails to load: the REPL says which file
failed and why, and the session stays where it was (fail closed; see docs/sessions.md)."""

from __future__ import annotations

from tests.interactive.conftest import Screen
from tests.interactive.test_resume_session_cwd import footer_place
from tests.session.saved_sessions import resume_saved_session, write_saved_session


def test_resume_into_a_folder_whose_plugin_fails_stays_and_says_why(screen: Screen) -> None:
    there = screen.cwd.parent / "there"
    (there / ".pi" / "extensions").mkdir(parents=True)
    broken = there / ".pi" / "extensions" / "broken.py"
    broken.write_text("import pi_dependency_that_is_not_installed\n")
    write_saved_session(screen.agent_dir, there)
    screen.start()
    screen.ready()
    resume_saved_session(screen)
    text = screen.wait_for("Resume cancelled")
    assert f'Failed to load extension "{broken}"' in text.replace("\n", "")
    assert "pi_dependency_that_is_not_installed" in text
    assert "plums noted" not in text
    assert footer_place(text) == "~/project"


def test_pi_r_choosing_such_a_session_exits_1_with_the_error(screen: Screen) -> None:
    """pi 0.73.1 opens the `-r` choice as it starts: its folder's failing plugin is a start-up
    error (on stderr, exit code 1), not a cancelled resume."""
    there = screen.cwd.parent / "there"
    (there / ".pi" / "extensions").mkdir(parents=True)
    broken = there / ".pi" / "extensions" / "broken.py"
    broken.write_text("import pi_dependency_that_is_not_installed\n")
    write_saved_session(screen.agent_dir, there)
    screen.start("-r")
    screen.wait_for("Resume Session")
    screen.keys("Tab")  # all folders: the saved session is not of this one
    screen.wait_for("→ remember plums")
    screen.keys("Enter")
    text = screen.wait_for("EXIT=")
    assert "EXIT=1" in text
    assert f'Error: Failed to load extension "{broken}"' in text.replace("\n", "")
    assert "Resume cancelled" not in text
