"""`read` scans files in chunks: the same answer as reading the whole text, in bounded memory."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from pi_plugin_tools.textscan import scan_lines
from pi_plugin_tools.truncate import truncate_head

PIECES = ["a", "bc", "\n", "\n\n", "é", "漢字", "\r\n", "\xff", "\xe2\x82", "😀", " " * 7]


def whole_text_answer(
    data: bytes, start: int, end: int | None, max_lines: int, max_bytes: int
) -> tuple[int, object]:
    """The reference: decode everything, split, select, truncate (what `read` did before)."""
    boms = (b"\xff\xfe", b"\xfe\xff")
    text = data.decode("utf-16" if data.startswith(boms) else "utf-8", "replace")
    lines = text.split("\n")
    selected = "\n".join(lines[start:end] if end is None or end > start else [])
    return len(lines), truncate_head(selected, max_lines, max_bytes)


@settings(max_examples=400, deadline=None)
@given(
    parts=st.lists(st.sampled_from(PIECES), max_size=60),
    utf16=st.booleans(),
    start=st.integers(0, 12),
    limit=st.one_of(st.none(), st.integers(0, 8)),
    max_lines=st.integers(1, 6),
    max_bytes=st.integers(1, 40),
    chunk=st.integers(1, 9),
)
def test_scanning_in_chunks_matches_reading_everything(
    parts: list[str],
    utf16: bool,
    start: int,
    limit: int | None,
    max_lines: int,
    max_bytes: int,
    chunk: int,
) -> None:
    raw = "".join(parts)
    if utf16:
        data = b"\xff\xfe" + raw.encode("utf-16-le", "surrogatepass")
    else:
        data = raw.encode("latin-1", "ignore") if "\xff" in raw else raw.encode()
    end = start + limit if limit is not None else None
    expected_lines, expected = whole_text_answer(data, start, end, max_lines, max_bytes)

    window = scan_lines(io.BytesIO(data), start, end, max_lines, max_bytes, chunk_bytes=chunk)

    assert window.file_lines == expected_lines
    if start < expected_lines:
        assert window.truncation(max_lines, max_bytes) == expected


READ_IN_A_CHILD = """
import asyncio, resource, sys
from pi_plugin_tools.read import ReadTool
from pi_core.tools.inputs import ReadToolInput

class Ctx:
    cwd = sys.argv[1]
    model = None

tool = ReadTool()
result = asyncio.run(tool.execute("c", ReadToolInput(path=sys.argv[2]), None, None, Ctx()))
print(result.content[0].text.splitlines()[-1])
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def read_in_a_child(folder: Path, name: str) -> tuple[str, int]:
    """Run `read` on a file in a fresh interpreter: the last line of its answer, its peak KiB."""
    done = subprocess.run(
        [sys.executable, "-c", READ_IN_A_CHILD, str(folder), name],
        capture_output=True, text=True, timeout=600, check=True,
    )  # fmt: skip
    note, peak_kib = done.stdout.strip().splitlines()
    return note, int(peak_kib)


def test_reading_a_huge_file_keeps_memory_bounded(tmp_path: Path) -> None:
    """A 1 GB sparse file with a text header costs about what a small file costs in memory, and
    the answer is the first lines with pi's continuation note."""
    header = b"".join(b"line %d\n" % n for n in range(5000))
    (tmp_path / "small.log").write_bytes(header)
    with (tmp_path / "huge.log").open("wb") as handle:
        handle.write(header)
        handle.truncate(1 << 30)  # a 1 GB file, the rest a hole of zero bytes

    small_note, small_peak = read_in_a_child(tmp_path, "small.log")
    huge_note, huge_peak = read_in_a_child(tmp_path, "huge.log")

    assert small_note.startswith("[Showing lines 1-2000 of 5001")
    assert huge_note.startswith("[Showing lines 1-2000 of 5001")
    assert huge_peak - small_peak < 64 * 1024, f"{small_peak // 1024} -> {huge_peak // 1024} MiB"
