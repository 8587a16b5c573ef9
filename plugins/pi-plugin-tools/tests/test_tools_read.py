"""`read`: offset/limit, pi's continuation notes, truncation, images, and clear errors."""

from __future__ import annotations

import base64
import io
import struct
import zlib
from pathlib import Path
from types import SimpleNamespace

from pi_plugin_tools.read import NON_VISION_NOTE, image_result

from pi_core.messages.content import ImageContent, TextContent
from pi_core.tools import IMAGE_TOO_LARGE_NOTE
from pi_core.tools.inputs import ReadToolDetails


def tiny_png() -> bytes:
    """A valid 1x1 PNG."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00\xff\x00\x00")
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


async def test_reads_a_file_relative_to_the_session_cwd(run, cwd: Path) -> None:
    (cwd / "a.txt").write_text("one\ntwo\n")
    outcome = await run("read", {"path": "a.txt"})
    assert not outcome.is_error
    assert outcome.result.text_content() == "one\ntwo\n"
    assert outcome.result.details is None


async def test_offset_and_limit_with_continuation_note(run, cwd: Path) -> None:
    (cwd / "a.txt").write_text("\n".join(f"line {i}" for i in range(1, 11)))
    outcome = await run("read", {"path": "a.txt", "offset": 3, "limit": 2})
    assert outcome.result.text_content() == (
        "line 3\nline 4\n\n[6 more lines in file. Use offset=5 to continue.]"
    )
    tail = await run("read", {"path": "a.txt", "offset": 9})
    assert tail.result.text_content() == "line 9\nline 10"


async def test_offset_beyond_the_end(run, cwd: Path) -> None:
    (cwd / "a.txt").write_text("x\ny")
    outcome = await run("read", {"path": "a.txt", "offset": 5})
    assert outcome.is_error
    assert outcome.result.text_content() == "Offset 5 is beyond end of file (2 lines total)"


async def test_truncation_by_lines(run, cwd: Path) -> None:
    (cwd / "big.txt").write_text("\n".join(str(i) for i in range(1, 2501)))
    outcome = await run("read", {"path": "big.txt"})
    text = outcome.result.text_content()
    assert text.endswith("\n\n[Showing lines 1-2000 of 2500. Use offset=2001 to continue.]")
    assert text.startswith("1\n2\n")
    details = outcome.result.details
    assert isinstance(details, ReadToolDetails)
    assert details.truncation is not None and details.truncation.truncated_by == "lines"
    more = await run("read", {"path": "big.txt", "offset": 2001})
    assert more.result.text_content().startswith("2001\n")
    assert more.result.text_content().endswith("2500")


async def test_truncation_by_bytes(run, cwd: Path) -> None:
    line = "x" * 99
    (cwd / "wide.txt").write_text("\n".join([line] * 1000))  # 100 KB in 1,000 lines
    outcome = await run("read", {"path": "wide.txt"})
    text = outcome.result.text_content()
    assert text.endswith(
        "\n\n[Showing lines 1-512 of 1000 (50.0KB limit). Use offset=513 to continue.]"
    )
    assert outcome.result.details.truncation.truncated_by == "bytes"


async def test_first_line_longer_than_the_byte_limit(run, cwd: Path) -> None:
    (cwd / "min.js").write_text("y" * 60_000 + "\nshort")
    outcome = await run("read", {"path": "min.js"})
    assert outcome.result.text_content() == (
        "[Line 1 is 58.6KB, exceeds 50.0KB limit. Use bash: sed -n '1p' min.js | head -c 51200]"
    )
    assert outcome.result.details.truncation.first_line_exceeds_limit


async def test_path_outside_the_cwd(run, cwd: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "notes.md").write_text("outside")
    relative = await run("read", {"path": "../elsewhere/notes.md"})
    absolute = await run("read", {"path": str(elsewhere / "notes.md")})
    assert relative.result.text_content() == absolute.result.text_content() == "outside"


async def test_home_expansion(run, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "home-file.txt").write_text("from home")
    outcome = await run("read", {"path": "~/home-file.txt"})
    assert outcome.result.text_content() == "from home"


async def test_directory_gives_a_clear_error(run, cwd: Path) -> None:
    (cwd / "src").mkdir()
    outcome = await run("read", {"path": "src"})
    assert outcome.is_error
    assert outcome.result.text_content() == (
        f"Cannot read {cwd / 'src'}: it is a directory. Use ls to list it."
    )


async def test_missing_file_names_the_path(run, cwd: Path) -> None:
    outcome = await run("read", {"path": "nope/missing.txt"})
    assert outcome.is_error
    assert outcome.result.text_content() == f"File not found: {cwd / 'nope' / 'missing.txt'}"


async def test_non_utf8_text_uses_replacement_characters(run, cwd: Path) -> None:
    (cwd / "latin1.txt").write_bytes("café crème\n".encode("latin-1"))
    outcome = await run("read", {"path": "latin1.txt"})
    assert not outcome.is_error
    assert outcome.result.text_content() == "caf\ufffd cr\ufffdme\n"


async def test_utf16_with_bom_is_decoded(run, cwd: Path) -> None:
    (cwd / "u16.txt").write_bytes("hello ü".encode("utf-16"))
    outcome = await run("read", {"path": "u16.txt"})
    assert outcome.result.text_content() == "hello ü"


async def test_binary_file_is_refused(run, cwd: Path) -> None:
    (cwd / "blob.bin").write_bytes(b"\x7fELF\x00\x01\x02" + bytes(range(256)))
    outcome = await run("read", {"path": "blob.bin"})
    assert outcome.is_error
    assert "it is a binary file" in outcome.result.text_content()
    assert str(cwd / "blob.bin") in outcome.result.text_content()


async def test_image_is_sent_as_an_attachment(run, cwd: Path) -> None:
    png = tiny_png()
    (cwd / "pixel.dat").write_bytes(png)  # detected by content, not by name
    outcome = await run("read", {"path": "pixel.dat"})
    note, image = outcome.result.content
    assert isinstance(note, TextContent) and note.text == "Read image file [image/png]"
    assert isinstance(image, ImageContent) and image.mime_type == "image/png"
    assert base64.b64decode(image.data) == png


def _encoded(kind: str) -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (4, 4), (10, 200, 30)).save(buffer, format=kind)
    return buffer.getvalue()


async def test_other_image_formats_are_recognized(run, cwd: Path) -> None:
    samples = {"a.jpg": ("JPEG", "image/jpeg"), "a.gif": ("GIF", "image/gif"),
               "a.webp": ("WEBP", "image/webp")}  # fmt: skip
    for name, (kind, mime) in samples.items():
        (cwd / name).write_bytes(_encoded(kind))
        outcome = await run("read", {"path": name})
        assert outcome.result.content[1].mime_type == mime


async def test_an_image_that_does_not_decode_is_left_out_as_pi_does(run, cwd: Path) -> None:
    (cwd / "a.gif").write_bytes(b"GIF89a" + b"\x00" * 20)
    outcome = await run("read", {"path": "a.gif"})
    assert [block.type for block in outcome.result.content] == ["text"]
    assert outcome.result.content[0].text == f"Read image file [image/gif]\n{IMAGE_TOO_LARGE_NOTE}"


def test_image_note_for_models_without_vision() -> None:
    ctx = SimpleNamespace(model=SimpleNamespace(input=["text"]))
    result = image_result(tiny_png(), "image/png", ctx)  # type: ignore[arg-type]
    assert result.content[0].text == f"Read image file [image/png]\n{NON_VISION_NOTE}"


async def test_already_aborted(run, cwd: Path) -> None:
    from pi_core.abort import AbortController

    (cwd / "a.txt").write_text("x")
    controller = AbortController()
    controller.abort()
    outcome = await run("read", {"path": "a.txt"}, controller.signal)
    assert outcome.is_error and outcome.result.text_content() == "Operation aborted"


def test_image_over_the_inline_limit_is_left_out() -> None:
    huge = tiny_png() + b"\x00" * (4 * 1024 * 1024)
    result = image_result(huge, "image/png", None)
    assert len(result.content) == 1
    assert result.content[0].text == (
        "Read image file [image/png]\n"
        "[Image left out: even shrunk, it stays above the size limit for inline images.]"
    )
