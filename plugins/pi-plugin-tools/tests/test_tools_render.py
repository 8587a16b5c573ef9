"""REPL views: a one-line call and a compact result for each tool."""

from __future__ import annotations

import pytest
from pi_plugin_tools import create_tools

from pi_core.tools import ToolResult
from pi_core.tools.inputs import (
    BashToolDetails,
    EditToolDetails,
    GrepToolDetails,
    TruncationResult,
)

pytest.importorskip("rich")

TOOLS = {tool.name: tool for tool in create_tools()}


def call(name: str, args: dict[str, object]) -> str:
    tool = TOOLS[name]
    return str(tool.render_call(tool.validate_arguments(args), None).plain)


def test_call_views() -> None:
    assert call("read", {"path": "a.py", "offset": 5, "limit": 10}) == "read a.py:5-14"
    assert call("bash", {"command": "ls -la", "timeout": 30}) == "$ ls -la (timeout 30s)"
    assert call("grep", {"pattern": "TODO", "glob": "*.py"}) == "grep /TODO/ in . (*.py)"
    assert call("find", {"pattern": "*.md", "limit": 5}) == "find *.md in . (limit 5)"
    assert call("ls", {"path": "src"}) == "ls src"
    assert call("edit", {"path": "x.txt", "edits": []}) == "edit x.txt"
    assert call("write", {"path": "x.txt", "content": "a\nb"}) == "write x.txt\n\na\nb"


def test_partial_call_arguments_render() -> None:
    assert str(TOOLS["read"].render_call({"path": None}, None).plain) == "read ..."


def test_edit_result_shows_the_diff() -> None:
    result = ToolResult.text("ok", details=EditToolDetails(diff="-1 a\n+1 b", first_changed_line=1))
    view = TOOLS["edit"].render_result(result, {"expanded": False}, None)
    assert view.plain == "-1 a\n+1 b"
    as_dict = ToolResult.text("ok", details={"diff": "+1 x", "firstChangedLine": 1})
    assert TOOLS["edit"].render_result(as_dict, {}, None).plain == "+1 x"


def test_bash_result_shows_the_tail_and_full_output_path() -> None:
    truncation = TruncationResult(
        content="",
        truncated=True,
        truncated_by="lines",
        total_lines=3000,
        total_bytes=1,
        output_lines=2000,
        output_bytes=1,
        max_lines=2000,
        max_bytes=51200,
    )
    details = BashToolDetails(truncation=truncation, full_output_path="/tmp/pi-bash-x.log")
    result = ToolResult.text("\n".join(str(i) for i in range(1, 11)), details=details)
    view = TOOLS["bash"].render_result(result, {"expanded": False}, None).plain
    assert view.split("\n") == [
        "... (5 earlier lines)",
        "6",
        "7",
        "8",
        "9",
        "10",
        "[Full output: /tmp/pi-bash-x.log. Truncated: showing 2000 of 3000 lines]",
    ]


def test_grep_result_warns_about_limits() -> None:
    result = ToolResult.text(
        "a:1: x", details=GrepToolDetails(match_limit_reached=100, lines_truncated=True)
    )
    view = TOOLS["grep"].render_result(result, {}, None).plain
    assert view == "a:1: x\n[Truncated: 100 matches limit, some lines truncated]"


def test_write_result_is_silent_unless_it_failed() -> None:
    ok = ToolResult.text("Successfully wrote 1 bytes to x")
    assert TOOLS["write"].render_result(ok, {}, None) is None
    failed = TOOLS["write"].render_result(ToolResult.text("boom"), {"isError": True}, None)
    assert failed is not None and failed.plain == "boom"
