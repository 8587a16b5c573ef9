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
        payload = sys.argv[1] * 70_000  # lines longer than a page and a pipe buffer
        for index in range(150):
            manager.append_custom_entry("writer", {{"i": index, "pad": payload}})
        """
    )
    writers = [
        subprocess.Popen([sys.executable, "-c", script, letter]) for letter in ("a", "b", "c")
    ]
    for writer in writers:
        assert writer.wait(timeout=120) == 0

    # A writer that opens the file while another's write is under way can take that line for a
    # torn one and start with a newline: a blank line, which readers (pi's too) skip.
    raw_lines = [line for line in path.read_text().splitlines() if line]  # type: ignore[union-attr]
    parsed = [json.loads(line) for line in raw_lines]  # every line is whole JSON
    custom = [e for e in parsed if e["type"] == "custom"]
    assert len(custom) == 450
    assert {e["data"]["pad"][0] for e in custom} == {"a", "b", "c"}
    assert all(len(set(e["data"]["pad"])) == 1 for e in custom)  # no line holds two writers'
    for letter in "abc":  # and each writer's entries are all there, in its order
        order = [e["data"]["i"] for e in custom if e["data"]["pad"][0] == letter]
        assert order == list(range(150))


def test_an_entry_appended_onto_another_writers_torn_line_is_recovered(tmp_path: Path) -> None:
    manager = make_session(tmp_path)  # the file is open for appending now
    path = manager.session_file
    assert path is not None
    with path.open("ab") as other:  # another writer dies mid-line while we keep the file open
        other.write(b'{"type":"message","id":"torn0001","message":{"content":[{"type":"text"}')
    manager.append_message(UserMessage(content="next"))  # one write, no look at the file's end

    assert path.read_bytes().endswith(b"}\n")  # the file still ends with a whole line
    reopened = SessionManager.open(path)
    assert len(reopened.get_entries()) == 7  # the torn fragment is dropped, our entry kept
    assert [w for w in reopened.warnings if "kept the entry appended after it" in w]
    last = reopened.build_session_context().messages[-1]
    assert isinstance(last, UserMessage) and last.content == "next"


def test_a_torn_last_line_is_ended_once_when_the_file_is_opened(tmp_path: Path) -> None:
    manager = make_session(tmp_path)
    path = manager.session_file
    assert path is not None
    manager.close()
    with path.open("ab") as crashed:
        crashed.write(b'{"type":"message","id":"torn0002"')
    reopened = SessionManager.open(path)
    reopened.append_custom_entry("first", {})
    reopened.append_custom_entry("second", {})

    lines = path.read_bytes().split(b"\n")
    assert lines[-4:] == [b'{"type":"message","id":"torn0002"', lines[-3], lines[-2], b""]
    assert [json.loads(line)["customType"] for line in lines[-3:-1]] == ["first", "second"]


def test_a_message_of_the_wrong_shape_is_skipped_with_a_warning_and_the_rest_kept(
    tmp_path: Path,
) -> None:
    manager = make_session(tmp_path, turns=2)
    path = manager.session_file
    assert path is not None
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    lines[2]["message"]["content"] = 42  # the first assistant message: content is not a list
    del lines[3]["message"]  # the second question: no message at all
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))

    reopened = SessionManager.open(path)
    context = reopened.build_session_context()

    texts = [m.content if isinstance(m, UserMessage) else m.content[0].text  # type: ignore[union-attr]
             for m in context.messages]  # fmt: skip
    assert texts == ["q0", "a1"]
    assert len(context.warnings) == 2
    assert f"entry {lines[2]['id']}: skipped unreadable message" in context.warnings[0]
    assert f"entry {lines[3]['id']}: skipped unreadable message" in context.warnings[1]
    assert reopened.build_session_context() == context  # the same again, from the cache
    assert path.read_text() == "".join(json.dumps(line) + "\n" for line in lines)  # untouched


def test_a_lone_surrogate_escape_loads_on_either_parsing_path(tmp_path: Path) -> None:
    manager = make_session(tmp_path, turns=1)
    manager.append_session_info("bad \ud800 name")  # written as an escape, as JSON.stringify does
    path = manager.session_file
    assert path is not None
    assert b"\\ud800" in path.read_bytes()
    assert SessionManager.open(path).get_session_name() == "bad \ud800 name"
    assert SessionManager.open(path).warnings == []

    lines = path.read_text().splitlines()
    lines.insert(2, "{this is not json")  # now the whole file takes the careful path
    path.write_text("\n".join(lines) + "\n")
    reopened = SessionManager.open(path)
    assert reopened.get_session_name() == "bad \ud800 name"
    assert len(reopened.warnings) == 1 and ":3: skipped malformed line" in reopened.warnings[0]
