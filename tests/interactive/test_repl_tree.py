"""`/tree` in the real REPL: open, search, filter, label, navigate, cancel; double Esc."""

from __future__ import annotations

import json

from pi_core.testing import chat_stream
from tests.interactive.conftest import Screen, editor_lines, session_records, stripped_lines


def ask(screen: Screen, text: str, answer: str) -> None:
    screen.server.queue(chat_stream(answer))
    screen.type(text)
    screen.keys("Enter")
    screen.wait_for(lambda s: answer in stripped_lines(s))


def open_tree(screen: Screen) -> str:
    screen.type("/tree")
    screen.keys("Enter")
    return screen.wait_for("Session Tree")


def test_tree_search_and_navigate_to_a_user_message(screen: Screen) -> None:
    screen.start()
    screen.ready()
    ask(screen, "first question", "answer one")
    ask(screen, "second question", "answer two")
    shown = open_tree(screen)
    assert "• user: first question" in shown and "• assistant: answer two  ← current" in shown
    screen.type("first")
    screen.wait_for(lambda s: "(1/1)" in s and "→ • user: first question" in s)
    screen.keys("Enter")
    screen.wait_for("Summarize branch?")
    screen.keys("Enter")  # No summary
    screen.wait_for("Navigated to selected point")
    screen.wait_for(lambda s: editor_lines(s) == ["first question"])
    screen.keys("C-c")
    ask(screen, "another way", "answer three")
    records = session_records(screen)
    users = [r for r in records if r["type"] == "message" and r["message"]["role"] == "user"]
    assert [u["message"]["content"][0]["text"] for u in users][-1] == "another way"
    # the new message continues from where the first one started: a second branch
    assert users[-1]["parentId"] == users[0]["parentId"]


def test_tree_cancel_and_already_here(screen: Screen) -> None:
    screen.start()
    screen.ready()
    ask(screen, "only question", "only answer")
    open_tree(screen)
    screen.keys("Escape")
    screen.wait_for(lambda s: "Session Tree" not in s)
    open_tree(screen)
    screen.keys("Enter")  # the current leaf is selected when the tree opens
    screen.wait_for("Already at this point")


def test_tree_filters_and_label(screen: Screen) -> None:
    screen.start()
    screen.ready()
    ask(screen, "question one", "reply one")
    open_tree(screen)
    screen.keys("C-u")  # user messages only
    # the current leaf always shows, so the user-only view holds it and the user message
    screen.wait_for(lambda s: "Session Tree [user-only]" in s and "(2/2)" in s)
    screen.keys("Up")
    screen.wait_for("→ • user: question one")
    screen.keys("L")  # Shift+L: label the selected entry
    screen.wait_for("Label (empty to clear)")
    screen.type("bookmark")
    screen.keys("Enter")
    screen.wait_for("⚑ bookmark  user: question one")
    screen.keys("C-l")  # labeled only
    # a label is an entry of its own (the new leaf, so it shows too)
    shown = screen.wait_for(lambda s: "[labeled-only]" in s and "(1/2)" in s)
    assert "assistant: reply one" not in shown
    screen.keys("C-d")  # back to the default view
    screen.wait_for(lambda s: "Session Tree" in stripped_lines(s) and "• assistant: reply" in s)
    screen.keys("Escape")
    labels = [r for r in session_records(screen) if r["type"] == "label"]
    assert labels and labels[-1]["label"] == "bookmark"


def test_double_escape_opens_the_tree_or_what_the_setting_says(screen: Screen) -> None:
    screen.start()
    screen.ready()
    ask(screen, "hello there", "general kenobi")
    screen.keys("Escape", "Escape")
    screen.wait_for("Session Tree")
    screen.keys("Escape")
    screen.wait_for(lambda s: "Session Tree" not in s)
    screen.keys("C-d")
    screen.wait_for("EXIT=0")
    screen.close()
    settings = json.loads((screen.agent_dir / "settings.json").read_text())
    settings["doubleEscapeAction"] = "fork"
    (screen.agent_dir / "settings.json").write_text(json.dumps(settings))
    screen.start("-c")
    screen.ready()
    screen.keys("Escape", "Escape")
    screen.wait_for("Fork from Message")


def test_tree_summarizes_the_branch_left_with_custom_instructions(screen: Screen) -> None:
    screen.start()
    screen.ready()
    ask(screen, "first question", "answer one")
    ask(screen, "second question", "answer two")
    open_tree(screen)
    screen.type("first")
    screen.wait_for(lambda s: "(1/1)" in s)
    screen.keys("Enter")
    screen.wait_for("Summarize branch?")
    screen.keys("Down", "Down", "Enter")  # with a custom prompt
    screen.wait_for("Custom summarization instructions")
    screen.type("mention the zebra")
    screen.server.queue(chat_stream("we talked about two questions"))
    screen.keys("Enter")
    screen.wait_for("Navigated to selected point")
    summaries = [r for r in session_records(screen) if r["type"] == "branch_summary"]
    assert summaries and "we talked about two questions" in str(summaries[-1]["summary"])
    assert "mention the zebra" in json.dumps(screen.server.requests[-1].json())


def test_tree_summary_escape_returns_to_the_tree(screen: Screen) -> None:
    screen.start()
    screen.ready()
    ask(screen, "first question", "answer one")
    ask(screen, "second question", "answer two")
    open_tree(screen)
    screen.keys("Up")
    screen.wait_for("→ • user: second question")
    screen.keys("Enter")
    screen.wait_for("Summarize branch?")
    screen.keys("Escape")
    screen.wait_for(lambda s: "→ • user: second question" in s and "Summarize" not in s)
