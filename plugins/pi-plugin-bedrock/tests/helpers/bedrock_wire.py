"""A loopback fake of Bedrock's ConverseStream: event-stream frames (CRCs written here with
zlib, independently of the plugin's decoder), recorded replays, and a SigV4 check by botocore."""

from __future__ import annotations

import base64
import json
import struct
import zlib
from pathlib import Path
from typing import Any

from pi_core.testing import FakeResponse, RecordedRequest

EVENT_STREAM = "application/vnd.amazon.eventstream"
REPLAYS = Path(__file__).resolve().parent.parent / "replays"


def _header(name: str, value: str) -> bytes:
    raw_name, raw_value = name.encode(), value.encode()
    return (
        bytes([len(raw_name)]) + raw_name + b"\x07" + struct.pack(">H", len(raw_value)) + raw_value
    )


def frame(headers: dict[str, str], payload: bytes) -> bytes:
    """One event-stream message: prelude (lengths, CRC), string headers, payload, message CRC."""
    head = b"".join(_header(name, value) for name, value in headers.items())
    total = 12 + len(head) + len(payload) + 4
    prelude = struct.pack(">II", total, len(head))
    prelude += struct.pack(">I", zlib.crc32(prelude))
    body = prelude + head + payload
    return body + struct.pack(">I", zlib.crc32(body))


def event(kind: str, payload: dict[str, Any]) -> bytes:
    """A ConverseStream event frame."""
    headers = {":event-type": kind, ":content-type": "application/json", ":message-type": "event"}
    return frame(headers, json.dumps(payload).encode())


def exception(kind: str, message: str) -> bytes:
    """An exception frame, as Bedrock sends mid-stream (`throttlingException`…)."""
    headers = {
        ":exception-type": kind,
        ":content-type": "application/json",
        ":message-type": "exception",
    }
    return frame(headers, json.dumps({"message": message}).encode())


def text_frames(pieces: list[str], index: int = 0) -> list[bytes]:
    """A text block (Bedrock sends no start event for text)."""
    frames = [
        event("contentBlockDelta", {"contentBlockIndex": index, "delta": {"text": piece}})
        for piece in pieces
    ]
    return [*frames, event("contentBlockStop", {"contentBlockIndex": index})]


def tool_frames(call_id: str, name: str, pieces: list[str], index: int = 0) -> list[bytes]:
    """A toolUse block whose input JSON streams in `pieces`."""
    start = {"start": {"toolUse": {"toolUseId": call_id, "name": name}}}
    frames = [event("contentBlockStart", {"contentBlockIndex": index, **start})]
    for piece in pieces:
        delta = {"toolUse": {"input": piece}}
        frames.append(event("contentBlockDelta", {"contentBlockIndex": index, "delta": delta}))
    return [*frames, event("contentBlockStop", {"contentBlockIndex": index})]


def turn(
    blocks: list[bytes], stop: str = "end_turn", usage: dict[str, int] | None = None
) -> list[bytes]:
    """A whole response: messageStart, the blocks, messageStop, metadata with usage."""
    counts = usage or {"inputTokens": 12, "outputTokens": 5, "totalTokens": 17}
    return [
        event("messageStart", {"role": "assistant"}),
        *blocks,
        event("messageStop", {"stopReason": stop}),
        event("metadata", {"usage": counts, "metrics": {"latencyMs": 10}}),
    ]


def stream(frames: list[bytes], **kwargs: Any) -> FakeResponse:
    """An event-stream response, one frame a chunk."""
    return FakeResponse(content_type=EVENT_STREAM, chunks=frames, **kwargs)


def replay_bytes(name: str) -> bytes:
    """A recorded response body (`.bin.b64` decoded to the exact bytes)."""
    return base64.b64decode((REPLAYS / f"{name}.bin.b64").read_text())


def replay(name: str, chunk: int = 97) -> FakeResponse:
    """A recorded stream, served in chunks of `chunk` bytes so frames straddle reads."""
    data = replay_bytes(name)
    pieces = [data[i : i + chunk] for i in range(0, len(data), chunk)]
    return FakeResponse(content_type=EVENT_STREAM, chunks=pieces)


def replay_error(name: str) -> FakeResponse:
    """A recorded HTTP error (`.json` body, status from `.request.json`)."""
    return FakeResponse.replay(REPLAYS / f"{name}.json")


def decode(data: bytes) -> list[tuple[dict[str, str], Any]]:
    """The frames of a body as (headers, parsed payload), checking both CRCs (test-side)."""
    frames = []
    while data:
        total, head_length, prelude_crc = struct.unpack(">III", data[:12])
        assert zlib.crc32(data[:8]) == prelude_crc
        assert zlib.crc32(data[: total - 4]) == struct.unpack(">I", data[total - 4 : total])[0]
        head, position, headers = data[12 : 12 + head_length], 0, {}
        while position < len(head):
            size = head[position]
            name = head[position + 1 : position + 1 + size].decode()
            position += 1 + size + 1  # the value type: 7, a string
            (length,) = struct.unpack(">H", head[position : position + 2])
            headers[name] = head[position + 2 : position + 2 + length].decode()
            position += 2 + length
        frames.append((headers, json.loads(data[12 + head_length : total - 4])))
        data = data[total:]
    return frames


def sigv4_valid(request: RecordedRequest, base_url: str, secret: str, token: str | None) -> bool:
    """Recompute the request's signature with botocore, at the time it claims; compare."""
    import datetime
    from unittest import mock

    from botocore.auth import SigV4Auth
    from botocore.awsrequest import AWSRequest
    from botocore.credentials import Credentials

    authorization = request.headers["authorization"]
    credential = authorization.split("Credential=", 1)[1].split(",", 1)[0]
    access_key, _, region, service, _ = credential.split("/")
    signed = authorization.split("SignedHeaders=", 1)[1].split(",", 1)[0].split(";")
    headers = {name: request.headers[name] for name in signed if name != "host"}
    redo = AWSRequest(
        method="POST", url=base_url + request.path, data=request.body, headers=headers
    )
    when = datetime.datetime.strptime(request.headers["x-amz-date"], "%Y%m%dT%H%M%SZ")
    with mock.patch("botocore.auth.get_current_datetime", return_value=when):
        SigV4Auth(Credentials(access_key, secret, token), service, region).add_auth(redo)
    return bool(redo.headers["Authorization"] == authorization)
