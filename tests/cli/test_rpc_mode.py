"""`pi --mode rpc` over real pipes: framing, bad input, the extension UI protocol, the client."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from pi_core.modes.rpc_client import RpcClient, RpcError
from pi_core.testing import chat_stream, console_script
from tests.cli.conftest import Cli
from tests.cli.rpc_script import RpcProcess

CONFIRM_PLUGIN = """
from pi_core import hookimpl


async def deploy(args, ctx):
    if await ctx.ui.confirm("Deploy?", f"Deploy {args} now?"):
        ctx.ui.notify(f"deployed {args}", "info")
    else:
        ctx.ui.notify("cancelled", "warning")


@hookimpl
def register_commands(register):
    register("deploy", deploy, description="Deploy after asking")
"""


def rpc(cli: Cli, *extra: str) -> RpcProcess:
    pi = console_script("pi")
    return RpcProcess([pi, "--mode", "rpc", "--no-session", *extra], cli.cwd, cli.env)


def response_for(process: RpcProcess, request_id: str) -> dict[str, Any]:
    process.read_until(lambda r: r.get("type") == "response" and r.get("id") == request_id)
    return process.records[-1]


def test_garbage_unknown_commands_and_bad_fields_get_errors_and_serving_goes_on(cli: Cli) -> None:
    process = rpc(cli)
    process.send_raw("this is not json\n")
    process.read_until(lambda r: r.get("command") == "parse")
    assert process.records[-1]["success"] is False
    assert process.records[-1]["error"].startswith("Failed to parse command")
    process.send({"id": "a", "type": "frobnicate"})
    unknown = response_for(process, "a")
    assert unknown == {"id": "a", "type": "response", "command": "frobnicate", "success": False,
                       "error": "Unknown command: frobnicate"}  # fmt: skip
    process.send({"id": "b", "type": "set_thinking_level", "level": "extreme"})
    assert "Unknown thinking level" in response_for(process, "b")["error"]
    process.send({"id": "c", "type": "prompt"})
    assert response_for(process, "c")["error"] == "Missing field 'message' for command 'prompt'"
    process.send({"id": "d", "type": "set_auto_retry", "enabled": "yes"})
    assert "wrong type" in response_for(process, "d")["error"]
    process.send({"id": "e", "type": "get_state"})
    state = response_for(process, "e")
    assert state["success"] and state["data"]["model"]["id"] == "fake-model"
    assert "Traceback" not in process.close()


def test_framing_is_lf_only(cli: Cli) -> None:
    cli.server.queue(chat_stream("noted"))
    process = rpc(cli)
    text = "line one\u2028still the same record\u2029and this"
    process.send_raw(
        json.dumps({"id": "p", "type": "prompt", "message": text}, ensure_ascii=False) + "\r\n"
    )
    assert response_for(process, "p")["success"]
    process.read_until(lambda r: r.get("type") == "agent_end")
    sent = cli.server.requests[0].json()["messages"][-1]["content"][0]["text"]
    assert sent == text
    process.send({"id": "m", "type": "get_messages"})
    assert response_for(process, "m")["data"]["messages"][0]["content"][0]["text"] == text
    process.close()


def test_a_prompt_while_streaming_needs_a_streaming_behavior(cli: Cli) -> None:
    first = chat_stream("slow " * 50, piece=5, pause_after_chunks=2)
    cli.server.queue(first, chat_stream("later"))
    process = rpc(cli)
    process.send({"id": "1", "type": "prompt", "message": "go"})
    process.read_until(lambda r: r.get("type") == "message_update")  # held there by the server
    process.send({"id": "2", "type": "prompt", "message": "now"})
    assert "streamingBehavior" in response_for(process, "2")["error"]
    process.send({"id": "3", "type": "prompt", "message": "after", "streamingBehavior": "followUp"})
    assert response_for(process, "3")["success"]
    first.resume()
    process.read_until(lambda r: r.get("type") == "agent_end")
    assert len(cli.server.requests) == 2
    process.close()


def test_extension_ui_requests_round_trip(cli: Cli) -> None:
    plugin = cli.cwd / "deploy.py"
    plugin.write_text(CONFIRM_PLUGIN)
    process = rpc(cli, "-e", str(plugin))
    for answer, expected in ((True, "deployed prod"), (False, "cancelled")):
        process.send({"id": f"d{answer}", "type": "prompt", "message": "/deploy prod"})
        process.read_until(lambda r: r.get("method") == "confirm")
        request = process.records[-1]
        assert request["title"] == "Deploy?" and request["message"] == "Deploy prod now?"
        process.send({"type": "extension_ui_response", "id": request["id"], "confirmed": answer})
        process.read_until(lambda r: r.get("method") == "notify")
        assert process.records[-1]["message"] == expected
    assert cli.server.requests == []  # commands never reach the model
    process.close()


def test_the_python_client_drives_a_conversation(cli: Cli) -> None:
    cli.server.queue(chat_stream(tool_calls=[("ls", {})]), chat_stream("One file."))
    (cli.cwd / "only.txt").write_text("x")
    pi = console_script("pi")

    async def main() -> tuple[list[str], str | None, list[dict[str, Any]], str]:
        events: list[str] = []
        async with RpcClient(["--no-session"], cwd=cli.cwd, env=cli.env, program=[pi]) as client:
            client.on_event(lambda e: events.append(e["type"]))
            await client.prompt("What is here?")
            await client.wait_for_idle(timeout=30)
            text = await client.get_last_assistant_text()
            messages = await client.get_messages()
            try:
                await client.set_model("nope", "nothing")
            except RpcError as error:
                refused = error.message
        return events, text, messages, refused

    events, text, messages, refused = asyncio.run(main())
    assert text == "One file."
    assert [m["role"] for m in messages] == ["user", "assistant", "toolResult", "assistant"]
    assert "tool_execution_end" in events and events[-2:] == ["agent_end", "agent_settled"]
    assert refused == "Model not found: nope/nothing"
