"""Property tests: random trees round-trip through the file; truncation loses at most one entry."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pi_core import AssistantMessage, TextContent, UserMessage
from pi_core.session import SessionManager, build_session_context
from pi_core.session.context import path_to_root

operation = st.one_of(
    st.tuples(st.just("user"), st.text(max_size=20)),
    st.tuples(st.just("assistant"), st.text(max_size=20)),
    st.tuples(st.just("branch"), st.integers(min_value=0, max_value=10_000)),
    st.tuples(st.just("compact"), st.integers(min_value=0, max_value=10_000)),
    st.tuples(st.just("label"), st.integers(min_value=0, max_value=10_000)),
    st.tuples(st.just("custom"), st.text(max_size=10)),
    st.tuples(st.just("thinking"), st.sampled_from(["off", "low", "high"])),
)


def apply(manager: SessionManager, operations: list[tuple[str, object]]) -> None:
    """Play random operations: appends, branches to earlier entries, compactions, labels."""
    manager.append_message(UserMessage(content="start"))
    manager.append_message(AssistantMessage(content=[TextContent(text="ok")], provider="p"))
    for kind, value in operations:
        ids = [e.id for e in manager.get_entries()]
        if kind == "user":
            manager.append_message(UserMessage(content=str(value)))
        elif kind == "assistant":
            manager.append_message(
                AssistantMessage(content=[TextContent(text=str(value))], provider="p")
            )
        elif kind == "branch":
            manager.branch(ids[int(value) % len(ids)])  # type: ignore[call-overload]
        elif kind == "compact":
            path = [e.id for e in manager.get_branch()]
            manager.append_compaction("summary", path[int(value) % len(path)], 100)  # type: ignore[call-overload]
        elif kind == "label":
            manager.append_label_change(ids[int(value) % len(ids)], "mark")  # type: ignore[call-overload]
        elif kind == "custom":
            manager.append_custom_entry("plugin", {"v": value})
        elif kind == "thinking":
            manager.append_thinking_level_change(str(value))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(operation, max_size=30))
def test_random_trees_round_trip_through_the_file(operations: list[tuple[str, object]]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        manager = SessionManager.create("/p", Path(folder))
        apply(manager, operations)
        reopened = SessionManager.open(manager.session_file)  # type: ignore[arg-type]

        assert reopened.get_raw_entries() == manager.get_raw_entries()
        # the file's leaf is its last entry; compare the context there
        last = manager.get_raw_entries()[-1]["id"]
        manager.branch(last)
        assert reopened.build_session_context() == manager.build_session_context()
        assert {e.id: reopened.get_label(e.id) for e in reopened.get_entries()} == {
            e.id: manager.get_label(e.id) for e in manager.get_entries()
        }


@settings(max_examples=60, deadline=None)
@given(st.lists(operation, min_size=1, max_size=20), st.floats(min_value=0.0, max_value=1.0))
def test_any_truncation_loses_at_most_the_torn_entry(
    operations: list[tuple[str, object]], fraction: float
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        manager = SessionManager.create("/p", Path(folder))
        apply(manager, operations)
        path = manager.session_file
        assert path is not None
        data = path.read_bytes()
        header_end = data.index(b"\n") + 1
        cut = header_end + int((len(data) - header_end) * fraction)
        path.write_bytes(data[:cut])

        complete_lines = data[:cut].split(b"\n")
        whole = [json.loads(line) for line in complete_lines[:-1] if line]
        tail = complete_lines[-1]
        reopened = SessionManager.open(path)

        loaded = reopened.get_raw_entries()
        expected = whole + ([json.loads(tail)] if tail and _is_json(tail) else [])
        assert loaded == expected
        # what loaded is exactly the start of the original, up to the torn entry
        assert loaded == manager.get_raw_entries()[: len(loaded)]
        assert len(loaded) >= data[:cut].count(b"\n")


def _is_json(raw: bytes) -> bool:
    try:
        json.loads(raw)
    except ValueError:
        return False
    return True


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(operation, max_size=30))
def test_the_context_is_the_walk_from_the_leaf_to_the_root(
    operations: list[tuple[str, object]],
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        manager = SessionManager.create("/p", Path(folder))
        apply(manager, operations)
        reopened = SessionManager.open(manager.session_file)  # type: ignore[arg-type]
        for session in (manager, reopened):  # kept up by appends, and loaded from the file
            entries = session.get_raw_entries()
            by_id = {entry["id"]: entry for entry in entries[1:]}
            leaf = session.get_leaf_id()
            walked = path_to_root(by_id[leaf], by_id) if leaf else []
            assert [entry.id for entry in session.get_branch()] == [e["id"] for e in walked]
            assert session.build_session_context() == build_session_context(entries, leaf)
