"""`TERM=dumb`: a long answer is printed delta by delta, past 16 KiB too, and cleaned whole.

The real `pi` runs in tmux against the loopback fake with every byte it writes recorded
(`tmux pipe-pane`); the answer pauses mid-stream, so "printed so far" is checked at a known point.
"""

from __future__ import annotations

from pi_core.terminal_text import incomplete_tail, sanitize
from pi_core.testing import chat_stream
from tests.interactive.conftest import Screen
from tests.interactive.test_repl_hostile_text import PAYLOADS, start_recording

PIECE = 64  # characters of text per streamed chunk (after the first, which opens the answer)


def lines_up_to(text: str, length: int) -> str:
    """`text` grown with numbered lines to `length` characters."""
    number = 0
    while len(text) < length:
        number += 1
        text += f"L{len(text):06d}-{number:04d} {'.' * 60}\n"
    return text[:length]


def cut_inside(text: str, sequence: str, at: int) -> str:
    """`text` padded, then `sequence`, placed so that a chunk ends `at` characters into it."""
    padding = (-(len(text) + at)) % PIECE
    return text + "p" * padding + sequence


def long_hostile_answer() -> tuple[str, int]:
    """An answer of 48 KiB with escape sequences cut across chunks, and where it pauses."""
    text = lines_up_to("", 1024)
    text = cut_inside(text, "early\x1b]0;PWNED-EARLY\x07title\n", 9)
    text = lines_up_to(text, 18 * 1024)  # past 16 KiB: the partial message lags its deltas
    text = cut_inside(text, "clip\x1b]52;c;UFdORUQtTEFH\x1b\\board\n", 12)
    text = cut_inside(text, "csi\x1b[38;5;1", 10) + "96mcolour\n"
    text = lines_up_to(text, 20 * 1024)
    held = "BEFORE-THE-CUT \x1b]0;PWNED-HELD\x07 after\n"
    text = cut_inside(text, held, held.index("HELD"))
    pause_at = len(text) - len(held) + held.index("HELD")  # the title is cut there
    return lines_up_to(text, 48 * 1024) + "END-OF-ANSWER", pause_at


def terminal_bytes(text: str) -> bytes:
    """`text` as the terminal receives it (the pty turns a newline into CR LF)."""
    return text.replace("\n", "\r\n").encode()


def test_a_long_answer_is_printed_up_to_the_last_delta_and_cleaned(screen: Screen) -> None:
    answer, pause_at = long_hostile_answer()
    assert pause_at % PIECE == 0
    response = chat_stream(answer, piece=PIECE)
    response.pause_after_chunks = 1 + pause_at // PIECE  # the opening chunk, then the text
    screen.server.queue(response)
    raw_path = start_recording(screen, env={"TERM": "dumb"})
    screen.wait_for("> ")
    screen.type("hello")
    screen.keys("Enter")
    response.wait_paused()
    sent = answer[:pause_at]
    printable = sent[: incomplete_tail(sent)]
    assert printable.endswith("BEFORE-THE-CUT ")  # the cut title waits for its end
    expected = terminal_bytes(sanitize(printable))
    raw = screen.wait_for_output(raw_path, lambda data: data.endswith(expected))
    for payload in PAYLOADS:
        assert payload not in raw
    response.resume()
    raw = screen.wait_for_output(raw_path, b"END-OF-ANSWER")
    assert terminal_bytes(sanitize(answer)) in raw
    assert "early␛title" in sanitize(answer) and "BEFORE-THE-CUT ␛ after" in sanitize(answer)
    for payload in PAYLOADS:
        assert payload not in raw
    assert b"\x1b" not in raw.replace(b"\x1b[?2004", b"")


def test_an_answer_cut_mid_stream_keeps_what_streamed_and_removes_a_cut_sequence(
    screen: Screen,
) -> None:
    settings = screen.agent_dir / "settings.json"
    settings.write_text(settings.read_text()[:-1] + ', "retry": {"enabled": false}}')
    answer, cut_at = long_hostile_answer()
    response = chat_stream(answer, piece=PIECE)
    response.cut_after_chunks = 1 + cut_at // PIECE  # the connection drops inside the title
    screen.server.queue(response)
    raw_path = start_recording(screen, env={"TERM": "dumb"})
    screen.wait_for("> ")
    screen.type("hello")
    screen.keys("Enter")
    raw = screen.wait_for_output(raw_path, b"\r\nError: ")
    streamed = sanitize(answer[:cut_at])
    assert streamed.endswith("BEFORE-THE-CUT ␛")  # the cut title, removed whole
    assert terminal_bytes(streamed + "\nError: ") in raw
    for payload in PAYLOADS:
        assert payload not in raw
