"""Several `pi acp` sessions in one process, in folders with different `.claude` permission
rules (`claudeSettings: true`): each session obeys its own folder's rules, whichever started
first, and a folder whose settings are broken closes only its own session's gate."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from acp import text_block
from acp.schema import AllowedOutcome, RequestPermissionResponse
from acp_test_client import Project, Recorder

from pi_core.testing import chat_stream

MARK = "echo ran > ran.txt"

# a site hook that breaks the gate's set-up in folders named "broken*" only
BROKEN_SETUP = """
import os
import pi_plugin_claude.runtime as runtime

_real = runtime.create_claude_runtime

def _maybe_fail(cwd, *args, **kwargs):
    if os.path.basename(str(cwd)).startswith("broken"):
        raise RuntimeError("simulated: this folder's settings cannot be loaded")
    return _real(cwd, *args, **kwargs)

runtime.create_claude_runtime = _maybe_fail
"""


def claude_folder(root: Path, name: str, settings: str) -> Path:
    """A folder whose `.claude/settings.json` holds `settings` (text, maybe not JSON)."""
    folder = root / name
    (folder / ".claude").mkdir(parents=True)
    (folder / ".claude" / "settings.json").write_text(settings)
    return folder


def rules(**permissions: list[str]) -> str:
    """A `.claude/settings.json` with these permission rules."""
    return json.dumps({"permissions": permissions})


def claude_settings_on(project: Project) -> None:
    """Turn on `claudeSettings` for every session of the agent folder."""
    settings = project.agent_dir / "settings.json"
    data = json.loads(settings.read_text())
    settings.write_text(json.dumps({**data, "claudeSettings": True}))


def tool_result_of(project: Project, index: int) -> str:
    """The tool result the fake's request number `index` carried (its last message)."""
    message = project.fake.requests[index].json()["messages"][-1]
    assert message["role"] == "tool"
    return json.dumps(message["content"])


class DialogRejecter(Recorder):  # type: ignore[misc,valid-type]
    """Allows the ACP gate's requests; rejects (and counts) a plugin's Allow / Reject dialog."""

    def __init__(self) -> None:
        super().__init__("allow_once")
        self.dialogs = 0

    async def request_permission(
        self, options: Any, session_id: str, tool_call: Any, **kwargs: Any
    ) -> RequestPermissionResponse:
        if "allow_once" in [o.option_id for o in options]:
            return await super().request_permission(options, session_id, tool_call, **kwargs)
        self.dialogs += 1
        return RequestPermissionResponse(
            outcome=AllowedOutcome(outcome="selected", option_id="reject")
        )


async def run_bash_in(project: Project, folders: list[Path], client: Any = None) -> None:
    """Open one session per folder (in that order) in one `pi acp`, then have each run bash."""
    for _ in folders:
        project.fake.queue(chat_stream(tool_calls=[("bash", {"command": MARK})]), chat_stream("ok"))
    async with project.agent(client or Recorder("allow_once")) as conn:
        sessions = [await conn.new_session(cwd=str(f), mcp_servers=[]) for f in folders]
        for session in sessions:
            reply = await conn.prompt(session_id=session.session_id, prompt=[text_block("go")])
            assert reply.stop_reason == "end_turn"


@pytest.mark.parametrize("deny_first", [True, False])
async def test_each_session_obeys_its_own_folders_claude_rules(
    project: Project, tmp_path: Path, deny_first: bool
) -> None:
    claude_settings_on(project)
    denying = claude_folder(tmp_path, "denying", rules(deny=["Bash"]))
    allowing = claude_folder(tmp_path, "allowing", rules(allow=["Bash"]))
    order = [denying, allowing] if deny_first else [allowing, denying]
    await run_bash_in(project, order)
    assert not (denying / "ran.txt").exists()
    assert (allowing / "ran.txt").read_text() == "ran\n"
    denied_at = 1 if deny_first else 3
    assert f"Permission to use Bash with command {MARK} has been denied" in tool_result_of(
        project, denied_at
    )


@pytest.mark.parametrize("malformed_first", [True, False])
async def test_a_malformed_claude_settings_file_gates_only_its_own_session(
    project: Project, tmp_path: Path, malformed_first: bool
) -> None:
    claude_settings_on(project)
    malformed = claude_folder(tmp_path, "malformed", '{"permissions": {"allow": ["Bash"]')
    healthy = claude_folder(tmp_path, "healthy", rules(allow=["Bash"]))
    order = [malformed, healthy] if malformed_first else [healthy, malformed]
    client = DialogRejecter()
    await run_bash_in(project, order, client)
    assert not (malformed / "ran.txt").exists()
    assert (healthy / "ran.txt").read_text() == "ran\n"
    # the broken file's rules are unknown: its Bash is refused without asking, naming the file
    assert client.dialogs == 0
    refused = tool_result_of(project, 1 if malformed_first else 3)
    assert f"Claude settings: {malformed / '.claude' / 'settings.json'}: invalid JSON" in refused
    assert "no tool may run until the file is fixed" in refused


@pytest.mark.parametrize("broken_first", [True, False])
async def test_a_gate_that_cannot_be_set_up_is_closed_for_its_own_session_only(
    project: Project, tmp_path: Path, broken_first: bool
) -> None:
    claude_settings_on(project)
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(BROKEN_SETUP)
    project.env["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(site), os.environ.get("PYTHONPATH")])
    )
    broken = claude_folder(tmp_path, "broken", rules(allow=["Bash"]))
    healthy = claude_folder(tmp_path, "healthy", rules(allow=["Bash"]))
    order = [broken, healthy] if broken_first else [healthy, broken]
    await run_bash_in(project, order)
    assert not (broken / "ran.txt").exists()
    assert (healthy / "ran.txt").read_text() == "ran\n"
    refused_at = 1 if broken_first else 3
    refused = tool_result_of(project, refused_at)
    assert "Claude settings could not be set up, so no tool may run" in refused
    assert "simulated: this folder's settings cannot be loaded" in refused


async def test_the_agent_folder_the_editor_names_can_turn_the_claude_gate_on(
    project: Project, tmp_path: Path
) -> None:
    # the environment's agent folder leaves claudeSettings off; the editor's turns it on
    folder = tmp_path / "client-agent"
    folder.mkdir()
    (folder / "models.json").write_text((project.agent_dir / "models.json").read_text())
    settings = {"defaultProvider": "fake", "defaultModel": "fake-model", "claudeSettings": True}
    (folder / "settings.json").write_text(json.dumps(settings))
    denying = claude_folder(tmp_path, "denying", rules(deny=["Bash"]))
    project.fake.queue(chat_stream(tool_calls=[("bash", {"command": MARK})]), chat_stream("ok"))
    async with project.agent(Recorder("allow_once"), pi={"agentDir": str(folder)}) as conn:
        session = await conn.new_session(cwd=str(denying), mcp_servers=[])
        await conn.prompt(session_id=session.session_id, prompt=[text_block("go")])
    assert not (denying / "ran.txt").exists()
    denied = f"Permission to use Bash with command {MARK} has been denied"
    assert denied in tool_result_of(project, 1)
