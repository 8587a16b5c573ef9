"""`read` scans files in chunks: the same answer as reading the whole text, in bounded memory."""

from __future__ import annotations

import io
import resource
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


def test_reading_a_huge_file_keeps_memory_bounded(tmp_path: Path) -> None:
    """A 1 GB sparse file with a text header, read in a child process: its peak memory stays
    small, and the answer is the first lines with pi's continuation note."""
    huge = tmp_path / "huge.log"
    with huge.open("wb") as handle:
        handle.write(b"".join(b"line %d\n" % n for n in range(5000)))
        handle.truncate(1 << 30)  # a 1 GB file, the rest a hole of zero bytes
    # Zero bytes past the sniffed head do not make it binary (git's rule looks at the head only).
    script = f"""
import asyncio, resource
from pi_plugin_tools.read import ReadTool
from pi_core.tools.inputs import ReadToolInput

class Ctx:
    cwd = {str(tmp_path)!r}
    model = None

result = asyncio.run(ReadTool().execute("c", ReadToolInput(path="huge.log"), None, None, Ctx()))
print(result.content[0].text.splitlines()[-1])
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=600, check=True
    )
    note, peak_kib = done.stdout.strip().splitlines()
    assert note.startswith("[Showing lines 1-2000 of 5001")
    assert int(peak_kib) < 200 * 1024, f"peak RSS {int(peak_kib) // 1024} MiB"
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss > 0
