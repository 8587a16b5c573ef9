"""The SSE decoder: every line ending the spec allows, a leading BOM, and any chunking."""

from __future__ import annotations

import asyncio
import itertools
import re
from collections.abc import AsyncIterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_core.ai.sse import BOM, decode_sse

Event = tuple[str, str]


async def _reads(pieces: list[bytes]) -> AsyncIterator[bytes]:
    for piece in pieces:
        yield piece


def decode(pieces: list[bytes]) -> list[Event]:
    """The events `decode_sse` yields for a body delivered in `pieces`."""

    async def collect() -> list[Event]:
        return [event async for event in decode_sse(_reads(pieces))]

    return asyncio.run(collect())


def reference(body: bytes) -> list[Event]:
    """A line-by-line reading of the WHATWG rules, with the decoder's one extension: a complete
    event that lacks its closing blank line at the end of the body is delivered."""
    if body.startswith(BOM):
        body = body[len(BOM) :]
    *lines, _partial = re.split(rb"\r\n|\r|\n", body)
    events: list[Event] = []
    name, data = "", []
    for line in lines:
        if not line:
            if data:
                events.append((name or "message", "\n".join(data)))
            name, data = "", []
            continue
        field, _, value = line.decode().partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "data":
            data.append(value)
        elif field == "event":
            name = value
    if data:
        events.append((name or "message", "\n".join(data)))
    return events


def every_split(body: bytes) -> list[list[bytes]]:
    """The body whole, byte by byte, and cut in two at every position."""
    return [[body], [body[i : i + 1] for i in range(len(body))]] + [
        [body[:i], body[i:]] for i in range(1, len(body))
    ]


CASES = {
    "LF": (b"data: a\n\nevent: e\ndata: b\n\n", [("message", "a"), ("e", "b")]),
    "CR only": (b"data: a\r\revent: e\rdata: b\r\r", [("message", "a"), ("e", "b")]),
    "CRLF": (b"data: a\r\n\r\nevent: e\r\ndata: b\r\n\r\n", [("message", "a"), ("e", "b")]),
    "mixed": (b"data: a\r\n\revent: e\ndata: b\r\r\n", [("message", "a"), ("e", "b")]),
    "comments": (b": hi\r:\rdata: a\r: between\r\r", [("message", "a")]),
    "retry and id": (b"retry: 100\rid: 7\rdata: a\r\r", [("message", "a")]),
    "multi-line data": (
        b"data: one\rdata:two\rdata\rdata:  four\r\r",
        [("message", "one\ntwo\n\n four")],
    ),
    "BOM at start": (BOM + b"data: a\r\r" + BOM + b"data: b\r\r", [("message", "a")]),
    "no blank line at EOF": (b"data: a\r\rdata: b\r", [("message", "a"), ("message", "b")]),
    "partial last line": (b"data: a\r\rdata: b", [("message", "a")]),
    "non-ASCII": ("data: café ✓\r\r".encode(), [("message", "café ✓")]),
}


@pytest.mark.parametrize("name", CASES)
def test_line_endings_and_fields_whatever_the_reads(name: str) -> None:
    body, expected = CASES[name]
    assert reference(body) == expected
    for pieces in every_split(body):
        assert decode(pieces) == expected, pieces


def test_a_crlf_split_between_reads_ends_one_line_not_two() -> None:
    # were the CR and the LF counted as two line ends, the blank line would end `a` before `b`
    reads = [b"data: a\r", b"", b"\ndata: b\r", b"\n\r", b"\n"]  # an empty read in between too
    assert decode(reads) == [("message", "a\nb")]


_VALUE = st.text(st.characters(blacklist_characters="\r\n", blacklist_categories=("Cs",)))
_LINE = st.one_of(
    st.builds(lambda v: "data:" + v, _VALUE),
    st.builds(lambda v: "data: " + v, _VALUE),
    st.builds(lambda v: "event: " + v, _VALUE),
    st.builds(lambda v: ": " + v, _VALUE),
    st.builds(lambda v: "id: " + v, _VALUE),
    st.builds(lambda v: "retry: " + v, st.integers(0, 10_000).map(str)),
    st.just("data"),
    st.just(""),
    st.just(""),
)


@st.composite
def _streams(draw: st.DrawFn) -> tuple[bytes, list[bytes]]:
    """A body of random lines with random line ends, and one way of cutting it into reads."""
    lines = draw(st.lists(st.tuples(_LINE, st.sampled_from(["\n", "\r\n", "\r"])), max_size=30))
    text = "".join(line + end for line, end in lines) + draw(st.sampled_from(["", "data: cut"]))
    body = (BOM if draw(st.booleans()) else b"") + text.encode()
    cuts = sorted(draw(st.lists(st.integers(0, len(body)), max_size=12)))
    bounds = [0, *cuts, len(body)]
    return body, [body[a:b] for a, b in itertools.pairwise(bounds)]


@settings(max_examples=300, deadline=None)
@given(_streams())
def test_any_chunking_gives_the_events_of_the_whole_body(stream: tuple[bytes, list[bytes]]) -> None:
    body, pieces = stream
    assert decode(pieces) == decode([body]) == reference(body)
