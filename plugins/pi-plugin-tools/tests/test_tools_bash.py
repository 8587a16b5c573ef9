"""`bash`: output, exit codes, streaming, tail truncation with a full-output file, and killing
the whole process group on abort or timeout."""

from __future__ import annotations

import asyncio
import os
import random
import time
from pathlib import Path

from pi_core.abort import AbortController
from pi_core.tools import ToolResult
from pi_core.tools.inputs import BashToolDetails

HANG = 60
"""Seconds after which a call that should already have ended counts as hung (a bound, not a
measurement: the sleeps below last 1000 s)."""


def unique_sleep() -> str:
    """A `sleep` argument no other process on the machine uses, to find ours in /proc."""
    return f"1000.{random.randrange(10**6):06d}"


async def test_runs_in_the_session_cwd(run, cwd: Path) -> None:
    outcome = await run("bash", {"command": "pwd; echo to-stderr >&2"})
    assert not outcome.is_error
    assert outcome.result.text_content() == f"{cwd}\nto-stderr\n"
    assert outcome.result.details is None


async def test_no_output(run) -> None:
    outcome = await run("bash", {"command": "true"})
    assert outcome.result.text_content() == "(no output)"


async def test_non_zero_exit_code(run) -> None:
    outcome = await run("bash", {"command": "echo oops; exit 3"})
    assert outcome.is_error
    assert outcome.result.text_content() == "oops\n\n\nCommand exited with code 3"


async def test_bash_syntax_works(run) -> None:
    outcome = await run("bash", {"command": "a=(x y z); echo ${#a[@]} {1..3}"})
    assert outcome.result.text_content() == "3 1 2 3\n"


async def test_timeout_kills_the_group(run, live_processes) -> None:
    token = unique_sleep()
    command = f"echo begun; sleep {token}"  # a sleep of 1000 s: only the timeout ends it
    outcome = await asyncio.wait_for(run("bash", {"command": command, "timeout": 1}), HANG)
    assert outcome.is_error
    assert outcome.result.text_content() == "begun\n\n\nCommand timed out after 1 seconds"
    assert live_processes(token) == []


async def test_abort_kills_every_process_of_the_group(run, live_processes) -> None:
    token = unique_sleep()
    controller = AbortController()
    printed_up = asyncio.Event()

    def on_update(partial: ToolResult) -> None:
        if "up" in partial.text_content():
            printed_up.set()

    # "up" is printed once both sleeps are forked (a child's command line is the shell's until it
    # runs `sleep`, so all three hold the token from then on).
    command = f"sleep {token} & sleep {token} & echo up; wait; echo never"
    task = asyncio.ensure_future(run("bash", {"command": command}, controller.signal, on_update))
    await asyncio.wait_for(printed_up.wait(), HANG)
    deadline = time.monotonic() + HANG
    # a child in the middle of exec shows an empty command line for a moment (long under load)
    while len(running := live_processes(token)) < 3 and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    assert len(running) == 3  # the shell and its two sleeps
    groups = {pgid for _, pgid in running}
    assert len(groups) == 1 and groups != {os.getpgid(0)}  # its own process group
    controller.abort()
    outcome = await asyncio.wait_for(task, HANG)
    assert outcome.is_error
    assert outcome.result.text_content() == "up\n\n\nCommand aborted"
    assert live_processes(token) == []
    (pgid,) = groups
    assert not any(group == pgid for _, group in live_processes(""))


async def test_process_that_ignores_sigterm_is_killed(run, live_processes) -> None:
    token = unique_sleep()
    command = f"trap '' TERM; sleep {token} & wait"
    outcome = await asyncio.wait_for(run("bash", {"command": command, "timeout": 1}), HANG)
    assert outcome.is_error and "Command timed out after 1 seconds" in outcome.result.text_content()
    assert live_processes(token) == []


async def test_background_child_does_not_hang_the_call(run, live_processes) -> None:
    token = unique_sleep()
    # The background sleep lasts 1000 s: waiting for it would run into the hang bound.
    outcome = await asyncio.wait_for(run("bash", {"command": f"sleep {token} & echo done"}), HANG)
    assert outcome.result.text_content() == "done\n"
    for pid, _ in live_processes(token):  # as in pi, a backgrounded process outlives the call
        os.kill(pid, 9)


async def test_ten_megabytes_of_output(run) -> None:
    command = "yes $(printf 'x%.0s' {1..99}) | head -c 10000000; echo; echo LAST"
    outcome = await run("bash", {"command": command})
    details = outcome.result.details
    path = getattr(details, "full_output_path", None)
    try:
        assert not outcome.is_error
        text = outcome.result.text_content()
        assert isinstance(details, BashToolDetails)
        assert details.truncation is not None and details.truncation.truncated
        assert details.truncation.truncated_by == "bytes"
        assert path is not None and path in text
        assert len(text.encode()) < 52 * 1024
        assert text.split("\n\n[Showing lines ")[0].endswith("LAST\n")
        assert "(50.0KB limit). Full output: " in text
        with open(path, "rb") as handle:
            full = handle.read()
        assert len(full) == 10_000_000 + len("\nLAST\n")
        assert full.endswith(b"\nLAST\n")
    finally:
        if path is not None:
            os.unlink(path)


async def test_truncation_by_lines_names_the_range(run) -> None:
    outcome = await run("bash", {"command": "seq 1 3000"})
    text = outcome.result.text_content()
    path = outcome.result.details.full_output_path
    try:
        assert text.endswith(f"\n\n[Showing lines 1002-3001 of 3001. Full output: {path}]")
        assert text.startswith("1001\n1002\n") is False and text.startswith("1002\n")
    finally:
        os.unlink(path)


async def test_one_huge_line_is_cut_from_its_end(run) -> None:
    outcome = await run("bash", {"command": "head -c 80000 /dev/zero | tr '\\0' x"})
    text = outcome.result.text_content()
    path = outcome.result.details.full_output_path
    try:
        assert text.endswith(
            f"[Showing last 50.0KB of line 1 (line is 78.1KB). Full output: {path}]"
        )
    finally:
        os.unlink(path)


async def test_streams_throttled_updates(run) -> None:
    updates: list[ToolResult] = []
    command = "for i in 1 2 3 4 5 6; do echo tick $i; sleep 0.05; done"
    outcome = await run("bash", {"command": command}, on_update=updates.append)
    assert not outcome.is_error
    assert updates[0].content == []  # the first update says "started"
    texts = [u.text_content() for u in updates[1:]]
    assert texts and texts[-1] == "tick 1\ntick 2\ntick 3\ntick 4\ntick 5\ntick 6\n"
    assert len(texts) < 8  # throttled to one update per 100 ms
    assert all(isinstance(u.details, BashToolDetails) for u in updates[1:])


async def test_missing_working_directory(run, cwd: Path) -> None:
    os.rmdir(cwd)
    outcome = await run("bash", {"command": "echo hi"})
    assert outcome.is_error
    assert outcome.result.text_content() == (
        f"Working directory does not exist: {cwd}\nCannot execute bash commands."
    )


async def test_killed_by_a_signal(run) -> None:
    outcome = await run("bash", {"command": "kill -9 $$"})
    assert outcome.is_error
    assert outcome.result.text_content() == "(no output)\n\nCommand was killed by SIGKILL"
