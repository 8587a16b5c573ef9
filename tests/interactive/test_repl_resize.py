"""Resizing the terminal: the chat is laid out again at the new width (as pi redraws it), no
line is padded to the full width, and `terminal.clearOnShrink` clears the rows a shrink left."""

from __future__ import annotations

import json
import re
from pathlib import Path

from pi_core.testing import chat_stream
from tests.interactive.conftest import Screen, editor_lines
from tests.interactive.test_repl_terminal_modes import wait_raw

CLEAR_ALL = b"\x1b[2J\x1b[H\x1b[3J"
PARAGRAPH = (
    "Paragraph words: amaranth buttercup cornflower daffodil edelweiss foxglove gardenia "
    "hyacinth irises jasmine."
)
TABLE = (
    "| flower | colour | season |\n|---|---|---|\n"
    "| amaranth-row | crimson-red-ish | late-summer-autumn |\n"
    "| buttercup-row | golden-yellow-ish | spring-early-summer |\n"
)
WORDS = PARAGRAPH.replace(":", "").replace(".", "").split()


def rows(screen: Screen) -> list[str]:
    """The pane's rows as the terminal holds them (history included, wrapped rows not joined)."""
    return screen._tmux("capture-pane", "-p", "-S", "-200").splitlines()


def test_narrowing_lays_the_chat_out_again_at_the_new_width(screen: Screen) -> None:
    screen.server.queue(chat_stream(PARAGRAPH + "\n\n" + TABLE))
    screen.start()
    screen.ready()
    screen.type("flowers please")
    screen.keys("Enter")
    screen.wait_for("↑10 ↓5")
    screen.wait_for("buttercup-row")
    screen.resize(60)

    def laid_out_again(shown: str) -> bool:
        on_rows = {word.strip(":.") for line in rows(screen) for word in line.split()}
        return set(WORDS) <= on_rows

    screen.wait_for(laid_out_again)  # every word whole on a row: wrapped by pi, not the terminal
    screen.wait_for("(fake) fake-model")
    shown = rows(screen)
    text = "\n".join(shown)
    assert text.count("Paragraph words") == 1  # no line twice
    assert text.count("(fake) fake-model") == 1  # nor the old footer left above the new one
    assert text.count("flowers please") == 1
    table_rows = [line for line in shown if "-row" in line]
    assert len(table_rows) == 2  # each table row starts once: not split by the terminal
    # the table is drawn again at the new width: every row of its box is as wide, within 60
    box = [line.rstrip() for line in shown if line.strip()[:1] in ("┌", "│", "├", "└")]
    assert box and len({len(line) for line in box}) == 1 and len(box[0]) <= 60, box


def test_lines_in_the_scrollback_are_not_padded_to_the_full_width(
    screen: Screen, tmp_path: Path
) -> None:
    screen.server.queue(chat_stream("A short answer.\n\n" + TABLE))
    raw = tmp_path / "raw"
    screen.start(raw=raw)
    screen.ready()
    screen.type("go")
    screen.keys("Enter")
    screen.wait_for("↑10 ↓5")
    data = wait_raw(raw, b"buttercup-row")
    assert b"A short answer." in data
    assert not re.search(rb"A short answer\.(\x1b\[[0-9;]*m)* {3,}", data)
    assert not re.search(rb"summer(\x1b\[[0-9;]*m)* {3,}", data)  # a table row's end
    assert b"loaded resources." in data  # the header, printed before the REPL starts
    assert not re.search(rb"loaded resources\.(\x1b\[[0-9;]*m)* {3,}", data)


def test_a_resize_mid_stream_shows_the_answer_once(screen: Screen, tmp_path: Path) -> None:
    line = "Line number {} of the answer, long enough to need two rows on a narrower terminal."
    answer = "".join(line.format(n) + "\n\n" for n in range(1, 11)) + "THE-END"
    held = chat_stream(answer, piece=16)
    held.pause_after_chunks = 36  # in the sixth paragraph: five are in the scrollback already
    screen.server.queue(held)
    raw = tmp_path / "raw"
    screen.start(raw=raw)
    screen.ready()
    screen.type("count")
    screen.keys("Enter")
    held.wait_paused()
    screen.wait_for("Line number 6 of the answer, long enough")  # the live tail, 85 columns
    offset = raw.stat().st_size
    screen.resize(60)
    wait_raw(raw, CLEAR_ALL, after=offset)  # the chat laid out again while the answer streams
    held.resume()
    screen.wait_for("THE-END")
    screen.wait_for("↑10 ↓5")
    shown = screen.text()
    text = " ".join(shown.split())  # rows wrapped by pi or by the terminal, joined
    for n in range(1, 11):
        assert text.count(line.format(n)) == 1, shown
    assert text.count("THE-END") == 1
    words = set(answer.split())
    for row in rows(screen):
        if "Line number" in row or "terminal." in row:  # wrapped by pi, at a space
            assert set(row.split()) <= words, row


def set_terminal(screen: Screen, **values: bool) -> None:
    """Write `terminal.*` settings."""
    settings = json.loads((screen.agent_dir / "settings.json").read_text())
    settings["terminal"] = values
    (screen.agent_dir / "settings.json").write_text(json.dumps(settings))


def open_and_close_settings(screen: Screen, raw: Path) -> int:
    """Open /settings (taller than the editor), close it; the raw offset before closing."""
    screen.type("/settings")
    screen.keys("Enter")
    screen.wait_for("type to search")
    offset = raw.stat().st_size
    screen.keys("Escape")
    screen.wait_for(lambda shown: "type to search" not in shown)
    return offset


def test_clear_on_shrink_clears_the_rows_a_closed_dialog_left(
    screen: Screen, tmp_path: Path
) -> None:
    set_terminal(screen, clearOnShrink=True)
    raw = tmp_path / "raw"
    screen.start(raw=raw)
    screen.ready()
    offset = open_and_close_settings(screen, raw)
    wait_raw(raw, CLEAR_ALL, after=offset)
    screen.wait_for("(fake) fake-model")
    assert screen.text().count("pi v") == 1  # the header printed again, once


def test_without_clear_on_shrink_a_closed_dialog_leaves_the_scrollback_alone(
    screen: Screen, tmp_path: Path
) -> None:
    raw = tmp_path / "raw"
    screen.start(raw=raw)
    screen.ready()
    offset = open_and_close_settings(screen, raw)
    screen.type("x")
    screen.wait_for(lambda shown: editor_lines(shown)[-1:] == ["x"])  # frames have run since
    assert CLEAR_ALL not in raw.read_bytes()[offset:]
