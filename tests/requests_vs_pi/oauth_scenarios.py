"""Requests made with a Claude Pro/Max login, run the same way for pi 0.73.1 and ours: a plain
prompt, a tool loop (Claude Code's tool names both ways; `ls`, not one of them, as is) and
thinking. `record_pi_oauth.py` records pi's requests (bodies and headers) into `fixtures/`."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

from pi_core.testing import FakeLLMServer, FakeResponse
from tests.requests_vs_pi.scenarios import anthropic_stream

SCRIPTS = ("plain", "tool", "thinking")
MODEL = "claude-sonnet-4-5"
TOKEN = "sk-ant-oat01-test-access"
HEADERS = (
    "accept",
    "anthropic-beta",
    "anthropic-dangerous-direct-browser-access",
    "anthropic-version",
    "authorization",
    "content-type",
    "user-agent",
    "x-api-key",
    "x-app",
)
"""The headers compared: the ones pi sets itself (its HTTP client's own, `x-stainless-*`, are
not pi's choice)."""


def answers(script: str) -> list[FakeResponse]:
    """What the fake answers, request by request: the tool call comes back under Claude Code's
    name (`Read`), as Anthropic's model answers a request that offered `Read`."""
    if script == "tool":
        read = {"name": "Read", "arguments": {"path": "note.txt"}}
        return [anthropic_stream("", "Let me read it.", read), anthropic_stream("It says hello.")]
    if script == "thinking":
        return [anthropic_stream("Hi.", "The user greets me.")]
    return [anthropic_stream("Hi.")]


def arguments(script: str) -> list[str]:
    """The command-line arguments after the program, the same for both agents."""
    common = ["-p", "--no-session", "--tools", "read,bash,ls"]
    if script == "plain":
        return [*common, "--thinking", "off", "Say hi."]
    if script == "tool":
        return [*common, "--thinking", "high", "Read note.txt."]
    return [*common, "--thinking", "high", "Think, then say hi."]


def _auth() -> dict[str, Any]:
    """auth.json with a Claude Pro/Max login whose token is good for an hour."""
    expires = int(time.time() * 1000) + 3_600_000
    return {"anthropic": {"type": "oauth", "refresh": "r-1", "access": TOKEN, "expires": expires}}


def run(command: list[str], script: str, root: Path) -> list[dict[str, Any]]:
    """Run `command` + the script's arguments in a fresh home logged in to Anthropic with a
    subscription, against the fake; return each request's `headers` (those of `HEADERS` sent)
    and `body` (with `root` written `<root>`)."""
    home, cwd = root / "home", root / "project"
    agent = home / ".pi" / "agent"
    agent.mkdir(parents=True)
    cwd.mkdir()
    (cwd / "note.txt").write_text("hello\n")
    with FakeLLMServer() as server:
        models = {"providers": {"anthropic": {"baseUrl": server.base_url}}}
        (agent / "models.json").write_text(json.dumps(models))
        (agent / "auth.json").write_text(json.dumps(_auth()))
        settings = {"defaultProvider": "anthropic", "defaultModel": MODEL}
        (agent / "settings.json").write_text(json.dumps(settings))
        server.queue(*answers(script))
        env = {**os.environ, "HOME": str(home), "PI_CODING_AGENT_DIR": str(agent),
               "PI_OFFLINE": "1", "NO_COLOR": "1"}  # fmt: skip
        for key in ("ANTHROPIC_API_KEY", "ANTHROPIC_OAUTH_TOKEN", "PI_CACHE_RETENTION"):
            env.pop(key, None)
        done = subprocess.run(
            [*command, *arguments(script)], cwd=cwd, env=env, capture_output=True, text=True,
            timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr + done.stdout
        requests = [
            {
                "headers": {k: v for k, v in r.headers.items() if k in HEADERS},
                "body": r.json(),
            }
            for r in server.requests
        ]
    return list(json.loads(json.dumps(requests).replace(str(root), "<root>")))
