"""A saved session whose folder is gone, in `pi -p`, `--mode json` and `--mode rpc`: refused as
pi 0.73.1 refuses it (exit code 1, the missing folder, the file and the current folder named),
nothing sent to the model, the file left as it was."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from pi_core.testing import chat_stream, console_script
from tests.cli.conftest import Cli
from tests.cli.rpc_script import RpcProcess
from tests.session.saved_sessions import write_saved_session


def saved_session(cli: Cli, cwd: Path) -> Path:
    """A session of `cwd` holding one exchange, written where pi keeps sessions."""
    return write_saved_session(cli.agent_dir, cwd)


def assert_refusal(text: str, gone: Path, session: Path, here: Path) -> None:
    assert "no longer exists" in text
    assert str(gone) in text and str(session) in text and str(here) in text


@pytest.mark.parametrize(
    "mode", [("-p", "go on"), ("--mode", "json", "go on"), ("--mode", "rpc")], ids=str
)
def test_a_session_whose_folder_is_gone_is_refused(cli: Cli, mode: tuple[str, ...]) -> None:
    gone = cli.cwd.parent / "gone"
    session = saved_session(cli, gone)
    before = session.read_bytes()
    result = cli.run("--session", str(session), *mode, stdin="")
    assert result.returncode == 1, result.stderr
    assert result.stdout == ""
    assert_refusal(result.stderr, gone, session, cli.cwd)
    assert cli.server.requests == []
    assert session.read_bytes() == before and not gone.exists()


def test_a_session_whose_folder_exists_still_opens(cli: Cli) -> None:
    there = cli.cwd.parent / "there"
    there.mkdir()
    session = saved_session(cli, there)
    cli.server.queue(chat_stream("still plums"))
    result = cli.run("--session", str(session), "-p", "go on")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "still plums\n"
    assert "plums noted" in json.dumps(cli.server.requests[0].json()["messages"])


def test_forking_moves_such_a_session_here(cli: Cli) -> None:
    """`--fork` writes a new session of the current folder (pi's way to move one): allowed."""
    session = saved_session(cli, cli.cwd.parent / "gone")
    cli.server.queue(chat_stream("forked plums"))
    result = cli.run("--fork", str(session), "-p", "go on")
    assert result.returncode == 0, result.stderr
    assert "plums noted" in json.dumps(cli.server.requests[0].json()["messages"])


def test_rpc_switch_session_to_it_is_an_error_and_the_session_stays(cli: Cli) -> None:
    gone = cli.cwd.parent / "gone"
    session = saved_session(cli, gone)
    process = RpcProcess([console_script("pi"), "--mode", "rpc"], cli.cwd, cli.env)
    process.send({"id": "s0", "type": "get_state"})
    process.read_until(lambda r: r.get("id") == "s0")
    first_file = process.records[-1]["data"]["sessionFile"]
    process.send({"id": "sw", "type": "switch_session", "sessionPath": str(session)})
    process.read_until(lambda r: r.get("id") == "sw")
    answer = process.records[-1]
    assert answer["type"] == "response" and answer["command"] == "switch_session"
    assert answer["success"] is False
    assert_refusal(answer["error"], gone, session, cli.cwd)
    process.send({"id": "s1", "type": "get_state"})
    process.read_until(lambda r: r.get("id") == "s1")
    assert process.records[-1]["data"]["sessionFile"] == first_file
    process.send({"id": "m", "type": "get_messages"})
    process.read_until(lambda r: r.get("id") == "m")
    assert process.records[-1]["data"]["messages"] == []
    assert "Traceback" not in process.close()


@pytest.mark.parametrize("mode", [("-p",), ("--mode", "json")], ids=str)
def test_a_gone_folder_is_reported_before_a_missing_prompt(cli: Cli, mode: tuple[str, ...]) -> None:
    """pi checks the session's folder before it asks for a prompt."""
    gone = cli.cwd.parent / "gone"
    session = saved_session(cli, gone)
    result = cli.run("--session", str(session), *mode, stdin="")
    assert result.returncode == 1, result.stderr
    assert_refusal(result.stderr, gone, session, cli.cwd)
    assert "No prompt given" not in result.stderr


def test_a_hostile_stored_folder_reaches_a_terminal_without_its_escape_sequences(
    cli: Cli,
) -> None:
    gone = cli.cwd.parent / "gone\x1b]0;pwned\x07\x1b[2J"
    session = saved_session(cli, gone)
    master, slave = os.openpty()
    process = subprocess.Popen(
        [console_script("pi"), "--session", str(session), "-p", "go on"],
        cwd=cli.cwd, env=cli.env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=slave, close_fds=True,
    )  # fmt: skip
    os.close(slave)
    written = b""
    while True:  # until pi exits and the terminal is closed
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        written += chunk
    os.close(master)
    assert process.wait(timeout=60) == 1
    assert b"no longer exists" in written and b"gone" in written
    assert b"\x1b" not in written and b"\x07" not in written
