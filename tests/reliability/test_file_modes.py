"""Sessions and command logs hold code and output: owner-only, and logs go with the session."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from pi_core.testing import chat_stream
from tests.cli.conftest import Cli


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_session_files_are_0600_in_0700_folders(cli: Cli) -> None:
    cli.server.queue(chat_stream("hello"))
    done = cli.run("-p", "hi")
    assert done.returncode == 0, done.stderr
    (session,) = cli.sessions()
    assert mode(session) == 0o600
    assert mode(session.parent) == 0o700
    assert mode(cli.agent_dir / "sessions") == 0o700


def test_bash_full_output_logs_are_private_and_removed_when_the_session_ends(cli: Cli) -> None:
    command = "seq 1 30000"  # more than 2,000 lines: the full output goes to a log file
    cli.server.queue(chat_stream(tool_calls=[("bash", {"command": command})]), chat_stream("done"))
    done = cli.run("--mode", "json", "-p", "count")
    assert done.returncode == 0, done.stderr
    ends = [json.loads(line) for line in done.stdout.splitlines()]
    (end,) = [e for e in ends if e.get("type") == "tool_execution_end"]
    log = Path(end["result"]["details"]["fullOutputPath"])
    assert not log.exists(), f"{log} outlived the session"


def test_a_log_is_owner_only_while_the_session_runs(tmp_path: Path) -> None:
    from pi_plugin_tools.output import OutputAccumulator, remove_session_logs

    output = OutputAccumulator(temp_file_prefix="pi-test")
    output.append(b"x\n" * 5000)
    output.finish()
    path = output.snapshot(persist_if_truncated=True).full_output_path
    assert path is not None and os.path.exists(path)
    assert mode(Path(path)) == 0o600
    remove_session_logs()
    assert not os.path.exists(path)
