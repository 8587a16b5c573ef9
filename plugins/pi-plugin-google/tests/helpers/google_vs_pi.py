"""The scripts both agents run against the loopback Gemini fake, for comparing our requests with
pi 0.73.1's (`tests/fixtures/vs_pi/record_pi.py` records pi's; `test_requests_vs_pi.py` ours)."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gemini_fake import reply

from pi_core.testing import FakeLLMServer, FakeResponse

KEY = "test-key"
SIGNATURE = "c2lnbmF0dXJlLTE="
"""A thought signature in the base64 form pi requires before it sends one back."""


@dataclass(frozen=True)
class Case:
    """A catalog provider and model whose base URL models.json points at the fake."""

    provider: str
    model: str
    key_variable: str
    path: str = ""


CASES = {
    "gemini-2.5": Case("google", "gemini-2.5-flash", "GEMINI_API_KEY", "/v1beta"),
    "gemini-3": Case("google", "gemini-3-pro-preview", "GEMINI_API_KEY", "/v1beta"),
    "vertex-key": Case("google-vertex", "gemini-2.5-pro", "GOOGLE_CLOUD_API_KEY"),
}

SCRIPTS = ("plain", "tool", "image")

HEADERS = ("content-type", "x-goog-api-key", "authorization")
"""The request headers compared (the client's own, such as user-agent, differ by design)."""


def png() -> bytes:
    """A valid 2x2 RGB PNG, small enough that pi sends it unchanged."""

    def part(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\x00" + b"\xff\x00\x00" * 2 for _ in range(2))
    header = struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + part(b"IHDR", header)
        + part(b"IDAT", zlib.compress(rows))
        + part(b"IEND", b"")
    )


EVENT_SCRIPTS = ("tool", "two-tools")
"""The scripts whose `--mode json` events are compared too."""


def answers(script: str) -> list[FakeResponse]:
    """What the fake answers, request by request."""
    if script == "two-tools":
        calls = (("read", {"path": "note.txt"}), ("read", {"path": "other.txt"}))
        return [reply("Let me look.", calls=calls), reply("They say hello.")]
    if script == "tool":
        call = ("read", {"path": "note.txt"})
        first = reply(thought="Let me read it.", calls=(call,), signature=SIGNATURE)
        return [first, reply("It says hello.")]
    return [reply("Hi.")]


def arguments(script: str) -> list[str]:
    """The command-line arguments after the program, the same for both agents."""
    common = ["-p", "--no-session", "--tools", "read"]
    if script == "plain":
        return [*common, "--thinking", "off", "Say hi."]
    if script in ("tool", "two-tools"):
        return [*common, "--thinking", "high", "Read note.txt."]
    return [*common, "--thinking", "off", "@pic.png", "Describe it."]


def run(command: list[str], case: Case, script: str, root: Path) -> list[dict[str, Any]]:
    """Run `command` + the script's arguments in a fresh home against the fake; return each
    request's method, path, compared headers and body (with `root` written `<root>`)."""
    return _run(command, case, script, root, [])[0]


def run_json(command: list[str], case: Case, script: str, root: Path) -> list[dict[str, Any]]:
    """Run the script in `--mode json`; return the JSON lines printed."""
    return _run(command, case, script, root, ["--mode", "json"])[1]


def _run(
    command: list[str], case: Case, script: str, root: Path, extra: list[str]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    home, cwd = root / "home", root / "project"
    agent = home / ".pi" / "agent"
    agent.mkdir(parents=True)
    cwd.mkdir()
    (cwd / "note.txt").write_text("hello\n")
    (cwd / "other.txt").write_text("hello again\n")
    (cwd / "pic.png").write_bytes(png())
    with FakeLLMServer() as server:
        models = {"providers": {case.provider: {"baseUrl": server.base_url + case.path}}}
        (agent / "models.json").write_text(json.dumps(models))
        settings = {"defaultProvider": case.provider, "defaultModel": case.model}
        (agent / "settings.json").write_text(json.dumps(settings))
        server.queue(*answers(script))
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GOOGLE", "GEMINI"))}
        env.update(HOME=str(home), PI_CODING_AGENT_DIR=str(agent), PI_OFFLINE="1", NO_COLOR="1")
        env[case.key_variable] = KEY
        done = subprocess.run(
            [*command, *extra, *arguments(script)], cwd=cwd, env=env, capture_output=True,
            text=True, timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr + done.stdout
        recorded = [
            {
                "method": request.method,
                "path": request.path,
                "headers": {name: request.headers.get(name) for name in HEADERS},
                "body": request.json(),
            }
            for request in server.requests
        ]
    # the project's path (an @file's name) differs from run to run
    requests = list(json.loads(json.dumps(recorded).replace(str(root), "<root>")))
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()] if extra else []
    return requests, lines
