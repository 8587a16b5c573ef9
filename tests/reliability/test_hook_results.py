"""A hook answering with the wrong type is reported as an `extension_error` naming the plugin and
the hook, and pi goes on as if it had answered None (`pi --mode rpc`, a plugin loaded by `-e`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pi_core.testing import chat_stream
from tests.cli.conftest import Cli
from tests.cli.rpc_script import RpcProcess

Start = Callable[..., RpcProcess]

PLUGIN = """
from pi_core import hookimpl


@hookimpl
def {hook}(event):
    return {value}
"""


def start(cli: Cli, rpc: Start, hook: str, value: str) -> RpcProcess:
    plugin = cli.cwd / "wrong_answers.py"
    plugin.write_text(PLUGIN.format(hook=hook, value=value))
    return rpc("--no-session", "-e", str(plugin))


def errors_of(process: RpcProcess) -> list[dict[str, Any]]:
    return [r for r in process.records if r.get("type") == "extension_error"]


def test_a_payload_that_is_not_a_dict_is_reported_and_the_request_goes_out(
    cli: Cli, rpc: Start
) -> None:
    cli.server.queue(chat_stream("answered"))
    process = start(cli, rpc, "before_provider_request", "'not a payload'")
    process.send({"id": "p", "type": "prompt", "message": "hi"})
    process.read_until(lambda r: r.get("type") == "agent_end")

    (error,) = errors_of(process)
    assert error["event"] == "before_provider_request"
    assert error["extensionPath"].endswith("wrong_answers.py")
    assert "TypeError" in error["error"] and "str" in error["error"]
    assert cli.server.requests[0].json()["messages"][-1]["content"][0]["text"] == "hi"
    ends = [r for r in process.records if r.get("type") == "message_end"]
    assert ends[-1]["message"]["content"][0]["text"] == "answered"
    assert "Traceback" not in process.close()


def test_a_user_bash_answer_without_a_result_is_reported_and_the_command_still_runs(
    cli: Cli, rpc: Start
) -> None:
    process = start(cli, rpc, "user_bash", "{'operations': object()}")
    process.send({"id": "b", "type": "bash", "command": "echo ran-here"})
    process.read_until(lambda r: r.get("type") == "response" and r.get("id") == "b")

    response = process.records[-1]
    assert response["success"], response
    assert "ran-here" in response["data"]["output"]
    (error,) = errors_of(process)
    assert error["event"] == "user_bash"
    assert error["extensionPath"].endswith("wrong_answers.py")
    assert "result" in error["error"]
    assert "Traceback" not in process.close()


def test_a_cancel_flag_that_is_not_a_bool_is_reported_and_compaction_goes_on(
    cli: Cli, rpc: Start
) -> None:
    cli.server.queue(chat_stream("hello back"), chat_stream("## Goal\nSay hello."))
    process = start(cli, rpc, "session_before_compact", "{'cancel': 'yes'}")
    process.send({"id": "p", "type": "prompt", "message": "hello"})
    process.read_until(lambda r: r.get("type") == "agent_end")
    process.send({"id": "c", "type": "compact"})
    process.read_until(lambda r: r.get("type") == "response" and r.get("id") == "c")

    response = process.records[-1]
    assert response["success"], response.get("error")  # the default compactor's summary stands
    (error,) = errors_of(process)
    assert error["event"] == "session_before_compact"
    assert error["extensionPath"].endswith("wrong_answers.py")
    assert "cancel" in error["error"] and "str" in error["error"]
    assert "Traceback" not in process.close()


def test_a_block_flag_that_is_not_a_bool_blocks_the_tool(cli: Cli, rpc: Start) -> None:
    cli.server.queue(
        chat_stream(tool_calls=[("bash", {"command": "touch ran"})]), chat_stream("blocked")
    )
    process = start(cli, rpc, "tool_call", "{'block': 'no'}")
    process.send({"id": "p", "type": "prompt", "message": "make a file"})
    process.read_until(lambda r: r.get("type") == "agent_end")

    (error,) = errors_of(process)
    assert error["event"] == "tool_call" and "block" in error["error"]
    (end,) = [r for r in process.records if r.get("type") == "tool_execution_end"]
    assert end["isError"] is True
    assert not (cli.cwd / "ran").exists(), "a gate answering nonsense must fail closed"
    assert "Traceback" not in process.close()
