"""A saved session of another folder works in that folder, as in pi 0.73.1 (checked against it):
`pi --session FILE` started elsewhere and RPC `switch_session` both run the tools there, name it
in the system prompt and read its AGENTS.md, project skills and project plugins; a `new_session`
after the switch stays there."""

from __future__ import annotations

import json
import re
from pathlib import Path

from pi_core.testing import FakeLLMServer, chat_stream, console_script
from tests.cli.conftest import Cli
from tests.cli.rpc_script import RpcProcess
from tests.session.saved_sessions import probe_plugin, write_saved_session

SKILL = "---\nname: plum-skill\ndescription: PLUM-SKILL-MARKER picks plums.\n---\nPick plums.\n"


def other_project(cli: Cli) -> Path:
    """A folder beside the one pi starts in, with its own AGENTS.md and a project skill."""
    there = cli.cwd.parent / "there"
    (there / ".pi" / "skills" / "plum-skill").mkdir(parents=True)
    (there / ".pi" / "skills" / "plum-skill" / "SKILL.md").write_text(SKILL)
    (there / "AGENTS.md").write_text("PLUMS-AGENTS-MARKER\n")
    (cli.cwd / "AGENTS.md").write_text("APPLES-AGENTS-MARKER\n")
    for folder, name in ((there, "there"), (cli.cwd, "here")):
        (folder / ".pi" / "extensions").mkdir(parents=True, exist_ok=True)
        (folder / ".pi" / "extensions" / "probe.py").write_text(probe_plugin(name))
    return there


def queue_pwd(server: FakeLLMServer) -> None:
    """The model runs `pwd` with the bash tool, then says done."""
    server.queue(chat_stream(tool_calls=[("bash", {"command": "pwd"})]), chat_stream("done"))


def system_prompt(body: dict[str, object]) -> str:
    messages = body["messages"]
    assert isinstance(messages, list) and messages[0]["role"] == "system"
    return str(messages[0]["content"])


def assert_worked_in(cli: Cli, folder: Path, request: int, first: int = 0) -> None:
    """Request `request` ran `pwd` in `folder`; the system prompt and tools of every request
    from `first` on are `folder`'s."""
    bodies = [r.json() for r in cli.server.requests]
    for body in bodies[first : request + 1]:
        prompt = system_prompt(body)
        assert re.findall(r"Current working directory: (.*)", prompt) == [str(folder)]
        assert "PLUMS-AGENTS-MARKER" in prompt and "APPLES-AGENTS-MARKER" not in prompt
        assert "PLUM-SKILL-MARKER" in prompt
        names = [tool["function"]["name"] for tool in body["tools"]]
        assert "probe_there" in names and "probe_here" not in names  # the folder's plugins
    tools = [m["content"] for m in bodies[request]["messages"] if m["role"] == "tool"]
    assert tools[-1].strip() == str(folder)


def test_pi_session_file_from_another_folder_works_in_the_sessions_folder(cli: Cli) -> None:
    there = other_project(cli)
    session = write_saved_session(cli.agent_dir, there)
    queue_pwd(cli.server)
    result = cli.run("--session", str(session), "-p", "run pwd")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "done\n"
    assert "plums noted" in json.dumps(cli.server.requests[0].json()["messages"])
    assert_worked_in(cli, there, 1)


def test_paths_on_the_command_line_still_mean_the_start_folder(cli: Cli) -> None:
    """`@file` is read from where pi was started (pi resolves it against process.cwd())."""
    there = other_project(cli)
    (cli.cwd / "note.txt").write_text("NOTE-FROM-THE-START-FOLDER")
    session = write_saved_session(cli.agent_dir, there)
    cli.server.queue(chat_stream("read it"))
    result = cli.run("--session", str(session), "-p", "@note.txt")
    assert result.returncode == 0, result.stderr
    assert "NOTE-FROM-THE-START-FOLDER" in json.dumps(cli.server.requests[0].json()["messages"])
    assert_prompt_names(cli, there)


def assert_prompt_names(cli: Cli, folder: Path) -> None:
    prompt = system_prompt(cli.server.requests[0].json())
    assert re.findall(r"Current working directory: (.*)", prompt) == [str(folder)]


def test_rpc_switch_session_moves_to_the_sessions_folder_and_new_session_stays(cli: Cli) -> None:
    there = other_project(cli)
    session = write_saved_session(cli.agent_dir, there)
    cli.server.queue(chat_stream("still here"))
    queue_pwd(cli.server)
    queue_pwd(cli.server)
    process = RpcProcess([console_script("pi"), "--mode", "rpc"], cli.cwd, cli.env)

    def answer(command: dict[str, object], until: str | None = None) -> dict[str, object]:
        process.send(command)
        process.read_until(lambda r: r.get("id") == command["id"])
        response = process.records[-1]
        if until is not None:
            process.read_until(lambda r: r.get("type") == until)
        assert response.get("success") is True, response
        return response

    answer({"id": "p0", "type": "prompt", "message": "hello"}, until="agent_end")
    before = cli.server.requests[0].json()
    assert f"Current working directory: {cli.cwd}" in system_prompt(before)
    assert "probe_here" in [tool["function"]["name"] for tool in before["tools"]]
    answer({"id": "sw", "type": "switch_session", "sessionPath": str(session)})
    answer({"id": "p1", "type": "prompt", "message": "run pwd"}, until="agent_end")
    assert_worked_in(cli, there, 2, first=1)
    answer({"id": "n", "type": "new_session"})
    answer({"id": "p2", "type": "prompt", "message": "run pwd"}, until="agent_end")
    assert_worked_in(cli, there, 4, first=1)
    state = answer({"id": "s", "type": "get_state"})["data"]
    assert isinstance(state, dict)
    header = json.loads(Path(state["sessionFile"]).read_text().splitlines()[0])
    assert header["cwd"] == str(there)
    assert "Traceback" not in process.close()
