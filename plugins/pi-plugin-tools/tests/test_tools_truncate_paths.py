"""Truncation helpers and path resolution, checked against pi's behaviour."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from pi_plugin_tools.globmatch import compile_glob
from pi_plugin_tools.paths import expand_path, resolve_read_path, resolve_to_cwd, shorten_path
from pi_plugin_tools.truncate import (
    format_size,
    truncate_head,
    truncate_line,
    truncate_tail,
)


def test_format_size_rounds_like_javascript() -> None:
    assert format_size(0) == "0B"
    assert format_size(1023) == "1023B"
    assert format_size(1024) == "1.0KB"
    assert format_size(1280) == "1.3KB"  # 1.25 rounds up, as toFixed(1) does
    assert format_size(50 * 1024) == "50.0KB"
    assert format_size(3 * 1024 * 1024 // 2) == "1.5MB"


def test_truncate_head_by_lines_and_bytes() -> None:
    untouched = truncate_head("a\nb", max_lines=5, max_bytes=100)
    assert not untouched.truncated and untouched.total_lines == 2
    by_lines = truncate_head("1\n2\n3\n4", max_lines=2, max_bytes=100)
    assert (by_lines.content, by_lines.truncated_by, by_lines.output_lines) == ("1\n2", "lines", 2)
    by_bytes = truncate_head("aaaa\nbbbb\ncccc", max_lines=10, max_bytes=9)
    assert (by_bytes.content, by_bytes.truncated_by) == ("aaaa\nbbbb", "bytes")
    first_too_long = truncate_head("x" * 20 + "\nshort", max_lines=10, max_bytes=10)
    assert first_too_long.first_line_exceeds_limit and first_too_long.content == ""


def test_truncate_tail_keeps_the_end_and_may_cut_the_last_line() -> None:
    tail = truncate_tail("1\n2\n3\n4", max_lines=2, max_bytes=100)
    assert (tail.content, tail.truncated_by) == ("3\n4", "lines")
    partial = truncate_tail("short\n" + "é" * 10, max_lines=10, max_bytes=7)
    assert partial.last_line_partial and partial.content == "é" * 3  # whole characters only


def test_truncate_line_marker() -> None:
    assert truncate_line("abc", 5) == ("abc", False)
    assert truncate_line("abcdefgh", 5) == ("abcde... [truncated]", True)


def test_resolve_relative_absolute_and_outside_paths(tmp_path: Path) -> None:
    cwd = str(tmp_path / "project")
    assert resolve_to_cwd("src/a.py", cwd) == os.path.join(cwd, "src", "a.py")
    assert resolve_to_cwd("../other/b.txt", cwd) == str(tmp_path / "other" / "b.txt")
    assert resolve_to_cwd("/etc/hosts", cwd) == "/etc/hosts"
    assert resolve_to_cwd("@src/a.py", cwd) == os.path.join(cwd, "src", "a.py")


def test_tilde_and_unicode_spaces(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    assert expand_path("~") == str(tmp_path)
    assert expand_path("~/notes.md") == f"{tmp_path}/notes.md"
    assert expand_path("my\u00a0file.txt") == "my file.txt"
    assert shorten_path(f"{tmp_path}/x") == "~/x"


def test_read_path_finds_macos_screenshot_spelling(tmp_path: Path) -> None:
    real = tmp_path / "Screenshot 2024 at 10.00.00\u202fAM.png"
    real.write_bytes(b"")
    typed = "Screenshot 2024 at 10.00.00 AM.png"
    assert resolve_read_path(typed, str(tmp_path)) == str(real)


@pytest.mark.parametrize(
    ("pattern", "subject", "matches"),
    [
        ("*.py", "a.py", True),
        ("*.py", "A.PY", True),  # smart case: all-lowercase patterns ignore case
        ("*.PY", "a.py", False),
        ("**/src/**/*.ts", "/r/src/a/b/c.ts", True),
        ("**/src/*.ts", "/r/src/a/c.ts", False),  # * stays within one folder
        ("{a,b}.txt", "b.txt", True),
        ("file?.md", "file1.md", True),
        ("[!a]x", "bx", True),
        ("[!a]x", "ax", False),
        ("**", "/any/thing", True),
    ],
)
def test_glob_matching_as_fd_does(pattern: str, subject: str, matches: bool) -> None:
    assert bool(compile_glob(pattern).match(subject)) is matches
