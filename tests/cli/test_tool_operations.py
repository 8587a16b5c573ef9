"""`pi -p` with a plugin (`-e`) that supplies every tool's operations: read, write, edit, ls, find,
grep and bash all run on its in-memory filesystem and scripted shell, and the disk is untouched."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pi_core.testing import chat_stream
from tests.cli.conftest import Cli

PLUGIN = Path(__file__).with_name("memory_tool_operations.py")
ALL_TOOLS = "read,write,edit,bash,ls,find,grep"


def _tool_texts(request: Any) -> list[str]:
    texts: list[str] = []
    for message in request.json()["messages"]:
        if message["role"] == "tool":
            content = message["content"]
            texts.append(content if isinstance(content, str) else content[0]["text"])
    return texts


def test_every_builtin_tool_runs_on_the_plugins_operations(cli: Cli) -> None:
    cli.server.queue(
        chat_stream(
            tool_calls=[
                ("write", {"path": "made/new.txt", "content": "written in memory\n"}),
                (
                    "edit",
                    {
                        "path": "notes.txt",
                        "edits": [{"oldText": "second line", "newText": "edited line"}],
                    },
                ),
                ("bash", {"command": "rm -rf /"}),
            ]
        ),
        chat_stream(
            tool_calls=[
                ("read", {"path": "notes.txt"}),
                ("read", {"path": "made/new.txt"}),
                ("ls", {"path": "."}),
                ("find", {"pattern": "*.txt"}),
                ("grep", {"pattern": "memory", "context": 1}),
            ]
        ),
        chat_stream("all done"),
    )
    before = sorted(p.name for p in cli.cwd.iterdir())

    result = cli.run("-p", "--no-session", "-e", str(PLUGIN), "--tools", ALL_TOOLS, "go")

    assert result.returncode == 0, result.stderr
    assert "all done" in result.stdout
    assert sorted(p.name for p in cli.cwd.iterdir()) == before  # nothing reached the disk
    write, edit, bash = _tool_texts(cli.server.requests[1])
    assert write == "Successfully wrote 18 bytes to made/new.txt"
    assert edit == "Successfully replaced 1 block(s) in notes.txt."
    assert bash.strip() == f"scripted: rm -rf / in {cli.cwd} mark=hooked"
    notes, new, listing, found, grep = _tool_texts(cli.server.requests[2])[3:]
    assert notes == "hello from memory\nedited line\n"
    assert new == "written in memory\n"
    assert listing == "made/\nnotes.txt"
    assert found == "made/new.txt\nnotes.txt"
    assert grep.split("\n") == [
        "made/new.txt:1: written in memory",
        "made/new.txt-2- ",
        "notes.txt:1: hello from memory",
        "notes.txt-2- edited line",
    ]


def test_a_missing_file_is_reported_in_the_tools_own_words(cli: Cli) -> None:
    cli.server.queue(chat_stream(tool_calls=[("read", {"path": "absent.txt"})]), chat_stream("ok"))

    result = cli.run("-p", "--no-session", "-e", str(PLUGIN), "go")

    assert result.returncode == 0, result.stderr
    (text,) = _tool_texts(cli.server.requests[1])
    assert text == f"File not found: {cli.cwd / 'absent.txt'}"


def test_pi_plugins_names_the_kinds_a_plugin_supplies(cli: Cli) -> None:
    result = cli.run("plugins", "--json", "-e", str(PLUGIN))

    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    (memory,) = [p for p in report["plugins"] if p["source"] == str(PLUGIN)]
    assert memory["registered"] == {
        "tool_operations": ["read", "write", "edit", "bash", "grep", "find", "ls", "spawn_hook"]
    }
