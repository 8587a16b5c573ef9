"""`PI_HTTP_RECORD`: a transport that writes each provider exchange to a JSON-lines file."""

from __future__ import annotations

import functools
import itertools
import json
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx

from pi_core.ai.traffic_format import (
    kept_headers,
    meta_line,
    request_fields,
    response_fields,
    scrubbed_url,
)


class Recorder:
    """One recording file per process, shared by every endpoint (one request numbering).

    The file is started afresh: it holds one process's traffic, which is what a replay answers.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._numbers = itertools.count(1)
        self._lock = threading.Lock()
        path.write_text("")
        self._write(meta_line())

    def wrap(self, inner: httpx.AsyncBaseTransport) -> httpx.AsyncBaseTransport:
        """Return a transport that sends through `inner` and records each exchange."""
        return RecordingTransport(self, inner)

    def number(self) -> int:
        """Return the next request's number (1 for the first)."""
        return next(self._numbers)

    def write(self, entry: dict[str, Any]) -> None:
        """Append one exchange as one line, flushed."""
        self._write({"type": "exchange", **entry})

    def _write(self, line: dict[str, Any]) -> None:
        with self._lock, self.path.open("a") as file:
            file.write(json.dumps(line) + "\n")


@functools.cache
def recorder(path: str) -> Recorder:
    """Return this process's recorder for `path`."""
    return Recorder(Path(path))


class RecordingTransport(httpx.AsyncBaseTransport):
    """Sends through another transport; records the request, and the answer once it is read."""

    def __init__(self, recorder: Recorder, inner: httpx.AsyncBaseTransport) -> None:
        self.recorder = recorder
        self.inner = inner

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """Send `request`; the exchange is written when its answer's stream is closed."""
        body = await request.aread()
        entry: dict[str, Any] = {
            "index": self.recorder.number(),
            "method": request.method,
            "url": scrubbed_url(request.url),
            "request_headers": kept_headers(request.headers),
            **request_fields(body, request.headers.get("content-type", "")),
        }
        try:
            response = await self.inner.handle_async_request(request)
        except httpx.TransportError as error:
            entry["error"] = {"type": type(error).__name__, "message": str(error)}
            self.recorder.write(entry)
            raise
        entry["status"] = response.status_code
        entry["response_headers"] = kept_headers(response.headers)
        tee = _Tee(response.stream, self.recorder, entry)
        return httpx.Response(
            response.status_code,
            headers=response.headers,
            stream=tee,
            extensions=response.extensions,
            request=request,
        )

    async def aclose(self) -> None:
        """Close the inner transport."""
        await self.inner.aclose()


class _Tee(httpx.AsyncByteStream):
    """The answer's bytes as they are read, kept and written with the exchange on close."""

    def __init__(self, inner: Any, recorder: Recorder, entry: dict[str, Any]) -> None:
        self.inner = inner
        self.recorder = recorder
        self.entry = entry
        self.chunks: list[bytes] = []
        self.complete = False
        self.written = False

    async def __aiter__(self) -> AsyncIterator[bytes]:
        try:
            async for chunk in self.inner:
                self.chunks.append(chunk)
                yield chunk
        except httpx.TransportError as error:
            self.entry["stream_error"] = {"type": type(error).__name__, "message": str(error)}
            raise
        self.complete = True

    async def aclose(self) -> None:
        """Close the network stream and write the exchange (once)."""
        try:
            await self.inner.aclose()
        finally:
            if not self.written:
                self.written = True
                data = b"".join(self.chunks)
                kind = str(self.entry.get("response_headers", {}).get("content-type", ""))
                self.recorder.write(
                    {**self.entry, "complete": self.complete, **response_fields(data, kind)}
                )
