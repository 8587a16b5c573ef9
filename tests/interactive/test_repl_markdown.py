"""How answers look in the real REPL: markdown laid out as pi lays it out, streamed and redrawn."""

from __future__ import annotations

import json

from pi_core.testing import chat_stream
from tests.interactive.conftest import Screen

PARAGRAPHS = "First paragraph of the answer.\n\n"
REST = (
    "Second paragraph, streamed later.\n\n"
    "## A heading\n\n"
    "Text under the heading.\n\n"
    "- one bullet\n- another\n\n"
    "```python\nx = 1\n```\n\n"
    "The end."
)


def answer_rows(screen_text: str, prompt: str, last: str) -> list[str]:
    """The rows of the answer below the last `prompt` row, up to the row holding `last`."""
    rows = [row.rstrip() for row in screen_text.splitlines()]
    start = max(i for i, row in enumerate(rows) if row.strip() == prompt)
    end = next(i for i in range(start, len(rows)) if last in rows[i])
    return rows[start + 1 : end + 1]


def test_streamed_paragraphs_keep_their_blank_rows_and_ctrl_o_redraws_the_same(
    screen: Screen,
) -> None:
    answer = chat_stream(PARAGRAPHS + REST, piece=len(PARAGRAPHS))
    answer.pause_after_chunks = 2  # the first paragraph alone reaches the scrollback first
    screen.server.queue(answer)
    screen.start()
    screen.ready()
    screen.type("explain")
    screen.keys("Enter")
    answer.wait_paused()
    screen.wait_for("First paragraph of the answer.")
    answer.resume()
    streamed = answer_rows(screen.wait_for("The end."), "explain", "The end.")
    first = next(i for i, row in enumerate(streamed) if "First paragraph" in row)
    assert [row.strip() for row in streamed[first - 1 :]] == [
        "",
        "First paragraph of the answer.",
        "",
        "Second paragraph, streamed later.",
        "",
        "A heading",
        "",
        "Text under the heading.",
        "",
        "- one bullet",
        "- another",
        "",
        "```python",
        "x = 1",
        "```",
        "",
        "The end.",
    ]
    screen.keys("C-o")
    redrawn = answer_rows(screen.wait_for("cycle models backwards"), "explain", "The end.")
    assert redrawn == streamed


def test_a_link_shows_its_url_as_text_and_never_escape_fragments(screen: Screen) -> None:
    answer = chat_stream("Read [the docs](https://example.com/docs) first, then go on. And more.")
    answer.pause_after_chunks = 9  # the link is complete, the paragraph still streaming
    screen.server.queue(answer)
    raw = screen.home / "raw.bin"
    screen.start()
    screen.ready()
    screen.record_output(raw)
    screen.type("links")
    screen.keys("Enter")
    answer.wait_paused()
    live = screen.wait_for("then go on")
    row = next(row for row in live.splitlines() if "then go on" in row)
    assert "Read the docs (https://example.com/docs) first, then go on" in row
    assert "8;" not in row and "\\" not in row
    answer.resume()
    done = screen.wait_for("And more.")
    assert "Read the docs (https://example.com/docs) first" in done
    assert b"\x1b]8;" not in raw.read_bytes()  # tmux drops OSC 8: pi sends none there


def test_a_terminal_that_shows_links_gets_osc_8_as_well_as_the_url(screen: Screen) -> None:
    screen.server.queue(chat_stream("See [the docs](https://example.com/docs)."))
    raw = screen.home / "raw.bin"
    screen.start(env={"TMUX": "", "TERM_PROGRAM": "kitty"})
    screen.ready()
    screen.record_output(raw)
    screen.type("links")
    screen.keys("Enter")
    assert "See the docs (https://example.com/docs)." in screen.wait_for("docs).")
    link = b"\x1b]8;id="
    screen.wait_for_output(
        raw, lambda data: link in data and b";https://example.com/docs\x1b\\" in data
    )


def test_a_multi_line_user_message_is_shown_as_lines(screen: Screen) -> None:
    screen.server.queue(chat_stream("ok"))
    screen.start()
    screen.ready()
    screen.type("first line")
    screen.keys("C-j")
    screen.type("second line")
    screen.keys("Enter")
    rows = [row.strip() for row in screen.wait_for("ok").splitlines()]
    assert "first line" in rows and "second line" in rows
    assert rows.index("second line") == rows.index("first line") + 1


def test_wide_characters_wrap_inside_table_cells(screen: Screen) -> None:
    cjk = "日本語の長いテキストがここにありますね本当に長い"
    emoji = "🎉" * 20
    screen.server.queue(chat_stream(f"| 名前 | 説明 |\n|---|---|\n| {cjk} | {emoji} |\n\nAfter."))
    screen.start(width=50)
    screen.ready()
    screen.type("table")
    screen.keys("Enter")
    rows = answer_rows(screen.wait_for("After."), "table", "After.")
    cells = [row.strip() for row in rows if row.strip().startswith("│")]
    assert "…" not in "\n".join(rows)
    assert all(len(row) <= 50 for row in rows)
    left = "".join(cell.split("│")[1].strip() for cell in cells[1:])
    right = "".join(cell.split("│")[2].strip() for cell in cells[1:])
    assert left == cjk and right == emoji  # every character kept, over several rows


def test_collapsed_bash_output_counts_screen_rows(screen: Screen) -> None:
    command = "printf 'a%.0s' $(seq 1 150); echo; seq 1 3"
    screen.server.queue(chat_stream("", tool_calls=[("bash", {"command": command})]),
                        chat_stream("done"))  # fmt: skip
    screen.start(width=60)
    screen.ready()
    screen.type("go")
    screen.keys("Enter")
    shown = screen.wait_for("Took ")
    rows = [row.strip() for row in shown.splitlines()]
    # 150 letters take three rows of 58 columns: with 1 2 3 that is 6 rows, the last 5 shown
    assert "... (1 earlier lines)" in rows
    hint = rows.index("... (1 earlier lines)")
    assert rows[hint + 1 : hint + 6] == ["a" * 58, "a" * 34, "1", "2", "3"]


def test_ordered_lists_and_the_spacing_of_thinking_answer_and_tool(screen: Screen) -> None:
    screen.server.queue(
        chat_stream("Steps:\n\n1. look\n2. run", reasoning="Thinking it over.",
                    tool_calls=[("bash", {"command": "echo hi"})]),
        chat_stream("Finished."),
    )  # fmt: skip
    screen.start()
    screen.ready()
    screen.type("plan")
    screen.keys("Enter")
    rows = [row.strip() for row in answer_rows(screen.wait_for("Finished."), "plan", "Finished.")]
    first = rows.index("Thinking it over.")
    assert rows[first - 1 : first + 6] == ["", "Thinking it over.", "", "Steps:", "", "1. look",
                                           "2. run"]  # fmt: skip
    # a blank row, then the tool box's own padding row, then its header
    assert rows[first + 6 : first + 9] == ["", "", "$ echo hi"]
    before_final = rows.index("Finished.")
    assert rows[before_final - 1] == ""


def test_code_block_indent_setting_is_honoured(screen: Screen) -> None:
    settings = json.loads((screen.agent_dir / "settings.json").read_text())
    settings["markdown"] = {"codeBlockIndent": "      "}
    (screen.agent_dir / "settings.json").write_text(json.dumps(settings))
    screen.server.queue(chat_stream("Code:\n\n```python\nx = 1\n```\n\nBye."))
    screen.start()
    screen.ready()
    screen.type("code")
    screen.keys("Enter")
    rows = answer_rows(screen.wait_for("Bye."), "code", "Bye.")
    fence = next(i for i, row in enumerate(rows) if row.strip() == "```python")
    assert rows[fence] == " ```python"  # the message's own one-column margin
    assert rows[fence + 1] == " " + "      " + "x = 1"
    assert rows[fence + 2] == " ```"


def test_code_block_indent_defaults_to_two_spaces(screen: Screen) -> None:
    screen.server.queue(chat_stream("```\nplain code\n```"))
    screen.start()
    screen.ready()
    screen.type("code")
    screen.keys("Enter")
    rows = answer_rows(screen.wait_for("plain code"), "code", "plain code")
    assert rows[-1] == "   plain code"
