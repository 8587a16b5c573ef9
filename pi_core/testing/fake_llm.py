"""A loopback HTTP server that answers like an LLM API, from scripted or recorded responses.

Tests queue responses (SSE streams, JSON bodies, errors, connections cut mid-stream) and read
back the requests the client sent. It binds 127.0.0.1 only and never reaches the network.

A race test (abort mid-stream, a prompt while streaming) pauses a response instead of slowing it:
`pause_after_chunks=N` sends N chunks, sets `paused` and holds the connection open until the test
calls `resume()` (or the server stops), so "still streaming" is a fact, not a hope about timing.
"""

from __future__ import annotations

import asyncio
import json
import socket
import ssl
import struct
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

Router = Callable[["RecordedRequest"], "FakeResponse | None"]


@dataclass
class FakeResponse:
    """One scripted answer: a status, headers and a body sent in chunks."""

    status: int = 200
    content_type: str = "text/event-stream; charset=utf-8"
    chunks: list[bytes] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    chunk_delay: float = 0.0
    cut_after_chunks: int | None = None  # close the connection after this many chunks
    pause_after_chunks: int | None = None  # send this many chunks, then wait for resume()
    drop_connection: bool = False  # close the connection without answering (a reset)
    paused: threading.Event = field(
        default_factory=threading.Event, init=False, repr=False, compare=False
    )  # set when the pause is reached
    _resumed: threading.Event = field(
        default_factory=threading.Event, init=False, repr=False, compare=False
    )

    def resume(self) -> None:
        """Let a paused response send the rest of its chunks."""
        self._resumed.set()

    def wait_paused(self, timeout: float = 30.0) -> None:
        """Block until the response has sent `pause_after_chunks` chunks and is holding."""
        if not self.paused.wait(timeout):
            raise TimeoutError(f"the response did not reach its pause in {timeout}s")

    async def until_paused(self, timeout: float = 30.0) -> None:
        """Wait, without blocking the event loop, until the response is holding at its pause."""
        await asyncio.to_thread(self.wait_paused, timeout)

    @classmethod
    def sse(
        cls, events: list[dict[str, Any] | str], named: bool = False, **kwargs: Any
    ) -> FakeResponse:
        """An SSE stream of JSON `data:` events (`named` adds `event: <type>` lines)."""
        chunks = []
        for event in events:
            if isinstance(event, str):
                chunks.append(f"data: {event}\n\n".encode())
                continue
            prefix = f"event: {event['type']}\n" if named else ""
            chunks.append(f"{prefix}data: {json.dumps(event)}\n\n".encode())
        return cls(chunks=chunks, **kwargs)

    @classmethod
    def json_body(cls, body: Any, status: int = 200, **kwargs: Any) -> FakeResponse:
        """A plain JSON response (also what error responses look like)."""
        return cls(
            status=status,
            content_type="application/json",
            chunks=[json.dumps(body).encode()],
            **kwargs,
        )

    @classmethod
    def replay(cls, path: Path, **kwargs: Any) -> FakeResponse:
        """A recorded response, `X.sse` or `X.json`; status and type come from `X.request.json`."""
        meta_path = path.with_name(path.name.rsplit(".", 1)[0] + ".request.json")
        meta = json.loads(meta_path.read_text()) if meta_path.exists() else {}
        body = path.read_bytes()
        if path.suffix == ".sse":
            pieces = [p + b"\n\n" for p in body.split(b"\n\n") if p.strip()]
            content_type = meta.get("content_type", "text/event-stream; charset=utf-8")
        else:
            pieces = [body]
            content_type = meta.get("content_type", "application/json")
        return cls(
            status=int(meta.get("status", 200)),
            content_type=content_type,
            chunks=pieces,
            **kwargs,
        )


@dataclass
class RecordedRequest:
    """A request the fake server received."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        """Parse the body as JSON."""
        return json.loads(self.body)


class FakeLLMServer:
    """Serves queued FakeResponses in order on 127.0.0.1; use as a context manager."""

    def __init__(self, tls: ssl.SSLContext | None = None) -> None:
        self.requests: list[RecordedRequest] = []
        self.tls = tls
        """Serve HTTPS with this server-side context (a client must trust its certificate)."""
        self._queue: deque[FakeResponse] = deque()
        self._router: Router | None = None
        self._served: list[FakeResponse] = []
        self._lock = threading.Lock()
        self._request_arrived = threading.Condition(self._lock)
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                return

            def do_GET(self) -> None:
                self._answer()

            def do_POST(self) -> None:
                self._answer()

            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                request = server._record(self, body)
                response = server._routed(request) or server._next()
                if response.drop_connection:
                    self.close_connection = True
                    self.connection.setsockopt(
                        socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)
                    )  # a linger of 0: closing sends a reset, not an orderly end
                    return
                self.send_response(response.status)
                self.send_header("Content-Type", response.content_type)
                for name, value in response.headers.items():
                    self.send_header(name, value)
                cut = response.cut_after_chunks
                # The full length is announced even when the body is cut, so the client sees the
                # connection drop mid-body, as it would when a real server goes away.
                self.send_header("Content-Length", str(sum(map(len, response.chunks))))
                self.send_header("Connection", "close")
                self.end_headers()
                for index, chunk in enumerate(response.chunks):
                    if cut is not None and index >= cut:
                        break
                    if index == response.pause_after_chunks:
                        response.paused.set()
                        response._resumed.wait()
                    try:
                        self.wfile.write(chunk)
                        self.wfile.flush()
                    except (BrokenPipeError, ConnectionResetError):
                        return
                    if response.chunk_delay:
                        time.sleep(response.chunk_delay)
                self.close_connection = True

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        if tls is not None:
            self._server.socket = tls.wrap_socket(self._server.socket, server_side=True)
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(0.02,), daemon=True
        )

    @property
    def base_url(self) -> str:
        """Return `http://127.0.0.1:<port>` (`https://` when serving TLS)."""
        host, port = self._server.server_address[:2]
        scheme = "https" if self.tls is not None else "http"
        return f"{scheme}://{host!s}:{port}"

    def queue(self, *responses: FakeResponse) -> None:
        """Add responses to send, in order, one per request."""
        with self._lock:
            self._queue.extend(responses)

    def discard_queued(self) -> int:
        """Drop the responses not served yet (a client that died before asking); return how many."""
        with self._lock:
            dropped = len(self._queue)
            self._queue.clear()
        return dropped

    def route(self, router: Router | None) -> None:
        """Choose answers by request: `router` is called (on the server's thread) with each
        request, and its answer is sent; when it returns None the next queued answer is."""
        self._router = router

    def start(self) -> FakeLLMServer:
        """Start serving in a background thread."""
        self._thread.start()
        return self

    def wait_for_requests(self, count: int, timeout: float = 30.0) -> None:
        """Block until the server has received at least `count` requests."""
        with self._request_arrived:
            if not self._request_arrived.wait_for(lambda: len(self.requests) >= count, timeout):
                raise TimeoutError(f"{len(self.requests)} of {count} requests in {timeout}s")

    def stop(self) -> None:
        """Stop serving (paused responses are resumed so their threads end)."""
        with self._lock:
            for response in self._served:
                response.resume()
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> FakeLLMServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _record(self, handler: BaseHTTPRequestHandler, body: bytes) -> RecordedRequest:
        headers = {k.lower(): v for k, v in handler.headers.items()}
        request = RecordedRequest(handler.command, handler.path, headers, body)
        with self._request_arrived:
            self.requests.append(request)
            self._request_arrived.notify_all()
        return request

    def _routed(self, request: RecordedRequest) -> FakeResponse | None:
        router = self._router
        response = router(request) if router is not None else None
        if response is not None:
            with self._lock:
                self._served.append(response)  # so that stop() resumes it if it pauses
        return response

    def _next(self) -> FakeResponse:
        with self._lock:
            if self._queue:
                response = self._queue.popleft()
                self._served.append(response)
                return response
        return FakeResponse.json_body(
            {"error": {"message": "fake server: no response queued", "type": "test_error"}},
            status=500,
        )
