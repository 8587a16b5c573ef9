"""How the suite runs: as `<venv>/bin/python -m pytest` from a bare environment (no activated
venv, a PATH without it, an empty HOME: a few representative tests run that way in a child
pytest), on parallel workers by default, and without the end-to-end tests under `-m "not slow"`."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pi_core.testing import console_script, path_with_scripts, scripts_dir

ROOT = Path(__file__).resolve().parents[1]

REPRESENTATIVE = [
    # `pi` found by the tests (console_script)
    "tests/cli/test_print_mode.py::test_print_mode_runs_tools_and_prints_the_final_answer",
    # `pi` in a tmux pane, its own tmux server
    "tests/interactive/test_repl_basics.py::test_startup_shows_header_editor_and_footer",
    # `pi-claude` through its fixture
    "plugins/pi-plugin-claude/tests/test_cli.py::test_unknown_flag_exits_1_with_a_clear_message",
    # `pi` looked up on PATH by name, in a child's environment
    "plugins/pi-plugin-claude/tests/test_subagent_gate.py"
    "::test_a_subagent_reads_claude_memory_as_its_parent_does",
]


def test_console_script_is_the_one_next_to_the_interpreter(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    assert console_script("pi") == str(Path(sys.executable).parent / "pi")
    with pytest.raises(FileNotFoundError, match="pi-no-such-script"):
        console_script("pi-no-such-script")


def test_path_with_scripts_puts_the_scripts_folder_first_once() -> None:
    folder = str(scripts_dir())
    assert path_with_scripts(f"/usr/bin:{folder}:/bin") == f"{folder}:/usr/bin:/bin"
    assert os.environ["PATH"].split(os.pathsep)[0] == folder  # the root conftest did it


@pytest.mark.slow
def test_representative_tests_pass_without_an_activated_venv(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    bare = {"PATH": "/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8"}
    argv = [sys.executable, "-m", "pytest", "-n", "0", "-p", "no:cacheprovider",
            f"--basetemp={tmp_path / 'run'}", "-rs", *REPRESENTATIVE]  # fmt: skip
    done = subprocess.run(argv, cwd=ROOT, env=bare, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert f"{len(REPRESENTATIVE)} passed" in done.stdout, done.stdout[-2000:]


def _pytest(*args: str) -> subprocess.CompletedProcess[str]:
    """Run pytest in the checkout as a user does, with the project's configuration."""
    argv = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args]
    return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=300)


UNIT = "tests/test_suite_setup.py::test_path_with_scripts_puts_the_scripts_folder_first_once"
REPL = "tests/interactive/test_repl_basics.py::test_startup_shows_header_editor_and_footer"


@pytest.mark.slow
def test_the_plain_command_runs_the_tests_on_parallel_workers(tmp_path: Path) -> None:
    done = _pytest("-v", f"--basetemp={tmp_path / 'run'}", UNIT)  # -v undoes addopts' -q
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert re.search(r"^created: \d+/\d+ workers?$", done.stdout, re.M), done.stdout[-2000:]


def test_not_slow_leaves_out_the_tests_that_drive_the_real_pi() -> None:
    done = _pytest("-n", "0", "--collect-only", "-m", "not slow", UNIT, REPL)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert UNIT in done.stdout and REPL not in done.stdout, done.stdout
