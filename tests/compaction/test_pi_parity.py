"""The same answers as pi 0.73.1's own functions, run in node on the same session files.

pi_reference.mjs imports pi's compaction and session modules from the installed package
(PI_REFERENCE_PACKAGE, default /tmp/piref/node_modules/@mariozechner/pi-coding-agent) and prints
estimateContextTokens, prepareCompaction (on many prefixes of the branch, with several
keepRecentTokens), collectEntriesForBranchSummary and prepareBranchEntries; the tests compute the
same here and compare. Skipped when node or the package is missing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from pi_core.compaction import (
    CompactionSettings,
    FileOperations,
    calculate_context_tokens,
    collect_entries_for_branch_summary,
    compute_file_lists,
    estimate_context_tokens,
    estimate_tokens,
    get_last_assistant_usage,
    prepare_branch_entries,
    prepare_compaction,
)
from pi_core.messages import (
    AgentMessage,
    AssistantMessage,
    BashExecutionMessage,
    Cost,
    ImageContent,
    StopReason,
    TextContent,
    ThinkingContent,
    ToolCall,
    ToolResultMessage,
    Usage,
    UserMessage,
)
from pi_core.session import SessionManager

PI_PACKAGE = Path(
    os.environ.get("PI_REFERENCE_PACKAGE", "/tmp/piref/node_modules/@mariozechner/pi-coding-agent")
)
PI_CORE = PI_PACKAGE / "dist" / "core"
SESSIONS = Path(__file__).resolve().parents[1] / "fixtures" / "sessions"
SCRIPT = Path(__file__).with_name("pi_reference.mjs")


def run_pi(session_file: Path, spec: dict[str, Any]) -> dict[str, Any]:
    """Run pi's functions on `session_file` (pi migrates an old file in place, as it does)."""
    node = shutil.which("node")
    if node is None or not (PI_CORE / "compaction" / "index.js").exists():
        pytest.skip("needs node and pi 0.73.1 installed (PI_REFERENCE_PACKAGE)")
    spec_file = session_file.with_name("spec.json")
    spec_file.write_text(json.dumps(spec))
    result = subprocess.run(
        [node, str(SCRIPT), str(PI_CORE), str(session_file), str(spec_file)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=session_file.parent,
    )
    assert result.returncode == 0, result.stderr
    answer: dict[str, Any] = json.loads(result.stdout)
    return answer


def js_sorted(paths: set[str]) -> list[str]:
    return sorted(paths, key=lambda p: p.encode("utf-16-be", "surrogatepass"))


def file_ops(ops: FileOperations) -> dict[str, list[str]]:
    return {
        "read": js_sorted(ops.read),
        "written": js_sorted(ops.written),
        "edited": js_sorted(ops.edited),
    }


def summary(messages: list[AgentMessage]) -> list[list[Any]]:
    return [[m.role, estimate_tokens(m)] for m in messages]


def _js(value: str | None) -> str:
    return "null" if value is None else value


def run_here(session_file: Path, spec: dict[str, Any]) -> dict[str, Any]:
    """The same answers from this implementation."""
    session = SessionManager.open(session_file)
    branch = session.get_branch()
    messages = session.build_session_context().messages
    estimate = estimate_context_tokens(messages)
    prepared: dict[str, Any] = {}
    for leaf in spec.get("leaves", [None]):
        path = session.get_branch(leaf) if leaf else branch
        for keep in spec["keepRecent"]:
            settings = CompactionSettings(keep_recent_tokens=keep)
            for n in spec["prefixes"]:
                p = prepare_compaction(path[:n], settings)
                prepared[f"{_js(leaf)}:{keep}:{n}"] = (
                    None
                    if p is None
                    else {
                        "firstKeptEntryId": p.first_kept_entry_id,
                        "isSplitTurn": p.is_split_turn,
                        "tokensBefore": p.tokens_before,
                        "previousSummary": p.previous_summary,
                        "messagesToSummarize": summary(p.messages_to_summarize),
                        "turnPrefixMessages": summary(p.turn_prefix_messages),
                        "fileOps": file_ops(p.file_ops),
                        "fileLists": compute_file_lists(p.file_ops).to_details(),
                    }
                )
    branches: dict[str, Any] = {}
    for old_leaf, target in spec.get("branches", []):
        entries, common = collect_entries_for_branch_summary(session, old_leaf, target)
        budgets = {}
        for budget in spec["budgets"]:
            b = prepare_branch_entries(entries, budget)
            budgets[str(budget)] = {
                "messages": summary(b.messages),
                "fileOps": file_ops(b.file_ops),
                "totalTokens": b.total_tokens,
            }
        branches[f"{old_leaf}>{target}"] = {
            "ids": [e.id for e in entries],
            "commonAncestorId": common,
            "budgets": budgets,
        }
    usage = get_last_assistant_usage(branch)
    return {
        "branchIds": [e.id for e in branch],
        "estimate": {
            "tokens": estimate.tokens,
            "usageTokens": estimate.usage_tokens,
            "trailingTokens": estimate.trailing_tokens,
            "lastUsageIndex": estimate.last_usage_index,
        },
        "perMessage": summary(messages),
        "lastUsage": None if usage is None else calculate_context_tokens(usage),
        "prepared": prepared,
        "branches": branches,
    }


def assert_same(ours: dict[str, Any], theirs: dict[str, Any]) -> None:
    theirs = dict(theirs)
    if theirs["lastUsage"] is not None:
        usage = Usage.model_validate(theirs["lastUsage"])
        theirs["lastUsage"] = calculate_context_tokens(usage)
    assert ours["branchIds"] == theirs["branchIds"]
    assert ours["estimate"] == theirs["estimate"]
    assert ours["perMessage"] == theirs["perMessage"]
    assert ours["lastUsage"] == theirs["lastUsage"]
    assert ours["prepared"].keys() == theirs["prepared"].keys()
    for key, prepared in theirs["prepared"].items():
        assert ours["prepared"][key] == prepared, key
    assert ours["branches"] == theirs["branches"]


@pytest.mark.parametrize("name", ["before-compaction", "large-session"])
def test_shared_sessions_match_pi(name: str, tmp_path: Path) -> None:
    session_file = tmp_path / f"{name}.jsonl"
    shutil.copy(SESSIONS / f"{name}.jsonl", session_file)
    lines = (SESSIONS / f"{name}.jsonl").read_text().splitlines()
    entries = len(lines) - 1
    compactions = [i - 1 for i, line in enumerate(lines) if '"type":"compaction"' in line]
    prefixes = sorted(
        {*range(1, entries + 1, 41), entries}
        | {i for c in compactions for i in (c, c + 1, c + 2, c + 60)}
    )
    spec = {"keepRecent": [20_000, 2_000], "prefixes": prefixes, "budgets": [0]}

    theirs = run_pi(session_file, spec)  # pi migrates the v1 file first: same ids for both
    ours = run_here(session_file, spec)

    assert_same(ours, theirs)
    # the cases worth having: splits, plain cuts, a rolling summary, nothing after a compaction
    full = ours["prepared"]
    assert any(p and p["isSplitTurn"] for p in full.values())
    assert any(p and p["messagesToSummarize"] and p["turnPrefixMessages"] for p in full.values())
    if compactions:
        assert any(p is None for p in full.values())
        assert any(p and p["previousSummary"] for p in full.values())


def write_tree_session(path: Path) -> dict[str, str]:
    """A session with every entry kind, images, non-ASCII text, a compaction with details, a
    branch summary with details, and two branches; returns the ids the test navigates between."""
    session = SessionManager.open(path)
    ids: dict[str, str] = {}

    def assistant(*content: Any, total: int | None = None, stop: StopReason = "toolUse") -> str:
        usage = Usage(input=70, output=30, cache_read=5, total_tokens=total, cost=Cost())
        return session.append_message(
            AssistantMessage(
                content=list(content),
                api="x",
                provider="p",
                model="m",
                usage=usage,
                stop_reason=stop,
            )
        )

    def result(text: str, images: int = 0) -> str:
        content: list[Any] = [TextContent(text=text)]
        content += [ImageContent(data="AAAA", mime_type="image/png")] * images
        return session.append_message(
            ToolResultMessage(tool_call_id="c", tool_name="read", content=content)
        )

    ids["root"] = session.append_message(UserMessage(content="fix the bug 😀 in the é module " * 8))
    assistant(
        ThinkingContent(thinking="let me look " * 30),
        TextContent(text="Reading."),
        ToolCall(id="1", name="read", arguments={"path": "src/a.py", "offset": 3}),
        ToolCall(id="2", name="read", arguments={"path": "src/ü😀.py"}),
    )
    result("contents " * 200, images=1)
    result("more " * 50)
    ids["edit"] = assistant(
        ToolCall(
            id="3",
            name="edit",
            arguments={"path": "src/a.py", "edits": [{"oldText": "a\n", "newText": "b\t"}]},
        )
    )
    result("applied")
    session.append_message(BashExecutionMessage(command="pytest -q", output="3 passed\n" * 40))
    ids["custom"] = session.append_custom_message_entry(
        "note",
        [TextContent(text="remember this " * 20), ImageContent(data="AA", mime_type="image/png")],
        True,
    )
    session.append_message(
        UserMessage(
            content=[
                TextContent(text="now write it " * 30),
                ImageContent(data="A", mime_type="image/png"),
            ]
        )
    )
    assistant(
        ToolCall(id="4", name="write", arguments={"path": "new.py", "content": "x = 1\n" * 80})
    )
    result("wrote")
    assistant(TextContent(text="Done. " * 40), total=4_321, stop="stop")
    session.append_compaction(
        "the first part",
        ids["custom"],
        4_321,
        {"readFiles": ["old/r.py"], "modifiedFiles": ["old/m.py"]},
    )
    session.append_model_change("p", "m2")
    session.append_thinking_level_change("high")
    ids["after"] = session.append_message(UserMessage(content="next step " * 100))
    assistant(ToolCall(id="5", name="edit", arguments={"path": "src/b.py", "edits": []}))
    result("ok " * 300, images=2)
    session.append_label_change(ids["after"], "here")
    assistant(TextContent(text="half"), stop="aborted")
    assistant(TextContent(text="oops"), stop="error")
    session.append_message(UserMessage(content="and then " * 500))
    ids["leaf1"] = assistant(TextContent(text="finished " * 60), total=9_000, stop="stop")

    session.branch_with_summary(
        ids["edit"], "tried another way", {"readFiles": ["b/r.py"], "modifiedFiles": ["b/m.py"]}
    )
    session.append_message(UserMessage(content="another way " * 200))
    assistant(ToolCall(id="6", name="write", arguments={"path": "alt.py", "content": "y"}))
    result("done " * 100)
    ids["leaf2"] = assistant(TextContent(text="alt done " * 50), total=3_000, stop="stop")
    session.close()
    return ids


def test_a_tree_session_with_every_entry_kind_matches_pi(tmp_path: Path) -> None:
    session_file = tmp_path / "tree.jsonl"
    ids = write_tree_session(session_file)
    entries = len(session_file.read_text().splitlines()) - 1
    spec = {
        "leaves": [ids["leaf1"], ids["leaf2"]],
        "keepRecent": [1, 60, 400, 1_500, 20_000],
        "prefixes": list(range(0, entries + 1)),
        "branches": [
            [ids["leaf2"], ids["leaf1"]],
            [ids["leaf1"], ids["leaf2"]],
            [ids["leaf1"], ids["root"]],
            [ids["leaf1"], ids["after"]],
            [ids["leaf2"], ids["leaf2"]],
        ],
        "budgets": [0, 30, 300, 1_000],
    }

    theirs = run_pi(session_file, spec)
    ours = run_here(session_file, spec)

    assert_same(ours, theirs)
    rolling = [p for p in ours["prepared"].values() if p and p["previousSummary"]]
    assert rolling and all("old/r.py" in p["fileOps"]["read"] for p in rolling)
    assert any(
        p and p["isSplitTurn"] and p["turnPrefixMessages"] for p in ours["prepared"].values()
    )
    assert any(p and not p["isSplitTurn"] for p in ours["prepared"].values())
    assert (
        sum(p is None for p in ours["prepared"].values()) > 1
    )  # empty, and right after compacting
