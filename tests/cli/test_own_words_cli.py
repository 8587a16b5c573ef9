"""What the real `pi` sends the model: its own wording, documentation paths that exist, and
SYSTEM.md / APPEND_SYSTEM.md / AGENTS.md combined as pi combines them."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pi_core.resources.system_prompt import default_doc_paths
from pi_core.testing import chat_stream
from tests.cli.conftest import Cli
from tests.test_own_words import runs

BORROWED = Path(__file__).resolve().parents[1] / "fixtures" / "borrowed_runs.txt"


def _first_request(cli: Cli, *args: str) -> dict[str, Any]:
    cli.server.queue(chat_stream("ok"))
    result = cli.run("-p", *args, "hi")
    assert result.returncode == 0, result.stderr
    body: dict[str, Any] = cli.server.requests[0].json()
    return body


def _system(body: dict[str, Any]) -> str:
    first = body["messages"][0]
    assert first["role"] in ("system", "developer")
    return str(first["content"])


def _texts(body: dict[str, Any]) -> list[str]:
    texts = [_system(body)]
    for tool in body["tools"]:
        texts.append(tool["function"]["description"])
        for prop in tool["function"]["parameters"]["properties"].values():
            texts.append(prop.get("description", ""))
    return texts


def test_the_default_prompt_and_tools_are_in_our_words(cli: Cli) -> None:
    body = _first_request(cli, "--tools", "read,bash,edit,write,grep,find,ls")
    borrowed = set(BORROWED.read_text().split())
    assert len(body["tools"]) == 7
    assert [text for text in _texts(body) if runs(text) & borrowed] == []
    root = re.escape(str(Path(default_doc_paths().docs).parent))
    named = re.findall(root + r"/[^\s,()]*[^\s,().:]", _system(body))
    assert len(named) > 10 and [p for p in named if not Path(p).exists()] == []


def test_system_md_replaces_and_the_rest_is_added(cli: Cli) -> None:
    (cli.cwd / ".pi").mkdir(exist_ok=True)
    (cli.cwd / ".pi" / "SYSTEM.md").write_text("BASE TEXT")
    (cli.cwd / ".pi" / "APPEND_SYSTEM.md").write_text("APPENDED TEXT")
    (cli.cwd / "AGENTS.md").write_text("PROJECT RULES")
    system = _system(_first_request(cli))
    assert system.startswith("BASE TEXT\n\nAPPENDED TEXT\n\n# Project Context\n\n")
    assert f"## {cli.cwd / 'AGENTS.md'}\n\nPROJECT RULES" in system
    assert "Available tools:" not in system
