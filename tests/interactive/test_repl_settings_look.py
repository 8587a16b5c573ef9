"""/settings offers pi's rows under pi's keys, and the REPL honours the looks they set: inline
images and their width, the editor's padding, the completion menu's rows, the thinking level."""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path
from typing import Any

import pytest

from pi_core.testing.wire import chat_models_json, chat_stream
from tests.interactive.conftest import Screen, stripped_lines
from tests.interactive.test_repl_settings import command, set_settings, settings

ITERM = {"TERM_PROGRAM": "iTerm.app"}  # a terminal that draws images inline
INLINE = b"\x1b]1337;File=inline=1;"


def open_row(screen: Screen, search: str, label: str) -> None:
    """Open /settings and select the row `label` by searching for it."""
    command(screen, "/settings")
    screen.wait_for("type to search")
    screen.type(search)
    screen.wait_for(lambda s: any(line.startswith(f"→ {label}") for line in stripped_lines(s)))


def choose(screen: Screen, search: str, label: str, value: str) -> None:
    """Set a row with a list of choices to `value` and close /settings."""
    open_row(screen, search, label)
    screen.keys("Enter")
    screen.wait_for("enter choose")
    screen.type(value)
    screen.wait_for(lambda s: f"→ {value}" in stripped_lines(s))
    screen.keys("Enter")
    screen.wait_for(lambda s: row_shows(s, label, value))
    screen.keys("Escape")
    screen.wait_for(lambda s: "type to search" not in s)


def row_shows(text: str, label: str, value: str) -> bool:
    """The selected row is `label` with `value`."""
    return any(line.startswith(f"→ {label}") and f" {value} " in line
               for line in stripped_lines(text))  # fmt: skip


def png(width: int, height: int) -> bytes:
    """A valid RGB PNG of one colour."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = struct.pack(">I", zlib.crc32(kind + body))
        return struct.pack(">I", len(body)) + kind + body + crc

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    pixels = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(pixels))
            + chunk(b"IEND", b""))  # fmt: skip


def with_image(screen: Screen) -> None:
    """A model that takes images, and an image in the project for it to read."""
    models = chat_models_json(screen.server.base_url, input=["text", "image"])
    (screen.agent_dir / "models.json").write_text(json.dumps(models))
    (screen.cwd / "dot.png").write_bytes(png(4, 2))


def read_the_image(screen: Screen, turn: int) -> None:
    """One prompt whose answer reads dot.png; waits until the turn has ended."""
    screen.server.queue(
        chat_stream("", tool_calls=[("read", {"path": "dot.png"})]),
        chat_stream(f"seen {turn}"),
    )
    command(screen, f"look {turn}")
    screen.wait_for(f"seen {turn}")


def written_since(raw: Path, start: int) -> bytes:
    return raw.read_bytes()[start:]


def test_image_rows_are_offered_only_where_images_are_drawn(screen: Screen) -> None:
    screen.start()
    screen.ready()
    command(screen, "/settings")
    screen.wait_for("type to search")
    screen.type("image")
    screen.wait_for("(0/0)")
    assert "Show images" not in screen.text()


@pytest.mark.parametrize(
    ("search", "label", "value", "key", "saved"),
    [
        ("padding", "Editor padding", "2", ("editorPaddingX",), 2),
        ("autocomplete", "Autocomplete max items", "10", ("autocompleteMaxVisible",), 10),
        ("shrink", "Clear on shrink", None, ("terminal", "clearOnShrink"), True),
        ("progress", "Terminal progress", None, ("terminal", "showTerminalProgress"), True),
        ("changelog", "Collapse changelog", None, ("collapseChangelog",), True),
    ],
)
def test_pi_rows_write_pi_keys_and_keep_the_others(
    screen: Screen, search: str, label: str, value: str | None, key: tuple[str, ...], saved: Any
) -> None:
    set_settings(screen, terminal={"imageWidthCells": 80}, retry={"maxRetries": 7})
    screen.start()
    screen.ready()
    if value is None:
        open_row(screen, search, label)
        screen.keys("Enter")  # a yes/no row flips
        screen.wait_for(lambda s: row_shows(s, label, "true"))
    else:
        choose(screen, search, label, value)
    written = settings(screen)
    node: Any = written
    for part in key:
        node = node[part]
    assert node == saved
    assert written["terminal"]["imageWidthCells"] == 80
    assert written["retry"] == {"maxRetries": 7}
    assert written["defaultModel"] == "fake-model"


def test_show_images_writes_terminal_show_images_and_stops_inline_images(
    screen: Screen, tmp_path: Path
) -> None:
    with_image(screen)
    raw = tmp_path / "raw.out"
    screen.start(env=ITERM)
    screen.record_output(raw)
    screen.ready()
    read_the_image(screen, 1)
    screen.wait_for(lambda s: INLINE + b"width=60;" in raw.read_bytes())
    open_row(screen, "show images", "Show images")
    screen.keys("Enter")
    screen.wait_for(lambda s: row_shows(s, "Show images", "false"))
    screen.keys("Escape")
    screen.wait_for(lambda s: "type to search" not in s)
    assert settings(screen)["terminal"]["showImages"] is False
    assert "showImages" not in settings(screen)
    start = raw.stat().st_size
    read_the_image(screen, 2)
    screen.wait_for(lambda s: s.count("[image: image/png") >= 2)
    assert INLINE not in written_since(raw, start)


def test_show_images_false_at_start_prints_the_image_line_only(
    screen: Screen, tmp_path: Path
) -> None:
    with_image(screen)
    set_settings(screen, terminal={"showImages": False})
    raw = tmp_path / "raw.out"
    screen.start(env=ITERM)
    screen.record_output(raw)
    screen.ready()
    read_the_image(screen, 1)
    screen.wait_for("[image: image/png")
    assert INLINE not in raw.read_bytes()


def test_image_width_sets_the_inline_width(screen: Screen, tmp_path: Path) -> None:
    with_image(screen)
    set_settings(screen, terminal={"imageWidthCells": 80})
    raw = tmp_path / "raw.out"
    screen.start(env=ITERM)
    screen.record_output(raw)
    screen.ready()
    read_the_image(screen, 1)
    screen.wait_for(lambda s: INLINE + b"width=80;" in raw.read_bytes())
    choose(screen, "image width", "Image width", "120")
    assert settings(screen)["terminal"]["imageWidthCells"] == 120
    start = raw.stat().st_size
    read_the_image(screen, 2)
    screen.wait_for(lambda s: INLINE + b"width=120;" in written_since(raw, start))


def editor_indent(text: str, typed: str) -> int | None:
    """How many columns the editor's line holding `typed` is indented (None: not on screen)."""
    for line in text.splitlines():
        if line.strip() == typed:
            return len(line) - len(line.lstrip(" "))
    return None


def test_editor_padding_indents_the_editor(screen: Screen) -> None:
    set_settings(screen, editorPaddingX=1)
    screen.start()
    screen.ready()
    screen.type("hello")
    screen.wait_for(lambda s: editor_indent(s, "hello") == 1)
    screen.keys("C-u")
    screen.wait_for(lambda s: editor_indent(s, "hello") is None)
    choose(screen, "padding", "Editor padding", "3")
    assert settings(screen)["editorPaddingX"] == 3
    screen.type("hello")
    screen.wait_for(lambda s: editor_indent(s, "hello") == 3)


def menu_rows(text: str) -> int:
    """The completion menu's rows: the slash-command lines under the editor."""
    lines = text.splitlines()
    rules = [i for i, line in enumerate(lines) if line.startswith("──────────")]
    return sum(1 for line in lines[rules[-1] + 1 :] if line.startswith(" /")) if rules else 0


def test_autocomplete_max_items_sets_the_menu_rows(screen: Screen) -> None:
    screen.start()
    screen.ready()
    screen.type("/")
    screen.wait_for(lambda s: menu_rows(s) == 5)  # pi's default
    screen.keys("C-u")
    screen.wait_for(lambda s: menu_rows(s) == 0)
    choose(screen, "autocomplete", "Autocomplete max items", "3")
    assert settings(screen)["autocompleteMaxVisible"] == 3
    screen.type("/")
    screen.wait_for(lambda s: menu_rows(s) == 3)


def test_autocomplete_max_items_is_read_at_start(screen: Screen) -> None:
    set_settings(screen, autocompleteMaxVisible=7)
    screen.start()
    screen.ready()
    screen.type("/")
    screen.wait_for(lambda s: menu_rows(s) == 7)


def test_thinking_level_row_sets_the_session_level_and_the_default(screen: Screen) -> None:
    screen.start()
    screen.ready()
    screen.wait_for("fake-model • medium")
    open_row(screen, "thinking level", "Thinking level")
    screen.keys("Enter")
    screen.wait_for("→ medium")
    screen.keys("Down")
    screen.wait_for("→ high")
    screen.keys("Enter")
    screen.wait_for(lambda s: row_shows(s, "Thinking level", "high"))
    screen.keys("Escape")
    screen.wait_for("fake-model • high")
    assert settings(screen)["defaultThinkingLevel"] == "high"
