"""A Task subagent's calls meet the parent's gates: the host's can_use_tool, any plugin's gate."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from claude_agent_sdk import ClaudeAgentOptions, PermissionResultDeny, ResultMessage, query
from claude_pi import Pi

from pi_core.testing import FakeLLMServer, chat_stream, console_script

TASK = {"description": "Tidy", "prompt": "tidy up", "subagent_type": "general-purpose"}


async def prompt_stream(text: str) -> Any:
    """A one-message prompt stream (can_use_tool needs query() in streaming mode)."""
    yield {"type": "user", "message": {"role": "user", "content": text}}


async def test_an_ask_inside_a_subagent_reaches_the_hosts_can_use_tool(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    server.queue(
        script.call("toolu_task", "Task", TASK),
        script.call("toolu_sub", "Bash", {"command": "touch made.txt"}),  # the subagent's call
        script.reply("the subagent gave up"),
        script.reply("done"),
    )
    asked: list[tuple[str, dict[str, Any]]] = []

    async def can_use_tool(name: str, tool_input: dict[str, Any], context: Any) -> Any:
        asked.append((name, dict(tool_input)))
        return PermissionResultDeny(message="No touching from subagents")

    options = ClaudeAgentOptions(cli_path=pi_claude, cwd=str(project), can_use_tool=can_use_tool)
    seen = [m async for m in query(prompt=prompt_stream("tidy"), options=options)]
    assert asked == [("Bash", {"command": "touch made.txt"})]  # Task itself is read-only
    assert not (project / "made.txt").exists()
    subagent_turn = server.requests[2].json()["messages"][-1]["content"]
    assert "No touching from subagents" in str(subagent_turn)
    result = seen[-1]
    assert isinstance(result, ResultMessage) and result.result == "done"


GATE_PLUGIN = """
from pathlib import Path

from pi_core import hookimpl
from pi_core.events import ToolCallResult

LOG = Path(__file__).with_suffix(".log")


@hookimpl
def tool_call(event):
    with LOG.open("a") as log:
        log.write(event.tool_name + "\\n")
    if event.tool_name == "Bash":
        return ToolCallResult(block=True, reason="the third-party gate refuses Bash")
    return None
"""


def test_a_third_party_gate_plugin_sees_and_blocks_subagent_calls(pi: Pi, tmp_path: Path) -> None:
    gate = tmp_path / "gate.py"
    gate.write_text(GATE_PLUGIN)
    pi.call("Task", **TASK)
    pi.call("Bash", command="touch made.txt")  # the subagent's call
    pi.queue(chat_stream("the subagent gave up"), chat_stream("done"))
    done = pi.run("tidy", "--claude", "-e", str(gate))
    assert done.returncode == 0, done.stderr
    assert not (pi.cwd / "made.txt").exists()
    assert gate.with_suffix(".log").read_text().split() == ["Task", "Bash"]
    assert pi.tool_results(2) == ["the third-party gate refuses Bash"]


REDACT_PLUGIN = """
from pi_core import hookimpl
from pi_core.events import ToolResultPatch
from pi_core.messages import TextContent


@hookimpl
def tool_result(event):
    text = "".join(getattr(block, "text", "") for block in event.content)
    if "hunter2" in text:
        return ToolResultPatch(content=[TextContent(text=text.replace("hunter2", "[redacted]"))])
    return None
"""


def test_a_plugins_tool_result_hook_patches_subagent_results(pi: Pi, tmp_path: Path) -> None:
    redact = tmp_path / "redact.py"
    redact.write_text(REDACT_PLUGIN)
    (pi.cwd / "notes.txt").write_text("password: hunter2\n")
    pi.call("Task", **TASK)
    pi.call("Read", file_path=str(pi.cwd / "notes.txt"))  # the subagent's call
    pi.queue(chat_stream("read it"), chat_stream("done"))
    done = pi.run("tidy", "--claude", "-e", str(redact))
    assert done.returncode == 0, done.stderr
    assert pi.tool_results(2) == ["1\tpassword: [redacted]"]
    assert all(b"hunter2" not in request.body for request in pi.server.requests)


def test_a_subagent_reads_claude_memory_as_its_parent_does(pi: Pi, pi_claude: str) -> None:
    (pi.cwd / "CLAUDE.local.md").write_text("Always answer in haiku.\n")  # pi does not read it
    for argv in ([console_script("pi"), "--claude", "-p", "go"], [pi_claude, "-p", "go"]):
        pi.server.requests.clear()
        pi.call("Task", **TASK)
        pi.queue(chat_stream("subagent answer"), chat_stream("done"))
        done = subprocess.run(
            argv, cwd=pi.cwd, env=pi.env, capture_output=True, text=True,
            timeout=60, stdin=subprocess.DEVNULL,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        parent, subagent = (pi.request(i)["messages"][0]["content"] for i in (0, 1))
        assert "Always answer in haiku." in parent, argv[0]
        assert "Always answer in haiku." in subagent, argv[0]
