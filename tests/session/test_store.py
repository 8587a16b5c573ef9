"""The session store: file layout, deferred writes, the tree, context building, labels, names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_core import AssistantMessage, TextContent, ToolCall, ToolResultMessage, UserMessage
from pi_core.session import SessionManager, encode_cwd, list_sessions


def assistant(text: str, provider: str = "fake", model: str = "m1") -> AssistantMessage:
    return AssistantMessage(
        content=[TextContent(text=text)], api="openai-completions", provider=provider, model=model
    )


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture
def sessions(tmp_path: Path) -> Path:
    return tmp_path / "sessions"


def test_cwd_encoding_matches_pi() -> None:
    assert encode_cwd("/Users/john/my project") == "--Users-john-my project--"
    assert encode_cwd("C:\\work\\x") == "--C--work-x--"


def test_nothing_is_written_before_the_first_assistant_message(sessions: Path) -> None:
    manager = SessionManager.create("/proj", sessions)
    path = manager.session_file
    assert path is not None and path.parent == sessions
    name = path.name
    assert name.endswith(f"_{manager.session_id}.jsonl") and ":" not in name

    manager.append_thinking_level_change("high")
    manager.append_message(UserMessage(content="hello"))
    assert not path.exists()

    manager.append_message(assistant("hi"))
    written = lines(path)
    assert [e["type"] for e in written] == [
        "session",
        "thinking_level_change",
        "message",
        "message",
    ]
    assert written[0] == {
        "type": "session",
        "version": 3,
        "id": manager.session_id,
        "timestamp": written[0]["timestamp"],
        "cwd": "/proj",
    }
    assert written[1]["parentId"] is None
    assert written[2]["parentId"] == written[1]["id"]
    assert list(written[2]) == ["type", "id", "parentId", "timestamp", "message"]

    manager.append_session_info("  My session  ")
    assert lines(path)[-1]["name"] == "My session"
    assert len(lines(path)) == 5


def test_ids_are_8_hex_and_timestamps_iso(sessions: Path) -> None:
    manager = SessionManager.in_memory("/p")
    entry_id = manager.append_message(UserMessage(content="x"))
    assert len(entry_id) == 8 and int(entry_id, 16) >= 0
    stamp = manager.get_entry(entry_id).timestamp  # type: ignore[union-attr]
    assert stamp.endswith("Z") and len(stamp) == 24


def test_context_applies_compaction_and_branch_summaries() -> None:
    manager = SessionManager.in_memory("/p")
    manager.append_message(UserMessage(content="one"))
    manager.append_message(assistant("a1"))
    kept = manager.append_message(UserMessage(content="two"))
    manager.append_message(assistant("a2", model="m2"))
    manager.append_compaction("summary of one", kept, 1234)
    manager.append_message(UserMessage(content="three"))
    manager.append_custom_entry("state", {"n": 1})
    manager.append_custom_message_entry("note", "plugin says hi", display=False)

    context = manager.build_session_context()

    roles = [m.role for m in context.messages]
    assert roles == ["compactionSummary", "user", "assistant", "user", "custom"]
    assert context.messages[0].summary == "summary of one"  # type: ignore[union-attr]
    assert context.messages[0].tokens_before == 1234  # type: ignore[union-attr]
    assert [getattr(m, "content", None) for m in context.messages[1:4:2]] == ["two", "three"]
    assert context.model is not None and context.model.model_id == "m2"


def test_model_and_thinking_level_follow_the_path() -> None:
    manager = SessionManager.in_memory("/p")
    manager.append_model_change("anthropic", "claude")
    manager.append_thinking_level_change("high")
    fork_point = manager.append_message(UserMessage(content="q"))
    manager.append_thinking_level_change("low")
    manager.append_message(assistant("x", provider="openai", model="gpt"))
    context = manager.build_session_context()
    assert context.thinking_level == "low"
    assert context.model is not None and context.model.provider == "openai"

    manager.branch(fork_point)
    context = manager.build_session_context()
    assert context.thinking_level == "high"
    assert context.model is not None and context.model.model_id == "claude"


def test_branching_moves_the_leaf_and_never_rewrites(sessions: Path) -> None:
    manager = SessionManager.create("/p", sessions)
    first = manager.append_message(UserMessage(content="first"))
    manager.append_message(assistant("answer 1"))
    before = manager.session_file.read_text()  # type: ignore[union-attr]

    manager.branch(first)
    assert manager.session_file.read_text() == before  # type: ignore[union-attr]
    alt = manager.append_message(assistant("answer 2"))

    assert manager.get_entry(alt).parent_id == first  # type: ignore[union-attr]
    assert len(manager.get_children(first)) == 2
    texts = [m.content[0].text for m in manager.build_session_context().messages[1:]]  # type: ignore[union-attr]
    assert texts == ["answer 2"]
    assert manager.session_file.read_text().startswith(before)  # type: ignore[union-attr]

    summary = manager.branch_with_summary(first, "tried answer 2")
    context = manager.build_session_context()
    assert [m.role for m in context.messages] == ["user", "branchSummary"]
    assert manager.get_entry(summary).from_id == first  # type: ignore[union-attr]

    manager.reset_leaf()
    assert manager.build_session_context().messages == []
    root = manager.append_message(UserMessage(content="new root"))
    assert manager.get_entry(root).parent_id is None  # type: ignore[union-attr]
    with pytest.raises(KeyError):
        manager.branch("deadbeef")


def test_labels_set_and_clear() -> None:
    manager = SessionManager.in_memory("/p")
    target = manager.append_message(UserMessage(content="x"))
    manager.append_label_change(target, "checkpoint")
    assert manager.get_label(target) == "checkpoint"
    [root] = manager.get_tree()
    assert root.label == "checkpoint" and len(root.children) == 1
    manager.append_label_change(target, None)
    assert manager.get_label(target) is None
    with pytest.raises(KeyError):
        manager.append_label_change("nope", "x")


def test_session_name_latest_wins_and_empty_clears() -> None:
    manager = SessionManager.in_memory("/p")
    assert manager.get_session_name() is None
    manager.append_session_info("one")
    manager.append_session_info("two")
    assert manager.get_session_name() == "two"
    manager.append_session_info("   ")
    assert manager.get_session_name() is None


def test_reopening_restores_everything(sessions: Path) -> None:
    manager = SessionManager.create("/p", sessions)
    manager.append_message(UserMessage(content="read it"))
    manager.append_message(
        AssistantMessage(
            content=[ToolCall(id="t1", name="read", arguments={"path": "a"})],
            provider="fake",
            model="m",
            stop_reason="toolUse",
        )
    )
    manager.append_message(
        ToolResultMessage(tool_call_id="t1", tool_name="read", content=[TextContent(text="A")])
    )
    target = manager.append_message(assistant("done"))
    manager.append_label_change(target, "good")
    manager.append_session_info("named")

    reopened = SessionManager.open(manager.session_file)  # type: ignore[arg-type]

    assert reopened.session_id == manager.session_id
    assert reopened.get_leaf_id() == manager.get_leaf_id()
    assert reopened.get_label(target) == "good"
    assert reopened.get_session_name() == "named"
    assert reopened.cwd == "/p"
    assert reopened.build_session_context() == manager.build_session_context()


def test_create_branched_session_writes_a_new_file_with_parent(sessions: Path) -> None:
    manager = SessionManager.create("/p", sessions)
    manager.append_message(UserMessage(content="q1"))
    keep = manager.append_message(assistant("a1"))
    manager.append_label_change(keep, "here")
    manager.append_message(UserMessage(content="q2"))
    manager.append_message(assistant("a2"))
    original = manager.session_file

    new_file = manager.create_branched_session(keep)

    assert new_file is not None and new_file != original and new_file.exists()
    written = lines(new_file)
    assert written[0]["parentSession"] == str(original)
    assert [e["type"] for e in written[1:]] == ["message", "message", "label"]
    assert written[-1]["targetId"] == keep and written[-1]["label"] == "here"
    assert [m.role for m in manager.build_session_context().messages] == ["user", "assistant"]
    assert len(lines(original)) == 6  # type: ignore[arg-type]


def test_branched_session_without_assistant_is_deferred(sessions: Path) -> None:
    manager = SessionManager.create("/p", sessions)
    first = manager.append_message(UserMessage(content="q1"))
    manager.append_message(assistant("a1"))
    new_file = manager.create_branched_session(first)
    assert new_file is not None and not new_file.exists()
    manager.append_message(assistant("answer on the branch"))
    assert [e["type"] for e in lines(new_file)] == ["session", "message", "message"]


def test_continue_recent_and_listing(sessions: Path) -> None:
    import os
    import time

    older = SessionManager.create("/p", sessions)
    older.append_message(UserMessage(content="older question"))
    older.append_message(assistant("x"))
    newer = SessionManager.create("/p", sessions)
    newer.append_message(UserMessage(content=[TextContent(text="newer question")]))
    newer.append_message(assistant("y"))
    newer.append_session_info("Newer")
    past = time.time() - 100
    os.utime(older.session_file, (past, past))  # type: ignore[arg-type]
    (sessions / "junk.jsonl").write_text("not a session\n")

    resumed = SessionManager.continue_recent("/p", sessions)
    assert resumed.session_file == newer.session_file

    infos = list_sessions("/p", sessions)
    assert len(infos) == 2
    by_name = {i.first_message: i for i in infos}
    assert by_name["newer question"].name == "Newer"
    assert by_name["newer question"].message_count == 2
    assert by_name["older question"].name is None


def test_continue_recent_starts_fresh_when_there_is_none(sessions: Path) -> None:
    manager = SessionManager.continue_recent("/p", sessions)
    assert manager.get_entries() == [] and manager.session_file is not None


def test_fork_from_copies_into_another_project(sessions: Path, tmp_path: Path) -> None:
    source = SessionManager.create("/a", sessions / "a")
    source.append_message(UserMessage(content="q"))
    source.append_message(assistant("a"))
    forked = SessionManager.fork_from(source.session_file, "/b", sessions / "b")  # type: ignore[arg-type]
    assert forked.cwd == "/b"
    assert forked.get_header().parent_session == str(source.session_file)
    assert forked.build_session_context().messages == source.build_session_context().messages


def test_in_memory_sessions_write_nothing(tmp_path: Path) -> None:
    tmp_path = tmp_path / "cwd"
    tmp_path.mkdir()
    manager = SessionManager.in_memory(str(tmp_path))
    manager.append_message(UserMessage(content="q"))
    manager.append_message(assistant("a"))
    assert manager.session_file is None and list(tmp_path.iterdir()) == []
    assert manager.create_branched_session(manager.get_leaf_id()) is None  # type: ignore[arg-type]


def test_summary_roles_cannot_be_appended_as_messages() -> None:
    manager = SessionManager.in_memory("/p")
    with pytest.raises(ValueError, match="own entry types"):
        manager.append_message({"role": "compactionSummary", "summary": "s", "tokensBefore": 1})
