"""What `pi` answers to a mistyped command line: the hint names `pi`, the help lists everything."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest


def run(pi_bin: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [pi_bin, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize("args", [("--bogus",), ("-p", "--bogus", "hi"), ("hi", "--bogus")])
def test_an_unknown_flag_points_at_pi_help(
    pi_bin: str, project: Path, args: tuple[str, ...]
) -> None:
    result = run(pi_bin, *args, cwd=project)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "Error: No such option '--bogus'" in result.stderr
    assert "Try 'pi --help' for help." in result.stderr
    assert "pi run" not in result.stderr
    assert result.stderr.startswith("Usage: pi [OPTIONS] [@FILES]... [MESSAGES]...\n")


def test_a_subcommand_hint_names_the_subcommand(pi_bin: str, project: Path) -> None:
    result = run(pi_bin, "plugins", "--bogus", cwd=project)
    assert result.returncode == 2
    assert "Try 'pi plugins --help' for help." in result.stderr


def test_help_lists_pis_options_and_the_subcommands(pi_bin: str, project: Path) -> None:
    result = run(pi_bin, "--help", cwd=project)
    assert result.returncode == 0
    assert result.stdout.startswith("Usage: pi [OPTIONS] [@FILES]... [MESSAGES]...")
    for option in ("-p, --print", "--model TEXT", "-e, --extension TEXT", "--list-models"):
        assert option in result.stdout
    for command in ("pi install <spec>", "pi remove <spec>", "pi update", "pi list", "pi plugins"):
        assert command in result.stdout
    assert "pi run" not in result.stdout
