"""The loopback server a browser is redirected to after a login, on the vendor's fixed port."""

from __future__ import annotations

import asyncio
import threading
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, urlsplit

from pi_core.ai.oauth.endpoints import callback_host

if TYPE_CHECKING:  # http.server (and socketserver, email, html) load when a login listens
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

_PAGE = (
    "<!doctype html><html><head><meta charset='utf-8'><title>pi</title></head>"
    "<body><p>{}</p></body></html>"
)


class CallbackServer:
    """Accepts one redirect on `path` whose state matches; `wait()` returns its code.

    Start it with `CallbackServer.start(...)`, which returns None when the port is taken (pi then
    falls back to a pasted redirect URL, and so do we).
    """

    def __init__(self, server: ThreadingHTTPServer, path: str, state: str, vendor: str) -> None:
        self._server = server
        self._path = path
        self._state = state
        self._vendor = vendor
        self._loop = asyncio.get_running_loop()
        self._result: asyncio.Future[str | None] = self._loop.create_future()
        server.RequestHandlerClass = self._handler_class()
        self._thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
        self._thread.start()

    @classmethod
    def start(cls, port: int, path: str, state: str, vendor: str) -> CallbackServer | None:
        """Listen on the callback host and `port` (inside a running event loop), or None."""
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        try:
            server = ThreadingHTTPServer((callback_host(), port), BaseHTTPRequestHandler)
        except OSError:
            return None
        server.daemon_threads = True
        return cls(server, path, state, vendor)

    @property
    def port(self) -> int:
        """Return the port the server listens on."""
        return int(self._server.server_address[1])

    async def wait(self) -> str | None:
        """Return the code of the first good redirect, or None once cancelled."""
        return await asyncio.shield(self._result)

    def cancel(self) -> None:
        """Stop waiting: `wait()` returns None."""
        self._settle(None)

    def close(self) -> None:
        """Stop listening."""
        self.cancel()
        self._server.shutdown()
        self._server.server_close()

    def _settle(self, code: str | None) -> None:
        def settle() -> None:
            if not self._result.done():
                self._result.set_result(code)

        if self._loop.is_closed():
            return
        self._loop.call_soon_threadsafe(settle)

    def _answer(self, target: str) -> tuple[int, str]:
        url = urlsplit(target)
        if url.path != self._path:
            return 404, "Callback route not found."
        query = parse_qs(url.query)
        if query.get("error"):
            return 400, f"{self._vendor} authentication did not complete: {query['error'][0]}"
        code, state = query.get("code", [""])[0], query.get("state", [""])[0]
        if not code or not state:
            return 400, "Missing code or state parameter."
        if state != self._state:
            return 400, "State mismatch."
        self._settle(code)
        return 200, f"{self._vendor} authentication completed. You can close this window."

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        import html
        from http.server import BaseHTTPRequestHandler

        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                status, message = owner._answer(self.path)
                body = _PAGE.format(html.escape(message)).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:
                return

        return Handler
