"""The TypeScript claude-agent-sdk (npm, run with node) completes a session with pi-claude.

The SDK is installed once into ~/.cache/pi-claude-tests/ts-sdk (or taken from
$PI_CLAUDE_TS_SDK, a folder holding node_modules/@anthropic-ai/claude-agent-sdk). Without node
and npm, or when the package cannot be installed, the test is skipped and says why.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from pi_core.testing import FakeLLMServer

SMOKE = Path(__file__).parent / "ts_smoke" / "smoke.mjs"
CACHE = Path.home() / ".cache" / "pi-claude-tests" / "ts-sdk"  # the real home, before fixtures
PACKAGE = "@anthropic-ai/claude-agent-sdk"


def sdk_folder() -> Path:
    """A folder with the TS SDK installed, installing it on first use (or skip, saying why)."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are needed for the TypeScript SDK smoke test")
    given = os.environ.get("PI_CLAUDE_TS_SDK")
    folder = Path(given) if given else CACHE
    if (folder / "node_modules" / PACKAGE / "package.json").exists():
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["npm", "install", "--silent", "--prefix", str(folder), PACKAGE],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if done.returncode != 0:
        pytest.skip(f"npm could not install {PACKAGE}: {done.stderr.strip()[-300:]}")
    return folder


def test_typescript_sdk_completes_a_session_with_a_tool_call(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    folder = sdk_folder()
    server.queue(
        script.call(
            "toolu_ts", "Bash", {"command": "touch ts.txt && echo from-typescript"}, text="Running."
        ),
        script.reply("TS done."),
    )
    done = subprocess.run(
        ["node", str(SMOKE), str(folder), pi_claude, str(project)],
        capture_output=True,
        text=True,
        timeout=180,
        env=dict(os.environ),
    )
    assert done.returncode == 0, done.stderr
    messages = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    summary = messages[-1]
    assert summary == {"type": "smoke_summary", "asked": ["Bash"], "ok": True}
    result = messages[-2]
    assert (result["type"], result["subtype"], result["result"]) == (
        "result",
        "success",
        "TS done.",
    )
    tool_results = [
        block
        for m in messages
        if m["type"] == "user"
        for block in m["message"]["content"]
        if block.get("type") == "tool_result"
    ]
    assert "from-typescript" in tool_results[0]["content"]
    assert (project / "ts.txt").exists()
