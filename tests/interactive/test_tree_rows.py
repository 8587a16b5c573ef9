"""The /tree rows from a real session tree: markers, branches, filters, folding, search."""

from __future__ import annotations

import asyncio
from typing import Any

from pi_core.fuzzy import fuzzy_score
from pi_core.modes.interactive.selectors.picker import Picker
from pi_core.modes.interactive.selectors.tree_rows import TreeState, flatten
from pi_core.session.manager import SessionManager


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": 1}


def assistant(text: str = "", call: dict[str, Any] | None = None) -> dict[str, Any]:
    content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
    if call:
        content.append({"type": "toolCall", **call})
    return {"role": "assistant", "content": content, "api": "x", "provider": "p", "model": "m",
            "usage": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0,
                      "totalTokens": 0, "cost": {"input": 0, "output": 0, "cacheRead": 0,
                                                 "cacheWrite": 0, "total": 0}},
            "stopReason": "toolUse" if call else "stop", "timestamp": 1}  # fmt: skip


def tool_result(call_id: str, name: str) -> dict[str, Any]:
    content = [{"type": "text", "text": "ok"}]
    return {"role": "toolResult", "toolCallId": call_id, "toolName": name, "content": content,
            "isError": False, "timestamp": 1}  # fmt: skip


def build() -> tuple[SessionManager, dict[str, str]]:
    """u1 → a1(call) → result → a2 ; and a second branch u1 → … from the root: u2 → a3."""
    manager = SessionManager.in_memory("/tmp")
    ids: dict[str, str] = {}
    ids["u1"] = manager.append_message(user("read the file"))
    ids["a1"] = manager.append_message(
        assistant(call={"id": "c1", "name": "read", "arguments": {"path": "notes.txt"}})
    )
    ids["r1"] = manager.append_message(tool_result("c1", "read"))
    ids["a2"] = manager.append_message(assistant("it says hello"))
    manager.append_model_change("p", "other")
    manager.reset_leaf()
    ids["u2"] = manager.append_message(user("something else"))
    ids["a3"] = manager.append_message(assistant("sure"))
    return manager, ids


def state(manager: SessionManager, mode: str = "default") -> TreeState:
    active = {entry.id for entry in manager.get_branch()}
    return TreeState(flatten(manager.get_tree(), active), manager.get_leaf_id(), mode)


def texts(tree: TreeState, query: str = "") -> list[str]:
    return [row.text for row in tree.rows(query)]


def test_rows_show_branches_markers_and_tool_results() -> None:
    manager, _ = build()
    assert texts(state(manager)) == [
        "  ├─ user: read the file",
        "  │  [read: notes.txt]",
        "  │  assistant: it says hello",
        "• └─ user: something else",
        "•    assistant: sure  ← current",
    ]


def test_filters() -> None:
    manager, _ = build()
    assert texts(state(manager, "user-only")) == [
        "  ├─ user: read the file",
        "• └─ user: something else",
        "•    assistant: sure  ← current",
    ]
    no_tools = texts(state(manager, "no-tools"))
    assert not any("[read" in t for t in no_tools) and len(no_tools) == 4
    everything = texts(state(manager, "all"))
    assert "  │  assistant: " in everything and "  │  [model: other]" in everything
    assert texts(state(manager, "labeled-only")) == ["•    assistant: sure  ← current"]


def test_labels_fold_and_search() -> None:
    manager, ids = build()
    manager.append_label_change(ids["u1"], "start")
    tree = state(manager)
    assert texts(tree)[0] == "  ├─ ⚑ start  user: read the file"
    assert texts(tree, "hello") == ["  │  assistant: it says hello"]
    assert texts(tree, "start read") == ["  ├─ ⚑ start  user: read the file"]
    tree.folded.add(ids["u1"])
    folded = texts(tree)
    assert folded[0].endswith("[+1]") and not any("hello" in t for t in folded)


def test_picker_filters_moves_wraps_and_answers() -> None:
    async def run() -> Any:
        manager, ids = build()
        tree = state(manager)
        picker = Picker("picker", "Session Tree", source=tree.rows)
        picker.refresh(ids["a3"])
        assert picker.current() is not None and picker.current().value == ids["a3"]
        picker.move(1)  # wraps to the top
        assert picker.selected == 0
        picker.prefill = "hello"
        assert [r.value for r in picker.rows()] == [ids["a2"]]
        picker.confirm()
        return await picker.future, ids

    answer, ids = asyncio.run(run())
    assert answer == ids["a2"]


def test_fuzzy_score_orders_exact_prefix_substring_scattered() -> None:
    scores = [fuzzy_score("fake", t) for t in ("fake", "fake/x", "a/fake", "f-a-k-e", "zzz")]
    assert scores[0] < scores[1] < scores[2] < scores[3]  # type: ignore[operator]
    assert scores[4] is None
