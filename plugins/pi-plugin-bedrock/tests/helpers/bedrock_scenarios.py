"""Scripts both agents run against the loopback Bedrock fake, for comparing request bodies with
pi 0.73.1 (`record_pi.py` records pi's; `test_requests_vs_pi.py` runs ours the same way).

The models are the catalog's; models.json only points the provider's base URL at the fake.
"""

from __future__ import annotations

import json
import os
import struct
import subprocess
import zlib
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from bedrock_wire import event, stream, text_frames, tool_frames, turn

from pi_core.testing import FakeLLMServer, FakeResponse

CLAUDE = "us.anthropic.claude-sonnet-4-20250514-v1:0"
NOVA = "amazon.nova-pro-v1:0"
SCRIPTS = ("plain", "tool", "image", "adaptive")


def _png() -> bytes:
    """A valid 2x2 RGB PNG, small enough that both agents send it unchanged."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\x00" + b"\xff\x00\x00" * 2 for _ in range(2))
    header = struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def _reasoning(text: str, signature: str) -> list[bytes]:
    deltas = [{"reasoningContent": {"text": text}}, {"reasoningContent": {"signature": signature}}]
    frames = [event("contentBlockDelta", {"contentBlockIndex": 0, "delta": d}) for d in deltas]
    return [*frames, event("contentBlockStop", {"contentBlockIndex": 0})]


def answers(script: str) -> list[FakeResponse]:
    """What the fake answers, request by request."""
    if script == "tool":
        call = tool_frames("tooluse_read_1", "read", ['{"path": ', '"note.txt"}'], index=1)
        first = turn([*_reasoning("Let me read it.", "sig-1"), *call], stop="tool_use")
        return [stream(first), stream(turn(text_frames(["It says hello."])))]
    return [stream(turn(text_frames(["Hi."])))]


def model_for(script: str) -> str:
    """The catalog model a script uses."""
    return {"image": NOVA, "adaptive": "us.anthropic.claude-sonnet-4-6"}.get(script, CLAUDE)


def arguments(script: str) -> list[str]:
    """The command-line arguments after the program, the same for both agents."""
    common = [
        "-p",
        "--no-session",
        "--tools",
        "read",
        "--model",
        f"amazon-bedrock/{model_for(script)}",
    ]
    if script == "plain":
        return [*common, "--thinking", "off", "Say hi."]
    if script == "tool":
        return [*common, "--thinking", "high", "Read note.txt."]
    if script == "adaptive":
        return [*common, "--thinking", "medium", "Say hi."]
    return [*common, "@pic.png", "Describe it."]


def run(command: list[str], script: str, root: Path) -> list[dict[str, Any]]:
    """Run `command` + the script's arguments in a fresh home against the fake; return each
    request's path (model id decoded) and body (with `root` written `<root>`)."""
    home, cwd = root / "home", root / "project"
    agent = home / ".pi" / "agent"
    agent.mkdir(parents=True)
    cwd.mkdir()
    (cwd / "note.txt").write_text("hello\n")
    (cwd / "pic.png").write_bytes(_png())
    with FakeLLMServer() as server:
        models = {"providers": {"amazon-bedrock": {"baseUrl": server.base_url}}}
        (agent / "models.json").write_text(json.dumps(models))
        server.queue(*answers(script))
        env = {key: value for key, value in os.environ.items() if not key.startswith("AWS_")}
        env.update(
            {
                "HOME": str(home),
                "PI_CODING_AGENT_DIR": str(agent),
                "PI_OFFLINE": "1",
                "NO_COLOR": "1",
                "AWS_BEARER_TOKEN_BEDROCK": "test-token",
                "AWS_BEDROCK_FORCE_HTTP1": "1",  # pi's SDK speaks HTTP/2 unless told
                "AWS_EC2_METADATA_DISABLED": "true",
            }
        )
        env.pop("PI_CACHE_RETENTION", None)
        done = subprocess.run(
            [*command, *arguments(script)], cwd=cwd, env=env, capture_output=True, text=True,
            timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr + done.stdout
        requests = [
            {
                "path": unquote(r.path),
                "authorization": r.headers.get("authorization"),
                "body": r.json(),
            }
            for r in server.requests
        ]
    return list(json.loads(json.dumps(requests).replace(str(root), "<root>")))
