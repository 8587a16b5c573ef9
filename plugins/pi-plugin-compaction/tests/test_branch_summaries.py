"""Branch summaries: ours against pi 0.73.1's on the same branch, each read back by the other,
and the navigation when the summary fails, is aborted, or another plugin writes it."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

import pytest
from branch_scenario import TARGET, _route, branch_session, prepare
from compaction_scenarios import user_text_of
from leave_ours import leave_with_our_summary, open_session

from pi_core.messages.agent import BranchSummaryMessage
from pi_core.messages.convert import BRANCH_SUMMARY_PREFIX, BRANCH_SUMMARY_SUFFIX
from pi_core.testing import FakeLLMServer, FakeResponse, RecordedRequest, chat_error, chat_stream

pytestmark = pytest.mark.slow

FIXTURES = Path(__file__).resolve().parent / "fixtures"
PREFIX = "The following is a summary of a branch that this conversation came back from:\n\n"
"""How pi 0.73.1 itself introduces a branch summary to the model (recorded in the fixture)."""


def _in_pis_words(value: Any) -> Any:
    """`value` with our introduction of a branch summary swapped for pi's."""
    ours, theirs = (
        json.dumps(text)[1:-1] for text in (BRANCH_SUMMARY_PREFIX, PREFIX + "<summary>\n")
    )
    return json.loads(json.dumps(value).replace(ours, theirs))


@pytest.fixture(scope="module")
def pis() -> dict[str, Any]:
    recorded: dict[str, Any] = json.loads((FIXTURES / "branch.pi.json").read_text())
    return recorded


async def test_our_branch_summary_is_the_one_pi_writes(tmp_path: Path, pis: dict[str, Any]) -> None:
    ours = await leave_with_our_summary(tmp_path)

    for field in ("summary", "details", "fromHook", "fromId", "parentId"):
        assert ours["entry"][field] == pis["entry"][field], field
    assert ours["entry"]["fromHook"] is False
    # transcript, no previous summary, 2048 tokens; the earlier summary is introduced in our words
    assert _in_pis_words(ours["requests"]) == pis["requests"]
    # file lists carried over from the earlier summary (notes.md, old.py) and from tool calls
    assert ours["entry"]["details"] == {
        "readFiles": ["a.py", "notes.md"],
        "modifiedFiles": ["b.py", "old.py"],
    }


async def test_pi_reads_back_the_summary_we_write(tmp_path: Path) -> None:
    ours = await leave_with_our_summary(tmp_path)
    committed = [
        json.loads(line) for line in (FIXTURES / "branch.ours.jsonl").read_text().splitlines()
    ]
    committed_entry = [e for e in committed if e["type"] == "branch_summary"][-1]
    assert ours["entry"]["summary"] == committed_entry["summary"]  # still what pi was shown
    assert ours["entry"]["details"] == committed_entry["details"]

    read = json.loads((FIXTURES / "branch.ours.pi-read.json").read_text())
    texts = [
        part["text"]
        for message in read["messages"]
        if message["role"] == "user" and isinstance(message["content"], list)
        for part in message["content"]
    ]
    assert PREFIX + "<summary>\n" + committed_entry["summary"] + "</summary>" in texts
    assert texts[-1] == "Carry on"


async def test_we_read_back_the_summary_pi_writes(tmp_path: Path, pis: dict[str, Any]) -> None:
    with FakeLLMServer() as server:
        server.route(_route)
        session_file, _ = prepare(tmp_path, pis["session"], server.base_url)
        session = await open_session(session_file, tmp_path)
        summaries = [m for m in session.messages if isinstance(m, BranchSummaryMessage)]
        assert [m.summary for m in summaries] == [pis["entry"]["summary"]]
        await session.prompt("Carry on")
        await session.shutdown()
        sent = server.requests[-1].json()["messages"]
    texts = [json.dumps(m["content"]) for m in sent if m["role"] == "user"]
    expected = BRANCH_SUMMARY_PREFIX + pis["entry"]["summary"] + BRANCH_SUMMARY_SUFFIX
    assert any(json.dumps(expected)[1:-1] in text for text in texts)


async def _leave(tmp_path: Path, router: Any, *plugins: Any) -> tuple[Any, Any, FakeLLMServer]:
    server = FakeLLMServer().start()
    server.route(router)
    session_file, _ = prepare(tmp_path, branch_session(), server.base_url)
    session = await open_session(session_file, tmp_path)
    for plugin in plugins:
        session.plugins.register_inline(plugin, type(plugin).__name__)
    return session, session_file, server


async def test_a_failing_branch_summary_leaves_the_leaf_where_it_was(tmp_path: Path) -> None:
    def router(request: RecordedRequest) -> FakeResponse | None:
        return chat_error(400, "bad summary request", "invalid_request_error")

    session, _, server = await _leave(tmp_path, router)
    leaf = session.session_manager.get_leaf_id()
    try:
        with pytest.raises(RuntimeError, match="bad summary request"):
            await session.navigate_tree(TARGET, summarize=True)
        assert session.session_manager.get_leaf_id() == leaf
    finally:
        await session.shutdown()
        server.stop()


async def test_abort_during_the_branch_summary_cancels_the_navigation(tmp_path: Path) -> None:
    arrived = threading.Event()

    def router(request: RecordedRequest) -> FakeResponse | None:
        arrived.set()
        return chat_stream("## Goal\nStalled " + "z" * 64, chunk_delay=2.0)

    session, _, server = await _leave(tmp_path, router)
    leaf = session.session_manager.get_leaf_id()
    try:
        navigation = asyncio.create_task(session.navigate_tree(TARGET, summarize=True))
        assert await asyncio.to_thread(arrived.wait, 30)
        await session.abort()
        result = await asyncio.wait_for(navigation, 30)

        assert result == {"cancelled": True, "aborted": True}
        assert session.session_manager.get_leaf_id() == leaf
        assert not session.navigation.is_summarizing
    finally:
        await session.shutdown()
        server.stop()


async def test_another_plugins_summary_wins_over_the_default(tmp_path: Path) -> None:
    from pi_core.hookspecs import hookimpl

    class Mine:
        @hookimpl
        def session_before_tree(self, event: Any) -> dict[str, Any]:
            return {"summary": {"summary": "mine", "details": {"by": "me"}}, "label": "left"}

    session, session_file, server = await _leave(tmp_path, _route, Mine())
    try:
        await session.navigate_tree(TARGET, summarize=True)
    finally:
        await session.shutdown()
        server.stop()
    assert not any("<conversation>" in user_text_of(r) for r in server.requests)
    entries = [json.loads(line) for line in session_file.read_text().splitlines()]
    entry = entries[-2] if entries[-1]["type"] == "label" else entries[-1]
    assert entry["type"] == "branch_summary" and entry["summary"] == "mine"
    assert entry["fromHook"] is True


async def test_an_earlier_plugin_can_change_the_default_summarys_instructions(
    tmp_path: Path,
) -> None:
    from pi_core.hookspecs import hookimpl

    class Focus:
        @hookimpl
        def session_before_tree(self, event: Any) -> dict[str, Any]:
            return {"customInstructions": "Only list the files.", "replaceInstructions": True}

    session, _, server = await _leave(tmp_path, _route, Focus())
    try:
        await session.navigate_tree(TARGET, summarize=True)
    finally:
        await session.shutdown()
        server.stop()
    (prompt,) = [t for t in map(user_text_of, server.requests) if "<conversation>" in t]
    assert prompt.endswith("</conversation>\n\nOnly list the files.")
