"""Issue-29 flag scripts run by both pi 0.73.1 (recorded) and ours, reduced to what must match."""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pi_core.testing import FakeLLMServer, chat_stream


@dataclass(frozen=True)
class Case:
    """One `pi -p` run: its arguments, piped stdin and extra environment (`<root>` is the
    run's temporary folder)."""

    args: tuple[str, ...]
    stdin: str | None = None
    env: dict[str, str] = field(default_factory=dict)
    settings: dict[str, Any] = field(default_factory=dict)
    bash_call: str | None = None  # the model's first answer runs this with the bash tool


CASES: dict[str, Case] = {
    "models-provider-glob": Case(("--models", "alt/*", "-p", "hi")),
    "models-id-glob": Case(("--models", "*sonnet*", "-p", "hi")),
    "models-fuzzy": Case(("--models", "sonnet", "-p", "hi")),
    "models-level": Case(("--models", "fake-think:high,alt-one", "-p", "hi")),
    "models-saved-default-in-scope": Case(("--models", "alt-one,fake/*", "-p", "hi")),
    "enabled-models-setting": Case(("-p", "hi"), settings={"enabledModels": ["alt/*"]}),
    "models-no-match": Case(("--models", "nomatch,alt-one", "-p", "hi")),
    "models-bad-level": Case(("--models", "alt-one:bogus", "-p", "hi")),
    "thinking-bogus": Case(("--thinking", "bogus", "-p", "hi")),
    "session-dir-env": Case(
        ("-p", "hi"), env={"PI_CODING_AGENT_SESSION_DIR": "<root>/env-sessions"}
    ),
    "session-dir-flag-wins": Case(
        ("--session-dir", "<root>/flag-sessions", "-p", "hi"),
        env={"PI_CODING_AGENT_SESSION_DIR": "<root>/env-sessions"},
    ),
    "stdin-joined": Case(
        ("-p", "@notes.txt", "the message", "second"), stdin="\n  piped text \n\n"
    ),
    "stdin-blank": Case(("-p", "only message"), stdin=" \n\n"),
    "shell-settings-bash-tool": Case(
        ("-p", "run it"),
        settings={"shellPath": "<root>/myshell", "shellCommandPrefix": "GREETING=prefixed"},
        bash_call="echo $GREETING",
    ),
}

SHELL_SCRIPT = '#!/bin/sh\necho "via myshell"\nexec /bin/sh "$@"\n'
"""The `shellPath` of the shell case: it says it ran, then runs the command with sh."""


def models_json(base_url: str) -> dict[str, Any]:
    """Two providers on the fake server; `fake-think` reasons, the others do not."""
    provider = {"baseUrl": base_url, "api": "openai-completions", "apiKey": "test-key"}
    return {
        "providers": {
            "fake": {**provider, "models": [{"id": "fake-model"}, {"id": "fake-think",
                     "reasoning": True}, {"id": "fake-sonnet"}]},
            "alt": {**provider, "models": [{"id": "alt-one"}, {"id": "alt-sonnet-two"}]},
        }
    }  # fmt: skip


def run_case(command: list[str], case: Case, root: Path) -> dict[str, Any]:
    """Run the case under `root` against a fresh fake server and summarise it."""
    agent, cwd = root / "agent", root / "project"
    agent.mkdir(parents=True)
    cwd.mkdir()
    (cwd / "notes.txt").write_text("file body\n")
    with FakeLLMServer() as server:
        (agent / "models.json").write_text(json.dumps(models_json(server.base_url)))
        settings = {"defaultProvider": "fake", "defaultModel": "fake-model"}
        if case.args[:2] == ("--models", "alt-one,fake/*"):
            settings["defaultModel"] = "fake-sonnet"
        settings.update(
            {k: v.replace("<root>", str(root)) if isinstance(v, str) else v
             for k, v in case.settings.items()}
        )  # fmt: skip
        (agent / "settings.json").write_text(json.dumps(settings))
        shell = root / "myshell"
        shell.write_text(SHELL_SCRIPT)
        shell.chmod(0o755)
        if case.bash_call is not None:
            server.queue(chat_stream(tool_calls=[("bash", {"command": case.bash_call})]))
        server.queue(*(chat_stream("ok") for _ in range(4)))
        env = {**os.environ, "HOME": str(root), "PI_CODING_AGENT_DIR": str(agent), "NO_COLOR": "1"}
        env.pop("PI_CODING_AGENT_SESSION_DIR", None)
        env.update({k: v.replace("<root>", str(root)) for k, v in case.env.items()})
        args = [a.replace("<root>", str(root)) for a in case.args]
        done = subprocess.run(
            [*command, *args], cwd=cwd, env=env, input=case.stdin if case.stdin is not None else "",
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        requests = [r.json() for r in server.requests]
    return {
        "exit": done.returncode,
        "warnings": [line for line in done.stderr.splitlines() if line.startswith("Warning:")],
        "requests": [_request_summary(body, str(root)) for body in requests],
        "session_folders": sorted(_folder(p.parent.relative_to(root))
                                  for p in root.rglob("*.jsonl")),
    }  # fmt: skip


def _folder(relative: Path) -> str:
    """The folder with the encoded project path (which names the temporary folder) masked."""
    parts = ["<cwd>" if p.startswith("--") and p.endswith("--") else p for p in relative.parts]
    return "/".join(parts)


def _request_summary(body: dict[str, Any], root: str) -> dict[str, Any]:
    users = [m["content"] for m in body["messages"] if m["role"] == "user"]
    texts = [c if isinstance(c, str) else "".join(p.get("text", "") for p in c) for c in users]
    texts = [text.replace(root, "<root>") for text in texts]
    tools = [m["content"] for m in body["messages"] if m["role"] == "tool"]
    return {"model": body["model"], "reasoning_effort": body.get("reasoning_effort"), "user": texts,
            "tool_results": tools}  # fmt: skip
