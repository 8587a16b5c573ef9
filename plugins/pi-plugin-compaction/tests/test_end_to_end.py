"""Compaction through the real `pi --mode rpc` against the fake server: by hand, over the
threshold, after an overflow, and what happens when it cannot or should not finish."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from compaction_scenarios import user_text_of
from rpc_home import PiHome, Rpc

from pi_core.messages.convert import COMPACTION_SUMMARY_PREFIX
from pi_core.testing import FakeResponse, RecordedRequest, chat_error, chat_stream

pytestmark = pytest.mark.slow

SUMMARY = "## Goal\nKeep going (scripted summary)."


def summaries_answer(
    answer: FakeResponse | None = None, arrived: threading.Event | None = None
) -> Any:
    """A router answering every summary request (it holds `<conversation>`) with `answer`."""

    def route(request: RecordedRequest) -> FakeResponse | None:
        if request.method != "POST" or "<conversation>" not in user_text_of(request):
            return None
        if arrived is not None:
            arrived.set()
        return answer if answer is not None else chat_stream(SUMMARY)

    return route


def summary_requests(home: PiHome) -> list[str]:
    return [
        user_text_of(r)
        for r in home.server.requests
        if r.method == "POST" and "<conversation>" in user_text_of(r)
    ]


def session_entries(home: PiHome) -> list[dict[str, Any]]:
    files = sorted(home.agent.glob("sessions/**/*.jsonl"))
    assert len(files) == 1
    return [json.loads(line) for line in files[0].read_text().splitlines()]


def two_turns(rpc: Rpc, home: PiHome, second_usage: tuple[int, int] = (10, 5)) -> None:
    """Prompt twice: a long first turn, a second whose user message alone fills the kept part."""
    home.server.queue(
        chat_stream("First answer " + "word " * 200),
        chat_stream("Short.", usage=second_usage),
    )
    for text in ("First question " + "word " * 200, "Second question " + "more " * 80):
        rpc.ask({"type": "prompt", "message": text})
        rpc.wait_event("agent_end")


def test_rpc_compact_writes_the_summary_and_get_messages_starts_with_it(home: PiHome) -> None:
    home.settings(compaction={"keepRecentTokens": 50})
    home.server.route(summaries_answer())
    rpc = home.start()
    two_turns(rpc, home)

    response = rpc.ask({"type": "compact", "customInstructions": "mind the tests"})

    assert response["success"] is True, response
    data = response["data"]
    assert data["summary"] == SUMMARY  # no files were touched: nothing appended
    assert data["details"] == {"readFiles": [], "modifiedFiles": []}
    (request,) = summary_requests(home)
    assert "[User]: First question" in request and "[Assistant]: First answer" in request
    assert "Second question" not in request  # kept, not summarized
    assert request.endswith("\n\nAdditional focus: mind the tests")
    messages = rpc.ask({"type": "get_messages"})["data"]["messages"]
    assert messages[0]["role"] == "compactionSummary"
    assert messages[0]["summary"] == SUMMARY
    assert messages[1]["role"] == "user" and messages[1]["content"][0]["text"].startswith("Second")
    rpc.close()
    compactions = [e for e in session_entries(home) if e["type"] == "compaction"]
    assert len(compactions) == 1 and compactions[0]["fromHook"] is False


def test_threshold_compaction_runs_after_a_large_answer(home: PiHome) -> None:
    home.models(contextWindow=4000)
    home.settings(compaction={"keepRecentTokens": 50, "reserveTokens": 1000})
    home.server.route(summaries_answer())
    rpc = home.start()

    two_turns(rpc, home, second_usage=(3500, 10))  # 3510 > 4000 - 1000
    start = rpc.wait_event("compaction_start")
    end = rpc.wait_event("compaction_end")

    assert start["reason"] == "threshold"
    assert end["reason"] == "threshold" and end["willRetry"] is False
    assert end["result"]["summary"] == SUMMARY
    assert end.get("errorMessage") is None
    messages = rpc.ask({"type": "get_messages"})["data"]["messages"]
    assert messages[0]["role"] == "compactionSummary"
    rpc.close()


def test_overflow_compacts_then_retries_the_prompt_once(home: PiHome) -> None:
    home.settings(compaction={"keepRecentTokens": 50})
    home.server.route(summaries_answer())
    rpc = home.start()
    two_turns(rpc, home)
    overflow = chat_error(
        400,
        "This model's maximum context length is 128000 tokens. However, your messages "
        "resulted in 130000 tokens.",
        "invalid_request_error",
    )
    home.server.queue(overflow, chat_stream("Answered after compaction."))

    rpc.ask({"type": "prompt", "message": "Third question"})
    end = rpc.wait_event("compaction_end")
    rpc.read_until(
        lambda r: (
            r.get("type") == "agent_end"
            and r["messages"]
            and r["messages"][-1].get("stopReason") == "stop"
        )
    )

    assert end["reason"] == "overflow" and end["willRetry"] is True
    assert end["result"]["summary"] == SUMMARY
    answer = rpc.ask({"type": "get_last_assistant_text"})["data"]["text"]
    assert answer == "Answered after compaction."
    messages = rpc.ask({"type": "get_messages"})["data"]["messages"]
    assert messages[0]["role"] == "compactionSummary"
    # the failed answer left the context; the retry saw the summary, then the kept messages
    retry = home.server.requests[-1].json()["messages"]
    assert json.dumps(COMPACTION_SUMMARY_PREFIX)[1:-1] in json.dumps(retry[1])
    rpc.close()


def test_a_summary_that_fails_midway_writes_nothing(home: PiHome) -> None:
    home.settings(compaction={"keepRecentTokens": 50})
    cut = chat_stream("## Goal\nThis never ends " + "x" * 200)
    cut.cut_after_chunks = 3
    home.server.route(summaries_answer(cut))
    rpc = home.start()
    two_turns(rpc, home)
    before = rpc.ask({"type": "get_messages"})["data"]["messages"]

    response = rpc.ask({"type": "compact"})
    end = next(r for r in rpc.records if r.get("type") == "compaction_end")

    assert response["success"] is False
    assert response["error"].startswith("Summarization failed: ")
    assert end["errorMessage"].startswith("Compaction failed: Summarization failed: ")
    assert end["aborted"] is False and end.get("result") is None
    assert rpc.ask({"type": "get_messages"})["data"]["messages"] == before
    rpc.close()
    assert not [e for e in session_entries(home) if e["type"] == "compaction"]


def test_abort_during_the_summary_cancels_it(home: PiHome) -> None:
    home.settings(compaction={"keepRecentTokens": 50})
    arrived = threading.Event()
    # the first chunk, then the stream stalls: only an abort ends the compaction soon
    stalled = chat_stream("## Goal\nStalled " + "y" * 64, chunk_delay=2.0)
    home.server.route(summaries_answer(stalled, arrived))
    rpc = home.start()
    two_turns(rpc, home)

    compact_id = rpc.send({"type": "compact"})
    assert arrived.wait(timeout=30), "the summary request reached the server"
    rpc.ask({"type": "abort"})
    response = rpc.read_until(lambda r: r.get("type") == "response" and r["id"] == compact_id)
    end = next(r for r in rpc.records if r.get("type") == "compaction_end")

    assert response["success"] is False and response["error"] == "Compaction cancelled"
    assert end["aborted"] is True and end.get("errorMessage") is None
    messages = rpc.ask({"type": "get_messages"})["data"]["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "user", "assistant"]
    rpc.close()
    assert not [e for e in session_entries(home) if e["type"] == "compaction"]


def test_an_empty_session_has_nothing_to_compact(home: PiHome) -> None:
    rpc = home.start()

    response = rpc.ask({"type": "compact"})

    assert response["success"] is False
    assert response["error"] == "Nothing to compact (session too small)"
    assert summary_requests(home) == []
    rpc.close()


def test_compacting_twice_in_a_row_is_refused_the_second_time(home: PiHome) -> None:
    home.settings(compaction={"keepRecentTokens": 50})
    home.server.route(summaries_answer())
    rpc = home.start()
    two_turns(rpc, home)

    first = rpc.ask({"type": "compact"})
    second = rpc.ask({"type": "compact"})

    assert first["success"] is True
    assert second["success"] is False and second["error"] == "Already compacted"
    assert len(summary_requests(home)) == 1
    rpc.close()
    assert len([e for e in session_entries(home) if e["type"] == "compaction"]) == 1


def test_the_summary_uses_the_session_model_reasoning_level(home: PiHome) -> None:
    home.models(reasoning=True)
    home.settings(compaction={"keepRecentTokens": 50, "reserveTokens": 2000})
    home.server.route(summaries_answer())
    rpc = home.start("--thinking", "high")
    two_turns(rpc, home)

    assert rpc.ask({"type": "compact"})["success"] is True

    request = next(
        r.json()
        for r in home.server.requests
        if r.method == "POST" and "<conversation>" in user_text_of(r)
    )
    assert request["model"] == "fake-model"
    assert request.get("max_completion_tokens", request.get("max_tokens")) == 1600
    assert request.get("reasoning_effort") == "high"
    rpc.close()


def test_a_failing_half_of_a_split_turn_fails_the_whole_compaction(home: PiHome) -> None:
    home.settings(compaction={"keepRecentTokens": 1})  # the cut lands on the last answer

    def route(request: RecordedRequest) -> FakeResponse | None:
        text = user_text_of(request)
        if "<conversation>" not in text:
            return None
        if "Second question" in text:  # the split turn's beginning
            return chat_error(400, "prefix request rejected", "invalid_request_error")
        return chat_stream(SUMMARY)

    home.server.route(route)
    rpc = home.start()
    two_turns(rpc, home)

    response = rpc.ask({"type": "compact"})

    assert response["success"] is False
    assert response["error"].startswith("Turn prefix summarization failed: ")
    assert "prefix request rejected" in response["error"]
    assert len(summary_requests(home)) == 2  # both halves were asked, at once
    rpc.close()
    assert not [e for e in session_entries(home) if e["type"] == "compaction"]
