"""Several `pi acp` sessions in one process: closing one deletes the full-output files of its own
bash commands only; the others' stay readable until they end."""

from __future__ import annotations

import json
import re
from pathlib import Path

from acp import text_block
from acp_test_client import Project, Recorder

from pi_core.testing import chat_stream

LONG = "seq 5000"
"""More lines than bash keeps: its full output goes to a file the model is told about."""


def full_output_file(project: Project, index: int) -> Path:
    """The full-output file named in the tool result the fake's request `index` carried."""
    message = project.fake.requests[index].json()["messages"][-1]
    assert message["role"] == "tool"
    found = re.search(r"Full output: (\S+?)\]", json.dumps(message["content"]))
    assert found is not None, message
    return Path(found.group(1))


async def test_closing_a_session_keeps_the_other_sessions_full_output_files(
    project: Project,
) -> None:
    for _ in range(2):
        project.fake.queue(chat_stream(tool_calls=[("bash", {"command": LONG})]), chat_stream("ok"))
    async with project.agent(Recorder("allow_once")) as conn:
        first = await conn.new_session(cwd=str(project.cwd), mcp_servers=[])
        second = await conn.new_session(cwd=str(project.cwd), mcp_servers=[])
        for session in (first, second):
            await conn.prompt(session_id=session.session_id, prompt=[text_block("go")])
        first_log, second_log = full_output_file(project, 1), full_output_file(project, 3)
        assert first_log != second_log
        assert first_log.is_file() and second_log.is_file()
        await conn.close_session(session_id=first.session_id)
        first_after_close, second_after_close = first_log.exists(), second_log.exists()
        second_text = second_log.read_text() if second_after_close else ""
        await conn.close_session(session_id=second.session_id)
    assert not first_after_close  # a session's end removes its own files
    assert second_after_close  # and only those
    assert second_text.splitlines()[-1] == "5000"
    assert not second_log.exists()
