"""The built-in slash commands, model and thinking keys, the editor's history and $EDITOR."""

from __future__ import annotations

import json
import stat

from pi_core.testing import chat_stream
from tests.interactive.conftest import Screen, editor_lines, session_records, stripped_lines


def ask(screen: Screen, text: str, answer: str) -> None:
    screen.server.queue(chat_stream(answer))
    screen.type(text)
    screen.keys("Enter")
    screen.wait_for(lambda s: answer in stripped_lines(s))


def test_name_shows_in_the_footer_and_is_saved(screen: Screen) -> None:
    screen.start()
    screen.ready()
    ask(screen, "hi", "hello")
    screen.type("/name my work")
    screen.keys("Enter")
    screen.wait_for("~/project • my work")
    names = [r for r in session_records(screen) if r["type"] == "session_info"]
    assert names and names[-1]["name"] == "my work"


def test_session_prints_file_id_counts_and_tokens(screen: Screen) -> None:
    screen.start()
    screen.ready()
    ask(screen, "hi", "hello")
    screen.type("/session")
    screen.keys("Enter")
    shown = screen.wait_for("Session Info")
    lines = stripped_lines(shown)
    assert "User: 1" in lines and "Assistant: 1" in lines
    assert "Input: 10" in lines and "Output: 5" in lines
    assert f"File: {screen.sessions()[0]}" in shown


def test_new_starts_a_fresh_session(screen: Screen) -> None:
    screen.start()
    screen.ready()
    ask(screen, "zebra crossing", "hello")
    screen.type("/new")
    screen.keys("Enter")
    screen.wait_for("✓ New session started")
    ask(screen, "again", "second")
    assert len(screen.sessions()) == 2
    assert "zebra" not in str(screen.server.requests[1].json()["messages"])


def test_copy_falls_back_to_osc_52(screen: Screen) -> None:
    screen.start(env={"DISPLAY": "", "WAYLAND_DISPLAY": ""})
    screen.ready()
    screen.type("/copy")
    screen.keys("Enter")
    screen.wait_for("No agent messages to copy yet.")
    ask(screen, "hi", "copy me")
    screen.type("/copy")
    screen.keys("Enter")
    screen.wait_for("Copied last agent message to clipboard")


def test_hotkeys_lists_keys_and_plugin_shortcuts(screen: Screen) -> None:
    screen.start()
    screen.ready()
    screen.type("/hotkeys")
    screen.keys("Enter")
    shown = screen.wait_for("Keyboard shortcuts")
    assert "alt+enter" in shown and "queue a follow-up message" in shown
    # the file of the agent folder in use (PI_CODING_AGENT_DIR), not ~/.pi/agent's
    assert "Keyboard shortcuts (~/agent/keybindings.json)" in shown  # HOME is the test folder


def test_quit_exits(screen: Screen) -> None:
    screen.start()
    screen.ready()
    screen.type("/quit")
    screen.keys("Enter")
    screen.wait_for("EXIT=0")


def test_reload_reports_what_it_reloaded(screen: Screen) -> None:
    screen.start()
    screen.ready()
    screen.type("/reload")
    screen.keys("Enter")
    screen.wait_for("Reloaded plugins, skills, prompt templates, context files and keybindings")


def test_compact_with_nothing_to_compact_says_so(screen: Screen) -> None:
    screen.start()
    screen.ready()
    screen.type("/compact")
    screen.keys("Enter")
    screen.wait_for("Nothing to compact (no messages yet)")


def test_fork_picks_a_message_and_puts_it_in_the_editor(screen: Screen) -> None:
    screen.start()
    screen.ready()
    ask(screen, "first question", "one")
    ask(screen, "second question", "two")
    screen.type("/fork")
    screen.keys("Enter")
    screen.wait_for("Fork from Message")
    screen.keys("Down", "Enter")
    screen.wait_for("Forked to new session")
    screen.wait_for(lambda s: editor_lines(s) == ["second question"])
    assert len(screen.sessions()) == 2


def test_clone_duplicates_the_session(screen: Screen) -> None:
    screen.start()
    screen.ready()
    ask(screen, "hi", "hello")
    screen.type("/clone")
    screen.keys("Enter")
    screen.wait_for("Cloned to new session")
    assert len(screen.sessions()) == 2


def test_model_switches_directly_and_completes_its_argument(screen: Screen) -> None:
    models = json.loads((screen.agent_dir / "models.json").read_text())
    models["providers"]["fake"]["models"].append(
        {"id": "other-model", "name": "Other", "contextWindow": 64000, "maxTokens": 1000}
    )
    (screen.agent_dir / "models.json").write_text(json.dumps(models))
    screen.start()
    screen.ready()
    screen.type("/model fake/oth")
    screen.wait_for("fake/other-model")
    screen.keys("Tab")  # takes the completion and closes the menu
    screen.wait_for(lambda s: editor_lines(s) == ["/model fake/other-model"])
    screen.keys("Enter")  # sends the command
    screen.wait_for("(fake) other-model")
    screen.keys("C-p")
    screen.wait_for("(fake) fake-model")


def test_shift_tab_cycles_thinking_and_recolours_nothing_else(screen: Screen) -> None:
    screen.start()
    screen.ready()
    screen.wait_for("fake-model • medium")
    screen.keys("BTab")
    screen.wait_for("Thinking level: high")
    screen.wait_for("fake-model • high")


def test_ctrl_t_hides_thinking_and_saves_it(screen: Screen) -> None:
    screen.start()
    screen.ready()
    screen.keys("C-t")
    screen.wait_for("Thinking blocks: hidden")
    settings = json.loads((screen.agent_dir / "settings.json").read_text())
    assert settings["hideThinkingBlock"] is True
    screen.server.queue(chat_stream("visible answer", reasoning="secret pondering"))
    screen.type("think")
    screen.keys("Enter")
    shown = screen.wait_for("visible answer")
    assert "Thinking..." in shown and "secret pondering" not in shown


def test_thinking_is_shown_by_default(screen: Screen) -> None:
    screen.start()
    screen.ready()
    ask(screen, "think", "the answer")
    screen.server.queue(chat_stream("after", reasoning="open pondering"))
    screen.type("again")
    screen.keys("Enter")
    screen.wait_for("open pondering")


def test_history_is_kept_on_disk_per_project_and_searchable(screen: Screen) -> None:
    screen.start()
    screen.ready()
    ask(screen, "remember the alpaca", "ok")
    screen.keys("C-d")
    screen.wait_for("EXIT=0")
    screen.close()
    screen.start()
    screen.ready()
    screen.keys("Up")
    screen.wait_for(lambda s: editor_lines(s) == ["remember the alpaca"])
    screen.keys("C-c")
    screen.wait_for(lambda s: editor_lines(s) == [""])
    screen.keys("C-r")
    screen.type("alpa")
    screen.wait_for(lambda s: editor_lines(s) == ["remember the alpaca"])
    screen.keys("Enter")  # takes the match
    screen.wait_for(lambda s: "I-search" not in s)
    assert editor_lines(screen.text()) == ["remember the alpaca"]


def test_ctrl_g_edits_in_the_external_editor(screen: Screen) -> None:
    editor = screen.home / "fake-editor.sh"
    editor.write_text('#!/bin/sh\nprintf "written by the editor" > "$1"\n')
    editor.chmod(editor.stat().st_mode | stat.S_IEXEC)
    screen.start(env={"EDITOR": str(editor)})
    screen.ready()
    screen.type("draft")
    screen.keys("C-g")
    screen.wait_for(lambda s: editor_lines(s) == ["written by the editor"])


def test_ctrl_g_without_an_editor_says_how_to_set_one(screen: Screen) -> None:
    screen.start()
    screen.ready()
    screen.keys("C-g")
    screen.wait_for("No editor configured. Set $VISUAL or $EDITOR")


def test_ctrl_z_suspends_and_fg_brings_the_editor_back(screen: Screen) -> None:
    screen.start_in_shell()
    screen.ready()
    screen.type("kept text")
    screen.wait_for(lambda s: editor_lines(s) == ["kept text"])
    screen.keys("C-z")
    screen.wait_for("Stopped")
    screen.type("fg")
    screen.keys("Enter")
    screen.wait_for(lambda s: editor_lines(s) == ["kept text"] and "Stopped" in s)
    screen.keys("C-c", "C-c")
    screen.wait_for(lambda s: s.rstrip().endswith("$"))


def test_footer_shows_cost_and_a_yellow_context_above_70_percent(screen: Screen) -> None:
    models = json.loads((screen.agent_dir / "models.json").read_text())
    models["providers"]["fake"]["models"][0]["cost"] = {
        "input": 3, "output": 15, "cacheRead": 0, "cacheWrite": 0
    }  # fmt: skip
    (screen.agent_dir / "models.json").write_text(json.dumps(models))
    screen.server.queue(chat_stream("big context", usage=(95_000, 1_000)))
    screen.start()
    screen.ready()
    screen.type("hi")
    screen.keys("Enter")
    shown = screen.wait_for("75.0%/128k (auto)")
    assert "↑95k ↓1.0k $0.300" in shown
    coloured = screen._tmux("capture-pane", "-p", "-e")
    before = coloured.split("75.0%")[0].rsplit("\x1b[", 1)[1]
    assert before.startswith(("38;5;226m", "38;5;11m", "93m", "38;2;255;255;0m")), before


def test_model_flag_picks_the_model_shown_in_the_footer(screen: Screen) -> None:
    models = json.loads((screen.agent_dir / "models.json").read_text())
    models["providers"]["fake"]["models"].append(
        {"id": "other-model", "name": "Other", "contextWindow": 64000, "maxTokens": 1000}
    )
    (screen.agent_dir / "models.json").write_text(json.dumps(models))
    screen.start("--model", "fake/other-model")
    screen.wait_for("(fake) other-model")
