"""`grep`, `find` and `ls`: ripgrep-backed search, .gitignore, limits and pi's notes."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import threading
from pathlib import Path
from typing import IO

import pytest

from pi_core.abort import AbortController
from pi_core.tools.inputs import FindToolDetails, GrepToolDetails, LsToolDetails


def make_tree(root: Path) -> None:
    (root / "src" / "sub").mkdir(parents=True)
    (root / "src" / "main.py").write_text("import os\nprint('Hello')\n")
    (root / "src" / "sub" / "util.py").write_text("def hello():\n    return 'hello'\n")
    (root / "README.md").write_text("# Hello project\n")
    (root / ".hidden.txt").write_text("hello from a dotfile\n")
    (root / "build").mkdir()
    (root / "build" / "out.py").write_text("hello = 'generated'\n")
    (root / ".gitignore").write_text("build/\n")


def git_init(root: Path) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    subprocess.run(["git", "init", "-q", str(root)], check=True)


# --- grep --------------------------------------------------------------------------------------


async def test_grep_matches_with_relative_paths(run, cwd: Path) -> None:
    make_tree(cwd)
    git_init(cwd)
    outcome = await run("grep", {"pattern": "hello"})
    assert not outcome.is_error
    lines = sorted(outcome.result.text_content().split("\n"))
    assert lines == [
        ".hidden.txt:1: hello from a dotfile",
        "src/sub/util.py:1: def hello():",
        "src/sub/util.py:2:     return 'hello'",
    ]  # build/ is git-ignored; .hidden.txt is searched


async def test_grep_ignore_case_literal_and_glob(run, cwd: Path) -> None:
    make_tree(cwd)
    git_init(cwd)
    ignore_case = await run("grep", {"pattern": "HELLO", "ignoreCase": True, "glob": "*.md"})
    assert ignore_case.result.text_content() == "README.md:1: # Hello project"
    literal = await run("grep", {"pattern": "print('Hello')", "literal": True})
    assert literal.result.text_content() == "src/main.py:2: print('Hello')"


async def test_grep_context_lines(run, cwd: Path) -> None:
    (cwd / "a.txt").write_text("one\ntwo\nthree\nfour\n")
    outcome = await run("grep", {"pattern": "three", "context": 1})
    assert outcome.result.text_content() == "a.txt-2- two\na.txt:3: three\na.txt-4- four"


async def test_grep_a_single_file_shows_its_name(run, cwd: Path) -> None:
    make_tree(cwd)
    outcome = await run("grep", {"pattern": "def", "path": "src/sub/util.py"})
    assert outcome.result.text_content() == "util.py:1: def hello():"


async def test_grep_match_limit_note(run, cwd: Path) -> None:
    (cwd / "many.txt").write_text("hit\n" * 50)
    outcome = await run("grep", {"pattern": "hit", "limit": 5})
    text = outcome.result.text_content()
    assert text.split("\n\n")[0].count("hit") == 5
    assert text.endswith("[5 matches limit reached. Use limit=10 for more, or refine pattern]")
    details = outcome.result.details
    assert isinstance(details, GrepToolDetails) and details.match_limit_reached == 5


async def test_grep_long_lines_are_shortened(run, cwd: Path) -> None:
    (cwd / "wide.txt").write_text("needle " + "z" * 1000 + "\n")
    outcome = await run("grep", {"pattern": "needle"})
    text = outcome.result.text_content()
    assert ("needle " + "z" * 493 + "... [truncated]") in text
    assert text.endswith("[Lines over 500 chars were shortened. The read tool shows them whole]")
    assert outcome.result.details.lines_truncated is True


async def test_grep_byte_limit_note(run, cwd: Path) -> None:
    (cwd / "big.txt").write_text(("match " + "y" * 400 + "\n") * 200)
    outcome = await run("grep", {"pattern": "match", "limit": 500})
    text = outcome.result.text_content()
    assert text.endswith("[50.0KB limit reached]")
    assert outcome.result.details.truncation.truncated


async def test_grep_invalid_regex(run, cwd: Path) -> None:
    (cwd / "a.txt").write_text("x")
    outcome = await run("grep", {"pattern": "foo(bar"})
    assert outcome.is_error
    text = outcome.result.text_content()
    assert text.startswith("Invalid regex pattern 'foo(bar' (set literal: true")
    assert "regex parse error" in text


async def test_grep_no_matches_and_missing_path(run, cwd: Path) -> None:
    (cwd / "a.txt").write_text("x")
    none = await run("grep", {"pattern": "absent"})
    assert none.result.text_content() == "No matches found" and none.result.details is None
    missing = await run("grep", {"pattern": "x", "path": "nope"})
    assert missing.is_error
    assert missing.result.text_content() == f"Path not found: {cwd / 'nope'}"


# --- find --------------------------------------------------------------------------------------


async def test_find_by_name_sorted_and_gitignore_aware(run, cwd: Path) -> None:
    make_tree(cwd)  # no git repository needed: .gitignore applies anyway, as with fd
    outcome = await run("find", {"pattern": "*.py"})
    assert outcome.result.text_content() == "src/main.py\nsrc/sub/util.py"


async def test_find_path_patterns_folders_and_dotfiles(run, cwd: Path) -> None:
    make_tree(cwd)
    git_init(cwd)
    nested = await run("find", {"pattern": "src/**/*.py"})
    assert nested.result.text_content() == "src/main.py\nsrc/sub/util.py"
    deeper = await run("find", {"pattern": "sub/*.py"})
    assert deeper.result.text_content() == "src/sub/util.py"
    folders = await run("find", {"pattern": "sub"})
    assert folders.result.text_content() == "src/sub/"
    everything = (await run("find", {"pattern": "*"})).result.text_content().split("\n")
    assert ".hidden.txt" in everything and ".gitignore" in everything
    assert not any(p.startswith((".git/", "build")) for p in everything)


async def test_find_limit_note(run, cwd: Path) -> None:
    for i in range(12):
        (cwd / f"f{i:02d}.txt").write_text("")
    outcome = await run("find", {"pattern": "*.txt", "limit": 5})
    text = outcome.result.text_content()
    assert text.split("\n\n")[0] == "f00.txt\nf01.txt\nf02.txt\nf03.txt\nf04.txt"
    assert text.endswith("[5 results limit reached. Use limit=10 for more, or refine pattern]")
    details = outcome.result.details
    assert isinstance(details, FindToolDetails) and details.result_limit_reached == 5


async def test_find_nothing_and_errors(run, cwd: Path) -> None:
    (cwd / "a.txt").write_text("")
    none = await run("find", {"pattern": "*.rs"})
    assert none.result.text_content() == "No files found matching pattern"
    missing = await run("find", {"pattern": "*", "path": "nope"})
    assert missing.result.text_content() == f"Path not found: {cwd / 'nope'}"
    not_dir = await run("find", {"pattern": "*", "path": "a.txt"})
    assert not_dir.result.text_content() == f"Not a directory: {cwd / 'a.txt'}"


async def test_find_outside_the_cwd(run, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "x.md").write_text("")
    outcome = await run("find", {"pattern": "*.md", "path": "../other"})
    assert outcome.result.text_content() == "x.md"


# --- ls ----------------------------------------------------------------------------------------


async def test_ls_sorted_with_folders_and_dotfiles(run, cwd: Path) -> None:
    make_tree(cwd)
    outcome = await run("ls", {})
    assert outcome.result.text_content() == (".gitignore\n.hidden.txt\nbuild/\nREADME.md\nsrc/")
    sub = await run("ls", {"path": "src"})
    assert sub.result.text_content() == "main.py\nsub/"


async def test_ls_limit_note(run, cwd: Path) -> None:
    for i in range(7):
        (cwd / f"e{i}").write_text("")
    outcome = await run("ls", {"limit": 3})
    assert outcome.result.text_content() == (
        "e0\ne1\ne2\n\n[3 entries limit reached. Use limit=6 for more]"
    )
    details = outcome.result.details
    assert isinstance(details, LsToolDetails) and details.entry_limit_reached == 3


async def test_ls_empty_missing_and_not_a_folder(run, cwd: Path) -> None:
    assert (await run("ls", {})).result.text_content() == "(empty directory)"
    (cwd / "f").write_text("")
    not_dir = await run("ls", {"path": "f"})
    assert not_dir.is_error and not_dir.result.text_content() == f"Not a directory: {cwd / 'f'}"
    missing = await run("ls", {"path": "nope"})
    assert missing.result.text_content() == f"Path not found: {cwd / 'nope'}"


async def test_ls_orders_names_like_javascript_localecompare(run, cwd: Path) -> None:
    for name in [
        "Zeta",
        "émile",
        "eve",
        "_private",
        "-dash",
        ".env",
        "10.txt",
        "9.txt",
        "a.b",
        "ab",
    ]:
        (cwd / name).write_text("")
    outcome = await run("ls", {})
    assert outcome.result.text_content().split("\n") == [
        "_private", "-dash", ".env", "10.txt", "9.txt", "a.b", "ab", "émile", "eve", "Zeta",
    ]  # fmt: skip


async def test_find_output_is_sorted_folder_by_folder(run, cwd: Path) -> None:
    for path in ["a/x.md", "a.md", "B/y.md", "b.md"]:
        (cwd / path).parent.mkdir(exist_ok=True)
        (cwd / path).write_text("")
    outcome = await run("find", {"pattern": "*.md"})
    assert outcome.result.text_content() == "B/y.md\na/x.md\na.md\nb.md"


async def test_grep_abort_stops_ripgrep(run, cwd: Path, live_processes) -> None:
    pipe = cwd / "stuck.pipe"
    os.mkfifo(pipe)  # rg blocks reading a pipe that is open for writing but never written to
    loop = asyncio.get_running_loop()
    rg_opened_it = asyncio.Event()
    writer: list[IO[str]] = []

    def hold_open() -> None:
        writer.append(open(pipe, "w"))  # noqa: SIM115 - returns once a reader (rg) opens the pipe
        loop.call_soon_threadsafe(rg_opened_it.set)

    threading.Thread(target=hold_open, daemon=True).start()
    controller = AbortController()
    task = asyncio.ensure_future(
        run("grep", {"pattern": "never", "path": "stuck.pipe"}, controller.signal)
    )
    try:
        await asyncio.wait_for(rg_opened_it.wait(), 30)
        assert live_processes("stuck.pipe")
        controller.abort()
        outcome = await asyncio.wait_for(task, 30)
    finally:
        for handle in writer:
            handle.close()
    assert outcome.is_error and outcome.result.text_content() == "Operation aborted"
    assert live_processes("stuck.pipe") == []


async def test_every_tool_honours_an_abort_that_already_happened(run, cwd: Path) -> None:
    (cwd / "a.txt").write_text("x")
    controller = AbortController()
    controller.abort()
    calls = {
        "read": {"path": "a.txt"},
        "write": {"path": "b.txt", "content": "x"},
        "edit": {"path": "a.txt", "edits": [{"oldText": "x", "newText": "y"}]},
        "grep": {"pattern": "x"},
        "find": {"pattern": "*"},
        "ls": {},
    }
    for name, args in calls.items():
        outcome = await run(name, args, controller.signal)
        assert outcome.result.text_content() == "Operation aborted", name
    assert (cwd / "a.txt").read_text() == "x" and not (cwd / "b.txt").exists()
    bash = await run("bash", {"command": "touch ran.txt"}, controller.signal)
    assert bash.is_error and bash.result.text_content() == "Command aborted"
    assert not (cwd / "ran.txt").exists()
