"""Newer pi's RPC additions that ACP bridges need: `get_available_thinking_levels` and the
`agent_settled` event (after the last `agent_end` of a run: retries and follow-ups included)."""

from __future__ import annotations

import json
import shutil
from typing import Any

from pi_core.testing import chat_error, chat_models_json, chat_stream
from tests.cli.conftest import Cli
from tests.cli.rpc_script import Records, RpcProcess


def rpc(cli: Cli) -> RpcProcess:
    pi = shutil.which("pi")
    assert pi
    return RpcProcess([pi, "--mode", "rpc", "--no-session"], cli.cwd, cli.env)


def response_for(process: RpcProcess, request_id: str) -> dict[str, Any]:
    process.read_until(lambda r: r.get("type") == "response" and r.get("id") == request_id)
    return process.records[-1]


def kinds(records: Records) -> list[str]:
    """Event types (responses by command), without streaming deltas."""
    return [r.get("command", r["type"]) for r in records if r["type"] != "message_update"]


def settled_then_quiet(process: RpcProcess) -> None:
    """Read until `agent_settled`, then until a later command's answer (a second settle of the
    same run would have come before it)."""
    process.read_until(lambda r: r["type"] == "agent_settled")
    process.send({"id": "after", "type": "get_state"})
    response_for(process, "after")


def test_thinking_levels_are_those_of_the_current_model(cli: Cli) -> None:
    models = chat_models_json(cli.server.base_url)
    models["providers"]["fake"]["models"] += [
        {"id": "thinker", "name": "Thinker", "reasoning": True},
        {"id": "deep", "name": "Deep", "reasoning": True,
         "thinkingLevelMap": {"minimal": None, "xhigh": "max"}},
    ]  # fmt: skip
    (cli.agent_dir / "models.json").write_text(json.dumps(models))
    process = rpc(cli)
    answers = []
    for model in ("fake-model", "thinker", "deep"):
        process.send({"id": f"m-{model}", "type": "set_model", "provider": "fake",
                      "modelId": model})  # fmt: skip
        assert response_for(process, f"m-{model}")["success"]
        process.send({"id": f"l-{model}", "type": "get_available_thinking_levels"})
        answers.append(response_for(process, f"l-{model}"))
    process.close()
    # newer pi: success(id, "get_available_thinking_levels", { levels })
    assert answers[0] == {"id": "l-fake-model", "type": "response",
                          "command": "get_available_thinking_levels", "success": True,
                          "data": {"levels": ["off"]}}  # fmt: skip
    assert answers[1]["data"] == {"levels": ["off", "minimal", "low", "medium", "high"]}
    assert answers[2]["data"] == {"levels": ["off", "low", "medium", "high", "xhigh"]}


def test_settled_once_after_the_last_agent_end_of_a_tool_turn(cli: Cli) -> None:
    (cli.cwd / "a.txt").write_text("alpha\n")
    cli.server.queue(chat_stream(tool_calls=[("read", {"path": "a.txt"})]), chat_stream("Done."))
    process = rpc(cli)
    process.send({"id": "p", "type": "prompt", "message": "Read a.txt"})
    settled_then_quiet(process)
    process.close()
    seen = kinds(process.records)
    assert seen.count("agent_settled") == 1
    last_end = max(i for i, kind in enumerate(seen) if kind == "agent_end")
    assert seen.index("agent_settled") > last_end
    assert next(r for r in process.records if r["type"] == "agent_settled") == {
        "type": "agent_settled",
        "aborted": False,
    }


def test_settled_waits_for_a_queued_follow_up(cli: Cli) -> None:
    first = chat_stream("first " * 20, piece=5, pause_after_chunks=2)
    cli.server.queue(first, chat_stream("Second answer."))
    process = rpc(cli)
    process.send({"id": "p", "type": "prompt", "message": "go"})
    process.read_until(lambda r: r["type"] == "message_update")  # held by the server
    process.send({"id": "f", "type": "prompt", "message": "then this",
                  "streamingBehavior": "followUp"})  # fmt: skip
    assert response_for(process, "f")["success"]
    first.resume()
    settled_then_quiet(process)
    process.close()
    assert len(cli.server.requests) == 2
    seen = kinds(process.records)
    assert seen.count("agent_settled") == 1
    settled = seen.index("agent_settled")
    last_answer = max(
        i for i, r in enumerate(r for r in process.records if r["type"] != "message_update")
        if r["type"] == "message_end" and r["message"].get("role") == "assistant"
    )  # fmt: skip
    assert settled > last_answer and "agent_end" not in seen[settled:]


def test_settled_not_while_a_retry_is_pending(cli: Cli) -> None:
    # the transport does not retry: the 503 reaches the session's own retry
    cli.settings(defaultProvider="fake", defaultModel="fake-model",
                 retry={"baseDelayMs": 10, "provider": {"maxRetries": 0}})  # fmt: skip
    retried = chat_stream("Recovered " * 20, piece=5, pause_after_chunks=2)
    cli.server.queue(chat_error(503, "overloaded"), retried)
    process = rpc(cli)
    process.send({"id": "p", "type": "prompt", "message": "hello"})
    process.read_until(lambda r: r["type"] == "auto_retry_start")
    process.read_until(lambda r: r["type"] == "message_update")  # the retry, held by the server
    assert "agent_end" in kinds(process.records)  # the failed attempt's run ended
    assert "agent_settled" not in kinds(process.records)
    retried.resume()
    settled_then_quiet(process)
    process.close()
    seen = kinds(process.records)
    assert len(cli.server.requests) == 2
    assert seen.count("agent_settled") == 1
    assert seen.index("auto_retry_end") < seen.index("agent_settled")
    assert "agent_end" not in seen[seen.index("agent_settled") :]


def test_an_aborted_run_settles_as_aborted(cli: Cli) -> None:
    held = chat_stream("story " * 40, piece=5, pause_after_chunks=2)
    cli.server.queue(held)
    process = rpc(cli)
    process.send({"id": "p", "type": "prompt", "message": "tell a story"})
    process.read_until(lambda r: r["type"] == "message_update")
    process.send({"id": "a", "type": "abort"})
    settled_then_quiet(process)
    held.resume()
    process.close()
    settled = [r for r in process.records if r["type"] == "agent_settled"]
    assert settled == [{"type": "agent_settled", "aborted": True}]


def test_an_abort_while_idle_neither_settles_nor_marks_the_next_run(cli: Cli) -> None:
    cli.server.queue(chat_stream("Fine."))
    process = rpc(cli)
    process.send({"id": "a", "type": "abort"})
    response_for(process, "a")
    process.send({"id": "p", "type": "prompt", "message": "hello"})
    settled_then_quiet(process)
    process.close()
    settled = [r for r in process.records if r["type"] == "agent_settled"]
    assert settled == [{"type": "agent_settled", "aborted": False}]
    assert kinds(process.records).index("agent_start") < kinds(process.records).index(
        "agent_settled"
    )


ONE_MORE_PLUGIN = """
from pi_core import hookimpl

sent = []


@hookimpl
def agent_end(event, ctx):
    if not sent:
        sent.append(True)
        ctx.send_user_message("One more thing")
"""

ASK_PLUGIN = """
from pi_core import hookimpl


async def ask(args, ctx):
    ctx.send_user_message(f"Question: {args}")


@hookimpl
def register_commands(register):
    register("ask", ask, description="Ask the model")
"""


def test_a_run_a_plugin_starts_from_agent_end_settles_with_the_first(cli: Cli) -> None:
    plugin = cli.cwd / "one_more.py"
    plugin.write_text(ONE_MORE_PLUGIN)
    cli.server.queue(chat_stream("First."), chat_stream("Second."))
    pi = shutil.which("pi")
    assert pi
    process = RpcProcess([pi, "--mode", "rpc", "--no-session", "-e", str(plugin)], cli.cwd,
                         cli.env)  # fmt: skip
    process.send({"id": "p", "type": "prompt", "message": "hello"})
    settled_then_quiet(process)
    process.close()
    seen = kinds(process.records)
    assert len(cli.server.requests) == 2
    assert seen.count("agent_settled") == 1 and seen.count("agent_end") == 2
    assert seen.index("agent_settled") > max(i for i, k in enumerate(seen) if k == "agent_end")


def test_a_command_that_sends_a_message_settles_after_its_turn(cli: Cli) -> None:
    plugin = cli.cwd / "ask.py"
    plugin.write_text(ASK_PLUGIN)
    cli.server.queue(chat_stream("Because."))
    pi = shutil.which("pi")
    assert pi
    process = RpcProcess([pi, "--mode", "rpc", "--no-session", "-e", str(plugin)], cli.cwd,
                         cli.env)  # fmt: skip
    process.send({"id": "p", "type": "prompt", "message": "/ask why"})
    settled_then_quiet(process)
    process.close()
    seen = kinds(process.records)
    assert seen.count("agent_settled") == 1
    assert seen.index("agent_end") < seen.index("agent_settled")
