"""What the REPL asks of the terminal, read back from the bytes it writes to the pane: modified
Enter codes (kitty's protocol, xterm's modifyOtherKeys), synchronized output, the progress
indicator; and Ctrl+V pasting an image from the clipboard."""

from __future__ import annotations

import asyncio
import json
import os
import re
import stat
import struct
import time
import zlib
from pathlib import Path

import pytest

from pi_core.testing import chat_stream
from tests.interactive.conftest import WAIT_SECONDS, Screen, editor_lines

EXTENDED_KEYS = (("extended-keys", "on"),)


def wait_raw(path: Path, expected: bytes, after: int = 0) -> bytes:
    """Wait until the pane's raw output holds `expected` after offset `after`."""
    deadline = time.monotonic() + WAIT_SECONDS
    data = b""
    while time.monotonic() < deadline:
        data = path.read_bytes() if path.exists() else b""
        if expected in data[after:]:
            return data
        time.sleep(0.05)
    raise AssertionError(f"{expected!r} never written; output ends with {data[-400:]!r}")


def sent_text(screen: Screen) -> str:
    """The last user message of the last request the fake server got."""
    messages = screen.server.requests[-1].json()["messages"]
    content = [m for m in messages if m["role"] == "user"][-1]["content"]
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") for part in content)


def test_shift_enter_is_a_new_line_through_modify_other_keys(
    screen: Screen, tmp_path: Path
) -> None:
    raw = tmp_path / "raw"
    screen.server.queue(chat_stream("ok"))
    screen.start(raw=raw, tmux_options=EXTENDED_KEYS)
    screen.ready()
    wait_raw(raw, b"\x1b[?u")  # the kitty query first; tmux does not answer it …
    wait_raw(raw, b"\x1b[>4;2m")  # … so modifyOtherKeys mode 2 follows
    screen.type("first")
    screen.keys("S-Enter")  # tmux sends it as CSI 13;2u only in that mode
    screen.type("second")
    screen.keys("C-j")
    screen.type("third\\")
    screen.keys("Enter")  # `\` then Enter: a new line too
    screen.type("fourth")
    screen.wait_for(lambda shown: editor_lines(shown)[-4:] == ["first", "second", "third",
                                                                 "fourth"])  # fmt: skip
    screen.keys("Enter")
    screen.server.wait_for_requests(1)
    assert "first\nsecond\nthird\nfourth" in sent_text(screen)
    screen.wait_for("↑10 ↓5")
    offset = raw.stat().st_size
    screen.keys("C-d")
    screen.wait_for("EXIT=0")
    wait_raw(raw, b"\x1b[>4;0m", after=offset)  # given back on exit


def test_a_kitty_terminal_gets_its_flags_pushed_and_popped(screen: Screen, tmp_path: Path) -> None:
    raw = tmp_path / "raw"
    screen.start(raw=raw)
    screen.ready()
    wait_raw(raw, b"\x1b[?u")
    screen._tmux("send-keys", "-H", *(f"{b:02x}" for b in b"\x1b[?0u"))  # kitty's answer
    data = wait_raw(raw, b"\x1b[>1u")
    assert b"\x1b[>4;2m" not in data  # one protocol only: the answer came before the fallback
    assert "?0u" not in screen.text()  # the answer is not typed into the editor
    screen.type("one")
    screen._tmux("send-keys", "-H", *(f"{b:02x}" for b in b"\x1b[13;2u"))  # kitty Shift+Enter
    screen.type("two")
    screen.wait_for(lambda shown: editor_lines(shown)[-2:] == ["one", "two"])
    screen._tmux("send-keys", "-H", *(f"{b:02x}" for b in b"\x1b[99;5u"))  # kitty Ctrl+C
    screen.wait_for("Press ctrl+c again to exit")
    offset = raw.stat().st_size
    screen._tmux("send-keys", "-H", *(f"{b:02x}" for b in b"\x1b[100;5u"))  # kitty Ctrl+D
    screen.wait_for("EXIT=0")
    wait_raw(raw, b"\x1b[<u", after=offset)


def test_ctrl_z_gives_the_shell_plain_keys_and_fg_asks_again(
    screen: Screen, tmp_path: Path
) -> None:
    raw = tmp_path / "raw"
    screen.start_in_shell()
    screen._tmux("pipe-pane", "-o", f"cat >> {raw}")  # pi takes a while to start: no byte lost
    screen.ready()
    wait_raw(raw, b"\x1b[>4;2m")
    offset = raw.stat().st_size
    screen.keys("C-z")
    screen.wait_for("Stopped")
    wait_raw(raw, b"\x1b[>4;0m", after=offset)
    offset = raw.stat().st_size
    screen.type("fg")
    screen.keys("Enter")
    wait_raw(raw, b"\x1b[>4;2m", after=offset)
    screen.keys("C-c", "C-c")
    screen.wait_for(lambda s: s.rstrip().endswith("$"))


def plain(data: bytes) -> bytes:
    """Raw output without its escape sequences."""
    return re.sub(rb"\x1b\[[0-9;?<>=]*[a-zA-Z~]|\x1b\][^\x07]*\x07|\x1b[()][0-9A-Z]", b"", data)


def test_each_redraw_is_one_synchronized_frame(screen: Screen, tmp_path: Path) -> None:
    raw = tmp_path / "raw"
    screen.start(raw=raw)
    screen.ready()
    screen.type("Q")
    screen.wait_for(lambda shown: editor_lines(shown)[-1:] == ["Q"])
    # tmux copies the pane's bytes to the file after it draws them: wait for the frame's end
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        data = raw.read_bytes()
        frames = re.findall(rb"\x1b\[\?2026h(.*?)\x1b\[\?2026l", data, re.S)
        if b"Q" in plain(b"".join(frames)) or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    outside = re.sub(rb"\x1b\[\?2026h.*?\x1b\[\?2026l", b"", data, flags=re.S)
    assert b"Q" in plain(b"".join(frames))  # the key's echo is drawn inside a frame …
    assert b"Q" not in plain(outside)  # … and never outside one
    assert b"\x1b[" in b"".join(frames) and b"\x1b[?2026h" not in outside


def test_terminal_progress_shows_while_the_agent_works_when_enabled(
    screen: Screen, tmp_path: Path
) -> None:
    settings = json.loads((screen.agent_dir / "settings.json").read_text())
    settings["terminal"] = {"showTerminalProgress": True}
    (screen.agent_dir / "settings.json").write_text(json.dumps(settings))
    held = chat_stream("working on it")
    held.pause_after_chunks = 1
    screen.server.queue(held)
    raw = tmp_path / "raw"
    screen.start(raw=raw)
    screen.ready()
    screen.type("go")
    screen.keys("Enter")
    held.wait_paused()
    data = wait_raw(raw, b"\x1b]9;4;3\x07")
    assert b"\x1b]9;4;0;\x07" not in data
    held.resume()
    screen.wait_for("↑10 ↓5")
    data = wait_raw(raw, b"\x1b]9;4;0;\x07")
    assert data.rfind(b"\x1b]9;4;0;\x07") > data.rfind(b"\x1b]9;4;3\x07")


def test_terminal_progress_is_off_by_default(screen: Screen, tmp_path: Path) -> None:
    screen.server.queue(chat_stream("done"))
    raw = tmp_path / "raw"
    screen.start(raw=raw)
    screen.ready()
    screen.type("go")
    screen.keys("Enter")
    screen.wait_for("↑10 ↓5")
    screen.keys("C-d")
    screen.wait_for("EXIT=0")
    assert b"\x1b]9;4" not in raw.read_bytes()


def png_bytes() -> bytes:
    """A 2x1 red PNG."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body)
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", 2, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00" + b"\xff\x00\x00" * 2)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels)
            + chunk(b"IEND", b""))  # fmt: skip


FAKE_CLIPBOARDS = {
    # tool name: (its script's case arms for listing and reading a PNG, the session's display)
    "xclip": ('  *TARGETS*) printf "TARGETS\\nimage/png\\n" ;;\n  *image/png*) cat "$IMAGE" ;;\n',
              {"WAYLAND_DISPLAY": "", "DISPLAY": ":0"}),
    "wl-paste": ('  *--list-types*) printf "text/plain\\nimage/png\\n" ;;\n'
                 '  *"--type image/png"*) cat "$IMAGE" ;;\n', {"WAYLAND_DISPLAY": "wayland-0"}),
}  # fmt: skip


@pytest.mark.parametrize("tool", sorted(FAKE_CLIPBOARDS))
def test_ctrl_v_pastes_the_clipboard_image_as_a_file(
    screen: Screen, tmp_path: Path, tool: str
) -> None:
    image = tmp_path / "clip.png"
    image.write_bytes(png_bytes())
    tools = tmp_path / "bin"
    tools.mkdir()
    arms, display = FAKE_CLIPBOARDS[tool]
    fake = tools / tool  # a fake clipboard tool: the clipboard offers a PNG
    fake.write_text(f'#!/bin/sh\nIMAGE="{image}"\ncase "$*" in\n{arms}  *) exit 1 ;;\nesac\n')
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    temp = tmp_path / "tmp"
    temp.mkdir()
    screen.server.queue(chat_stream("a red image"))
    screen.start(env={"PATH": f"{tools}:/usr/bin:/bin", "TMPDIR": str(temp), **display})
    screen.ready()
    screen.type("what is in ")
    screen.keys("C-v")
    # the path may wrap in the editor: look for it in the joined lines
    screen.wait_for(lambda text: "pi-clipboard-" in "".join(map(str.rstrip, text.splitlines())))
    saved = list(temp.glob("pi-clipboard-*.png"))
    assert len(saved) == 1 and saved[0].read_bytes() == png_bytes()
    screen.keys("Enter")
    screen.server.wait_for_requests(1)
    assert f"what is in {saved[0]}" in sent_text(screen)


def test_inside_tmux_without_extended_keys_the_repl_warns(screen: Screen) -> None:
    screen.start(in_tmux=True)
    screen.ready()
    screen.wait_for("Warning: tmux extended-keys is off, so Shift+Enter arrives as Enter.")


def test_the_tmux_warning_follows_the_extended_keys_option(screen: Screen) -> None:
    from pi_core.modes.interactive.tmux_keys import WARNING, tmux_keys_warning

    screen.start()
    screen.ready()
    socket = screen._tmux("display-message", "-p", "#{socket_path}").strip()
    inside = {"TMUX": f"{socket},0,0", "PATH": os.environ["PATH"]}
    assert asyncio.run(tmux_keys_warning(inside)) == WARNING
    screen._tmux("set-option", "-g", "extended-keys", "on")
    assert asyncio.run(tmux_keys_warning(inside)) is None
    assert asyncio.run(tmux_keys_warning({"PATH": os.environ["PATH"]})) is None  # not in tmux
