"""`pi --mode rpc` whose client stops reading (closes its end of stdout) saves the running turn
and exits, although stdin is still open."""

from __future__ import annotations

import json
import subprocess

from pi_core.testing import chat_stream, console_script
from tests.cli.conftest import Cli


def test_rpc_exits_once_the_turn_is_saved_when_stdout_closes(cli: Cli) -> None:
    answer = chat_stream("a long answer that never ends", piece=4, pause_after_chunks=3)
    cli.server.queue(answer)
    pi = console_script("pi")
    process = subprocess.Popen(
        [pi, "--mode", "rpc"], cwd=cli.cwd, env=cli.env, stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write(b'{"id":"p","type":"prompt","message":"keep talking"}\n')
        process.stdin.flush()
        assert answer.paused.wait(30), "the request never reached the fake server"
        process.stdout.close()  # the client went away; stdin stays open

        code = process.wait(timeout=30)
    finally:
        answer.resume()
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stdin.close()
    assert process.stderr is not None
    stderr = process.stderr.read().decode()
    process.stderr.close()
    assert code == 1, stderr
    assert "Traceback" not in stderr
    (session,) = cli.sessions()
    entries = [json.loads(line) for line in session.read_text().splitlines()]
    messages = [e["message"] for e in entries if e["type"] == "message"]
    assert [m["role"] for m in messages] == ["user", "assistant"]
    assert messages[0]["content"][0]["text"] == "keep talking"
    assert messages[1]["stopReason"] == "aborted"
