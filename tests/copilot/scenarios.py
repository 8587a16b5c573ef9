"""The scripts both agents run as a GitHub Copilot user against a loopback HTTPS fake, for the
request comparison with pi 0.73.1 (`record_pi.py` records pi's; the test runs ours the same way).

The login is an auth.json record as pi writes it: the Copilot token (`access`) names the fake in
its `proxy-ep` field, so both agents derive the API's base URL from the token, as Copilot's own
does. That URL is always `https://`, hence the fake serves TLS with `tls/loopback.pem`, which both
agents are told to trust (`NODE_EXTRA_CA_CERTS`, `SSL_CERT_FILE`).
"""

from __future__ import annotations

import json
import os
import ssl
import subprocess
import time
from pathlib import Path
from typing import Any

from pi_core.testing import FakeLLMServer, FakeResponse, chat_stream
from tests.requests_vs_pi.scenarios import _png, anthropic_stream

TLS = Path(__file__).resolve().parent / "tls"
CERTIFICATE = TLS / "loopback.pem"
"""A self-signed certificate for 127.0.0.1 (test only; its key is `loopback.key`)."""

MODELS = {
    "anthropic-messages": "claude-sonnet-4.5",
    "openai-completions": "gpt-4.1",
    "openai-responses": "gpt-5-mini",
}
"""One Copilot catalog model per wire API."""

SCRIPTS = ("plain", "tool", "image")
GITHUB_TOKEN = "gho_github_token"
"""The GitHub token a login stores as `refresh` (what `FakeAuthServer` accepts)."""


def server_tls() -> ssl.SSLContext:
    """The fake's server-side TLS context."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(CERTIFICATE, TLS / "loopback.key")
    return context


def copilot_token(proxy: str, number: int = 1, expires_at: int | None = None) -> str:
    """A Copilot token in Copilot's `key=value;…` shape whose `proxy-ep` is `proxy`."""
    expires_at = expires_at or 4102444800  # 2100: the same token in every recording
    return f"tid=copilot-{number};exp={expires_at};sku=free;proxy-ep={proxy};8kp=1"


def auth_record(access: str, expires_ms: int) -> dict[str, Any]:
    """auth.json with a GitHub Copilot login, as pi writes it."""
    entry = {"type": "oauth", "refresh": GITHUB_TOKEN, "access": access, "expires": expires_ms}
    return {"github-copilot": entry}


def responses_stream(text: str, call: tuple[str, dict[str, Any]] | None = None) -> FakeResponse:
    """A streamed Responses API answer: a text message, or one function call."""
    if call is None:
        item: dict[str, Any] = {"id": "msg_1", "type": "message", "role": "assistant",
                                "content": [], "status": "in_progress"}  # fmt: skip
        done = {**item, "status": "completed",
                "content": [{"type": "output_text", "text": text, "annotations": []}]}  # fmt: skip
        delta = {"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 0,
                 "content_index": 0, "delta": text}  # fmt: skip
    else:
        arguments = json.dumps(call[1])
        item = {"id": "fc_1", "type": "function_call", "call_id": "call_1", "name": call[0],
                "arguments": "", "status": "in_progress"}  # fmt: skip
        done = {**item, "arguments": arguments, "status": "completed"}
        delta = {"type": "response.function_call_arguments.delta", "item_id": "fc_1",
                 "output_index": 0, "delta": arguments}  # fmt: skip
    usage = {"input_tokens": 3, "output_tokens": 1, "total_tokens": 4}
    return FakeResponse.sse([
        {"type": "response.created", "response": {"id": "r", "status": "in_progress"}},
        {"type": "response.output_item.added", "output_index": 0, "item": item},
        delta,
        {"type": "response.output_item.done", "output_index": 0, "item": done},
        {"type": "response.completed",
         "response": {"id": "r", "status": "completed", "output": [done], "usage": usage}},
    ])  # fmt: skip


def answers(api: str, script: str) -> list[FakeResponse]:
    """What the fake answers, request by request."""
    read = ("read", {"path": "note.txt"})
    if api == "anthropic-messages":
        if script == "tool":
            first = anthropic_stream("", "", {"name": read[0], "arguments": read[1]})
            return [first, anthropic_stream("It says hello.")]
        return [anthropic_stream("Hi.")]
    if api == "openai-responses":
        if script == "tool":
            return [responses_stream("", read), responses_stream("It says hello.")]
        return [responses_stream("Hi.")]
    model = MODELS[api]
    if script == "tool":
        first = chat_stream(tool_calls=[read], model=model)
        return [first, chat_stream("It says hello.", model=model)]
    return [chat_stream("Hi.", model=model)]


def arguments(script: str) -> list[str]:
    """The command-line arguments after the program, the same for both agents."""
    common = ["-p", "--no-session", "--tools", "read", "--thinking", "off"]
    if script == "plain":
        return [*common, "Say hi."]
    if script == "tool":
        return [*common, "Read note.txt."]
    return [*common, "@pic.png", "Describe it."]


def environment(home: Path, agent: Path) -> dict[str, str]:
    """A fresh home that trusts the fake's certificate and holds no key of any provider."""
    env = {**os.environ, "HOME": str(home), "PI_CODING_AGENT_DIR": str(agent), "PI_OFFLINE": "1",
           "NO_COLOR": "1", "NODE_EXTRA_CA_CERTS": str(CERTIFICATE),
           "SSL_CERT_FILE": str(CERTIFICATE),
           # a request that misses the fake goes to a closed loopback port, never out
           "HTTPS_PROXY": "http://127.0.0.1:9", "NO_PROXY": "127.0.0.1"}  # fmt: skip
    for key in ("COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN", "PI_CACHE_RETENTION",
                "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "PI_TEST_OAUTH_ORIGIN"):  # fmt: skip
        env.pop(key, None)
    return env


def prepare(root: Path, model: str) -> tuple[Path, Path, Path]:
    """Make `root`'s home, agent dir (settings choosing the Copilot model) and project."""
    home, cwd = root / "home", root / "project"
    agent = home / ".pi" / "agent"
    agent.mkdir(parents=True)
    cwd.mkdir()
    (cwd / "note.txt").write_text("hello\n")
    (cwd / "pic.png").write_bytes(_png())
    settings = {"defaultProvider": "github-copilot", "defaultModel": model}
    (agent / "settings.json").write_text(json.dumps(settings))
    return home, agent, cwd


def run(command: list[str], api: str, script: str, root: Path) -> list[dict[str, Any]]:
    """Run `command` + the script's arguments as a logged-in Copilot user against the fake;
    return each request's method, path, headers and body."""
    home, agent, cwd = prepare(root, MODELS[api])
    with FakeLLMServer(tls=server_tls()) as server:
        proxy = server.base_url.removeprefix("https://")
        expires = int(time.time() * 1000) + 3_600_000
        (agent / "auth.json").write_text(json.dumps(auth_record(copilot_token(proxy), expires)))
        server.queue(*answers(api, script))
        done = subprocess.run(
            [*command, *arguments(script)], cwd=cwd, env=environment(home, agent),
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr + done.stdout
        recorded = [
            {"method": r.method, "path": r.path, "headers": r.headers, "body": r.json()}
            for r in server.requests
        ]
    text = json.dumps(recorded).replace(str(root), "<root>").replace(proxy, "<fake>")
    return list(json.loads(text))
