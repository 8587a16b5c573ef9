"""`tool_use_result` as Claude Code 2.1.197 reports it, for the same scripted calls.

Edit is compared with Claude Code's own result for the same file and call, recorded by
fixtures/claude_code/record_requests.py into fixtures/claude_code/requests.json.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from cc_recording import claude_code

from pi_core.testing import FakeLLMServer

LINES = "l1\nl2\nl3\nl4\nl5\nhello world\nl7\nl8\nl9\nl10\nl11\n"


def results(
    pi_claude: str, server: FakeLLMServer, script: Any, calls: list[tuple[str, dict[str, Any]]]
) -> list[Any]:
    """Run the calls through `pi-claude -p` (acceptEdits); the `tool_use_result` of each."""
    for index, (name, arguments) in enumerate(calls):
        server.queue(script.call(f"toolu_{index}", name, arguments))
    server.queue(script.reply("done"))
    done = subprocess.run(
        [pi_claude, "-p", "go", "--output-format", "stream-json", "--verbose",
         "--permission-mode", "acceptEdits"],
        input="", capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    return [line["tool_use_result"] for line in lines if "tool_use_result" in line]


def test_edit_reports_the_original_file_and_its_hunks(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    target = project / "f.txt"
    target.write_text(LINES)
    edit = {"file_path": str(target), "old_string": "hello world", "new_string": "bye\nworld"}
    [result] = results(pi_claude, server, script, [("Edit", edit)])
    recorded = claude_code("edit", project)["tool_use_results"][-1]
    assert recorded["originalFile"] == LINES
    for field in ("filePath", "oldString", "newString", "originalFile", "structuredPatch"):
        assert result[field] == recorded[field], field
    assert target.read_text() == LINES.replace("hello world", "bye\nworld")


def test_edit_replace_all_gives_one_hunk_per_distant_change(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    target = project / "g.txt"
    original = "x\n" + "".join(f"n{i}\n" for i in range(10)) + "x\n"
    target.write_text(original)
    edit = {"file_path": str(target), "old_string": "x", "new_string": "y", "replace_all": True}
    [result] = results(pi_claude, server, script, [("Edit", edit)])
    assert result["originalFile"] == original
    patch = result["structuredPatch"]
    assert [(h["oldStart"], h["oldLines"], h["newStart"], h["newLines"]) for h in patch] == [
        (1, 4, 1, 4),
        (9, 4, 9, 4),
    ]
    assert patch[0]["lines"] == ["-x", "+y", " n0", " n1", " n2"]
    assert patch[1]["lines"] == [" n7", " n8", " n9", "-x", "+y"]


def test_grep_only_matching_prints_each_match_alone(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    (project / "a.txt").write_text("foo=1 bar=2\nnothing\nbaz=3\n")
    grep = {"pattern": "[a-z]+=[0-9]", "output_mode": "content", "-o": True}
    [result] = results(pi_claude, server, script, [("Grep", grep)])
    assert result["content"].splitlines() == ["a.txt:1:foo=1", "a.txt:1:bar=2", "a.txt:3:baz=3"]
    grep_tool = next(t for t in server.requests[0].json()["tools"] if t["name"] == "Grep")
    assert grep_tool["input_schema"]["properties"]["-o"]["type"] == "boolean"


def test_ls_lists_the_whole_tree_without_hidden_entries(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    for folder in ("src/pkg/deep", "src/__pycache__", ".git", "build"):
        (project / folder).mkdir(parents=True)
    for name in ("src/a.py", "src/pkg/b.py", "src/pkg/deep/c.py", ".env", "build/out.o", "z.md"):
        (project / name).write_text("x\n")
    ls = {"path": str(project), "ignore": ["build"]}
    results(pi_claude, server, script, [("LS", ls)])
    listing = [m for m in server.requests[1].json()["messages"] if m["role"] == "user"][-1]
    text = next(b for b in listing["content"] if b["type"] == "tool_result")["content"]
    text = text if isinstance(text, str) else "".join(part["text"] for part in text)
    assert text.splitlines() == [
        f"- {project}/",
        "  - src/",
        "    - a.py",
        "    - pkg/",
        "      - b.py",
        "      - deep/",
        "        - c.py",
        "  - z.md",
    ]
