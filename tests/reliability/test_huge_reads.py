"""`read` on a 2 GB sparse file with a text header, through the real `pi -p`: the answer is the
first lines with pi's continuation note, and pi's own peak memory stays that of a small read."""

from __future__ import annotations

import os
import subprocess

from pi_core.testing import chat_stream, console_script
from tests.cli.conftest import Cli

HEADER = b"".join(b"line %d\n" % n for n in range(5000))


def run_pi_measured(cli: Cli, *args: str) -> tuple[int, int]:
    """Run `pi args…`; return its exit status and its own peak RSS in KiB (from wait4)."""
    pi = console_script("pi")
    process = subprocess.Popen(
        [pi, *args], cwd=cli.cwd, env=cli.env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return process.returncode, usage.ru_maxrss


def read_through_pi(cli: Cli, name: str) -> tuple[str, int]:
    """Script a `read` of `name`; return the tool result the model got back and pi's peak KiB."""
    cli.server.queue(chat_stream(tool_calls=[("read", {"path": name})]), chat_stream("ok"))
    status, peak = run_pi_measured(cli, "--no-session", "-p", f"read {name}")
    assert status == 0
    tool_message = cli.server.requests[-1].json()["messages"][-1]
    assert tool_message["role"] == "tool"
    return tool_message["content"], peak


def test_a_2gb_sparse_file_reads_in_bounded_memory(cli: Cli) -> None:
    (cli.cwd / "small.log").write_bytes(HEADER)
    with (cli.cwd / "huge.log").open("wb") as handle:
        handle.write(HEADER)
        handle.truncate(2 << 30)  # 2 GB; the rest is a hole of zero bytes

    small_text, small_peak = read_through_pi(cli, "small.log")
    huge_text, huge_peak = read_through_pi(cli, "huge.log")

    assert small_text.endswith("[Showing lines 1-2000 of 5001. Use offset=2001 to continue.]")
    assert huge_text.endswith("[Showing lines 1-2000 of 5001. Use offset=2001 to continue.]")
    assert huge_text.startswith("line 0\nline 1\n")
    assert huge_peak - small_peak < 64 * 1024, f"{small_peak // 1024} -> {huge_peak // 1024} MiB"


def test_reading_past_the_end_of_a_huge_file_says_so(cli: Cli) -> None:
    with (cli.cwd / "huge.log").open("wb") as handle:
        handle.write(HEADER)
        handle.truncate(1 << 30)
    cli.server.queue(
        chat_stream(tool_calls=[("read", {"path": "huge.log", "offset": 9000})]),
        chat_stream("ok"),
    )
    status, _ = run_pi_measured(cli, "--no-session", "-p", "read past the end")
    assert status == 0
    tool_message = cli.server.requests[-1].json()["messages"][-1]
    assert tool_message["content"] == "Offset 9000 is beyond end of file (5001 lines total)"
