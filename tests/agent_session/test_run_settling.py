"""A session-level run settles once, after its last `agent_end`: an overflow compaction's
continue is part of it (the event RPC prints as `agent_settled`; tests/cli/test_rpc_settled.py)."""

from __future__ import annotations

import json
from typing import Any

from pi_core.testing import chat_error, chat_stream
from tests.agent_session.conftest import Harness, plugin


def summary_plugin() -> Any:
    """A compaction plugin that answers with a fixed summary."""

    def session_before_compact(event: Any) -> dict[str, Any]:
        prep = event.preparation
        return {"compaction": {"summary": "SUMMARY", "firstKeptEntryId": prep.first_kept_entry_id,
                               "tokensBefore": prep.tokens_before}}  # fmt: skip

    return plugin(session_before_compact=session_before_compact)


async def test_an_overflow_compaction_and_its_continue_settle_with_the_prompt(
    harness: Harness,
) -> None:
    harness.server.queue(
        chat_stream("first " * 100),
        chat_stream("second " * 100),
        chat_error(400, "This model's maximum context length is 128000 tokens. However, your "
                   "messages resulted in 130000 tokens.", "invalid_request_error"),
        chat_stream("fits now"),
    )  # fmt: skip
    session = await harness.session(summary_plugin())
    harness.agent_dir.joinpath("settings.json").write_text(
        json.dumps({"compaction": {"keepRecentTokens": 50}})
    )
    session.settings.reload()
    log: list[str] = []
    session.subscribe(lambda event: log.append(event.type))
    session.runs.on_settled(lambda aborted: log.append(f"settled:{aborted}"))
    await session.prompt("a " + "x" * 600)
    await session.prompt("b " + "y" * 600)
    assert log.count("settled:False") == 2 and not session.runs.active
    del log[:]
    await session.prompt("c " + "z" * 600)
    assert log.count("settled:False") == 1
    assert log[-1] == "settled:False"
    assert log.count("agent_end") == 2  # the overflowed attempt, then the continue
    assert log.index("compaction_end") < len(log) - 1 - log[::-1].index("agent_end")
    assert session.get_last_assistant_text() == "fits now"


async def test_settled_comes_when_prompt_returns_and_not_for_a_handled_prompt(
    harness: Harness,
) -> None:
    def input_hook(event: Any) -> Any:
        return {"action": "handled"} if event.text == "skip" else None

    harness.server.queue(chat_stream("hi"))
    session = await harness.session(plugin(input=input_hook))
    settled: list[bool] = []
    session.runs.on_settled(settled.append)
    await session.prompt("skip")
    assert settled == [] and harness.server.requests == []
    await session.prompt("hello")
    assert settled == [False]
