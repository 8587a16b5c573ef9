"""Bad files and crashes: torn lines, malformed lines, foreign files, concurrent appenders."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pi_core import AssistantMessage, TextContent, UserMessage
from pi_core.session import SessionFileError, SessionManager


def make_session(folder: Path, turns: int = 3) -> SessionManager:
    manager = SessionManager.create("/p", folder)
    for index in range(turns):
        manager.append_message(UserMessage(content=f"q{index}"))
        manager.append_message(
            AssistantMessage(content=[TextContent(text=f"a{index}")], provider="f", model="m")
        )
    return manager


def test_torn_last_line_is_skipped_and_the_next_append_starts_a_new_line(
    tmp_path: Path,
) -> None:
    manager = make_session(tmp_path)
    path = manager.session_file
    assert path is not None
    complete = path.read_bytes()
    torn = json.dumps({"type": "message", "id": "abcdef01", "parentId": manager.get_leaf_id()})
    path.write_bytes(complete + torn[:25].encode())

    reopened = SessionManager.open(path)

    assert len(reopened.get_entries()) == 6
    assert any("incomplete last line" in w for w in reopened.warnings)
    reopened.append_message(UserMessage(content="after the crash"))
    again = SessionManager.open(path)
    assert len(again.get_entries()) == 7
    last = again.build_session_context().messages[-1]
    assert isinstance(last, UserMessage) and last.content == "after the crash"


def test_malformed_middle_line_is_skipped_and_the_rest_loads(tmp_path: Path) -> None:
    manager = make_session(tmp_path)
    path = manager.session_file
    assert path is not None
    content = path.read_text().splitlines()
    content.insert(3, "{this is not json")
    path.write_text("\n".join(content) + "\n")

    reopened = SessionManager.open(path)

    assert len(reopened.get_entries()) == 6
    assert [w for w in reopened.warnings if ":4: skipped malformed line" in w]
    assert path.read_text().splitlines()[3] == "{this is not json"  # nothing rewritten


def test_a_file_that_is_not_a_session_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "notes.jsonl"
    path.write_text('{"hello": "world"}\n')
    with pytest.raises(SessionFileError, match="not a pi session file"):
        SessionManager.open(path)
    assert path.read_text() == '{"hello": "world"}\n'

    garbage = tmp_path / "binary.jsonl"
    garbage.write_bytes(b"\x00\x01\x02 not json at all")
    with pytest.raises(SessionFileError, match="no readable line"):
        SessionManager.open(garbage)


def test_an_empty_file_becomes_a_new_session_at_that_path(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text("")
    manager = SessionManager.open(path)
    assert manager.session_file == path.resolve()
    manager.append_message(UserMessage(content="q"))
    manager.append_message(AssistantMessage(content=[], provider="f", model="m"))
    assert len(path.read_text().splitlines()) == 3


def test_appends_reach_the_os_before_returning(tmp_path: Path) -> None:
    manager = make_session(tmp_path, turns=1)
    path = manager.session_file
    assert path is not None
    manager.append_custom_entry("marker", {"n": 1})
    # read through a separate descriptor, without closing the manager's
    assert json.loads(path.read_text().splitlines()[-1])["customType"] == "marker"


def test_two_processes_appending_never_interleave_half_lines(tmp_path: Path) -> None:
    manager = make_session(tmp_path, turns=1)
    path = manager.session_file
    manager.close()
    script = textwrap.dedent(
        f"""
        import sys
        from pi_core.session import SessionManager
        manager = SessionManager.open({str(path)!r})
        payload = sys.argv[1] * 5000
        for index in range(300):
            manager.append_custom_entry("writer", {{"i": index, "pad": payload}})
        """
    )
    writers = [
        subprocess.Popen([sys.executable, "-c", script, letter]) for letter in ("a", "b", "c")
    ]
    for writer in writers:
        assert writer.wait(timeout=120) == 0

    raw_lines = path.read_text().splitlines()  # type: ignore[union-attr]
    parsed = [json.loads(line) for line in raw_lines]  # every line is whole JSON
    custom = [e for e in parsed if e["type"] == "custom"]
    assert len(custom) == 900
    assert {e["data"]["pad"][0] for e in custom} == {"a", "b", "c"}


def test_a_torn_line_written_between_our_appends_is_not_glued_to(tmp_path: Path) -> None:
    manager = make_session(tmp_path)  # the file is open for appending now
    path = manager.session_file
    assert path is not None
    with path.open("ab") as other:  # another writer dies mid-line while we keep the file open
        other.write(b'{"type":"message","id":"torn0001"')
    manager.append_message(UserMessage(content="next"))

    lines = path.read_bytes().split(b"\n")
    assert lines[-1] == b""  # the file ends with a whole line
    assert lines[-3] == b'{"type":"message","id":"torn0001"'
    assert json.loads(lines[-2])["message"]["content"] == "next"
    reopened = SessionManager.open(path)
    last = reopened.build_session_context().messages[-1]
    assert isinstance(last, UserMessage) and last.content == "next"
