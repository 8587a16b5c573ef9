"""The REPL end to end: start-up, sending, streaming with tools, interrupts and exits."""

from __future__ import annotations

import os
import signal

from pi_core.testing import chat_error, chat_stream
from tests.interactive.conftest import Screen, session_records, stripped_lines


def test_startup_shows_header_editor_and_footer(screen: Screen) -> None:
    screen.start()
    shown = screen.ready()
    assert "pi v" in shown
    assert "escape interrupt · ctrl+c/ctrl+d clear/exit" in shown
    assert "[Plugins]" in shown and "bash" in shown
    assert "~/project" in shown
    assert "0.0%/128k (auto)" in shown


def test_quiet_startup_hides_the_header(screen: Screen) -> None:
    (screen.agent_dir / "settings.json").write_text(
        '{"defaultProvider": "fake", "defaultModel": "fake-model", "quietStartup": true}'
    )
    screen.start()
    shown = screen.ready()
    assert "escape interrupt" not in shown


def test_a_prompt_streams_the_answer_and_draws_the_tool_call(screen: Screen) -> None:
    screen.server.queue(
        chat_stream("Let me look.", tool_calls=[("bash", {"command": "seq 1 30"})]),
        chat_stream("## Result\n\nThe numbers are **printed**.\n\n```python\nprint(1)\n```"),
    )
    screen.start()
    screen.ready()
    screen.type("count to thirty")
    screen.keys("Enter")
    screen.wait_for("↑20 ↓10")  # both answers' tokens in the footer: the run is over
    shown = screen.wait_for("print(1)")
    assert "The numbers are printed." in shown
    assert "count to thirty" in shown
    assert "$ seq 1 30" in shown
    assert "... (25 earlier lines)" in shown  # collapsed: the last lines only
    assert "30" in shown and "Took " in shown
    roles = [r["message"]["role"] for r in session_records(screen) if r["type"] == "message"]
    assert roles == ["user", "assistant", "toolResult", "assistant"]


def test_ctrl_o_while_the_agent_works_prints_the_latest_tool_output_again(screen: Screen) -> None:
    held = chat_stream("done")
    held.pause_after_chunks = 1  # the second answer stays open: the agent is still working
    screen.server.queue(chat_stream("", tool_calls=[("bash", {"command": "seq 1 30"})]), held)
    screen.start()
    screen.ready()
    screen.type("go")
    screen.keys("Enter")
    held.wait_paused()
    shown = screen.wait_for("Took ")
    assert "3" not in stripped_lines(shown)
    screen.keys("C-o")
    expanded = screen.wait_for("Tool output expanded:")
    assert "3" in stripped_lines(expanded.split("Tool output expanded:")[1])
    held.resume()
    screen.wait_for("done")


def test_message_and_file_arguments_open_the_repl_and_send(screen: Screen) -> None:
    (screen.cwd / "notes.txt").write_text("the secret is 42\n")
    screen.server.queue(chat_stream("I read it."))
    screen.start("what is in it", "@notes.txt")
    screen.wait_for("I read it.")
    body = screen.server.requests[0].json()
    sent = str(body["messages"])
    assert "the secret is 42" in sent and "what is in it" in sent


def test_continue_shows_the_previous_conversation(screen: Screen) -> None:
    screen.server.queue(chat_stream("first answer"))
    screen.start()
    screen.ready()
    screen.type("first question")
    screen.keys("Enter")
    screen.wait_for("first answer")
    screen.keys("C-d")
    screen.wait_for("EXIT=0")
    screen.close()
    screen.start("-c")
    shown = screen.ready()
    assert "first question" in shown and "first answer" in shown


def test_escape_aborts_and_keeps_the_partial_answer(screen: Screen) -> None:
    screen.server.queue(chat_stream("word " * 400, piece=5, chunk_delay=0.05))
    screen.start()
    screen.ready()
    screen.type("talk slowly")
    screen.keys("Enter")
    screen.wait_for("word word")
    screen.keys("Escape")
    screen.wait_for("Operation aborted")
    records = session_records(screen)
    last = [r for r in records if r["type"] == "message"][-1]["message"]
    assert last["stopReason"] == "aborted"  # type: ignore[index]


def test_steering_and_follow_up_are_queued_and_alt_up_restores_them(screen: Screen) -> None:
    screen.server.queue(chat_stream("word " * 400, piece=5, chunk_delay=0.05))
    screen.start()
    screen.ready()
    screen.type("talk slowly")
    screen.keys("Enter")
    screen.wait_for("word word")
    screen.type("steer this")
    screen.keys("Enter")
    screen.type("then that")
    screen.keys("M-Enter")
    shown = screen.wait_for("Follow-up: then that")
    assert "Steering: steer this" in shown
    assert "Alt+Up to edit all queued messages" in shown
    screen.keys("M-Up")
    screen.wait_for("Restored 2 queued message(s) to editor")
    screen.keys("Escape")
    screen.wait_for("Operation aborted")
    assert "Steering: steer this" not in screen.text().split("Operation aborted")[-1]


def test_escape_while_streaming_puts_the_queue_back_in_the_editor(screen: Screen) -> None:
    screen.server.queue(chat_stream("word " * 400, piece=5, chunk_delay=0.05))
    screen.start()
    screen.ready()
    screen.type("talk slowly")
    screen.keys("Enter")
    screen.wait_for("word word")
    screen.type("steer me")
    screen.keys("Enter")
    screen.wait_for("Steering: steer me")
    screen.keys("Escape")
    screen.wait_for("Operation aborted")
    tail = screen.wait_for(lambda s: "steer me" in s.split("Operation aborted")[-1])
    assert "Steering:" not in tail.split("Operation aborted")[-1]


def test_ctrl_c_clears_then_exits_when_pressed_twice(screen: Screen) -> None:
    screen.start()
    screen.ready()
    screen.type("some draft")
    screen.wait_for("some draft")
    screen.keys("C-c")
    screen.wait_for(lambda s: "some draft" not in s)
    screen.keys("C-c", "C-c")
    screen.wait_for("EXIT=0")


def test_ctrl_d_exits_on_an_empty_editor_only(screen: Screen) -> None:
    screen.start()
    screen.ready()
    screen.type("ab")
    screen.keys("Home", "C-d")
    screen.wait_for(lambda s: "\nb" in s and "ab" not in s)
    screen.keys("C-k")
    screen.wait_for(lambda s: "\nb" not in s)
    screen.keys("C-d")
    screen.wait_for("EXIT=0")


def test_user_bash_runs_and_double_bang_stays_out_of_context(screen: Screen) -> None:
    screen.start()
    screen.ready()
    screen.type("!echo visible-output")
    screen.keys("Enter")
    screen.wait_for(lambda s: "visible-output" in stripped_lines(s))
    screen.type("!!echo hidden-output")
    screen.keys("Enter")
    screen.wait_for("$ echo hidden-output")
    screen.wait_for(lambda s: "hidden-output" in stripped_lines(s))
    screen.server.queue(chat_stream("noted"))
    screen.type("what ran?")
    screen.keys("Enter")
    screen.wait_for("noted")
    sent = str(screen.server.requests[0].json()["messages"])
    assert "visible-output" in sent
    assert "hidden-output" not in sent


def test_sigterm_shuts_down_cleanly(screen: Screen) -> None:
    screen.start()
    screen.ready()
    os.kill(screen.pi_pid(), signal.SIGTERM)
    screen.wait_for("EXIT=0")


def test_edit_shows_a_numbered_diff_and_read_a_preview(screen: Screen) -> None:
    (screen.cwd / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    edit = {"path": "calc.py", "edits": [{"oldText": "a - b", "newText": "a + b"}]}
    screen.server.queue(
        chat_stream("", tool_calls=[("edit", edit)]),
        chat_stream("", tool_calls=[("read", {"path": "calc.py"})]),
        chat_stream("fixed"),
    )
    screen.start()
    screen.ready()
    screen.type("fix it")
    screen.keys("Enter")
    shown = screen.wait_for("fixed")
    lines = stripped_lines(shown)
    assert "edit calc.py" in lines and "read calc.py" in lines
    assert any(line.startswith("-2") and "return a - b" in line for line in lines)
    assert any(line.startswith("+2") and "return a + b" in line for line in lines)
    assert (screen.cwd / "calc.py").read_text().endswith("return a + b\n")


def test_a_failing_tool_is_drawn_as_an_error(screen: Screen) -> None:
    screen.server.queue(
        chat_stream("", tool_calls=[("read", {"path": "missing.txt"})]), chat_stream("oh well")
    )
    screen.start()
    screen.ready()
    screen.type("read it")
    screen.keys("Enter")
    shown = screen.wait_for("oh well")
    assert "read missing.txt" in stripped_lines(shown)
    assert "missing.txt" in shown.split("read missing.txt", 1)[1].split("oh well")[0]


def test_a_transient_error_is_retried_with_a_countdown(screen: Screen) -> None:
    (screen.agent_dir / "settings.json").write_text(
        '{"defaultProvider": "fake", "defaultModel": "fake-model",'
        ' "retry": {"enabled": true, "maxRetries": 2, "baseDelayMs": 50,'
        ' "provider": {"maxRetries": 0}}}'
    )
    screen.server.queue(chat_error(503, "overloaded right now"), chat_stream("recovered"))
    screen.start()
    screen.ready()
    screen.type("try")
    screen.keys("Enter")
    shown = screen.wait_for("recovered")
    assert "Warning: retrying (1/2)" in shown and "overloaded right now" in shown


def test_escape_cancels_a_retry_countdown(screen: Screen) -> None:
    (screen.agent_dir / "settings.json").write_text(
        '{"defaultProvider": "fake", "defaultModel": "fake-model",'
        ' "retry": {"enabled": true, "maxRetries": 2, "baseDelayMs": 60000,'
        ' "provider": {"maxRetries": 0}}}'
    )
    screen.server.queue(chat_error(503, "overloaded right now"))
    screen.start()
    screen.ready()
    screen.type("try")
    screen.keys("Enter")
    screen.wait_for("Retrying in")
    screen.keys("Escape")
    screen.wait_for(lambda s: "Retrying in" not in s)
    assert len(screen.server.requests) == 1
