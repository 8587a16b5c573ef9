"""A loopback PEP 503 "simple" package index: serves a folder of wheels on 127.0.0.1."""

from __future__ import annotations

import hashlib
import html
import re
import threading
from collections.abc import Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType


def project_name(wheel: Path) -> str:
    """Return the normalized project name of a wheel file (`pi_plugin_hello-0.1.0-…` ->
    `pi-plugin-hello`), as PEP 503 spells it in URLs."""
    return re.sub(r"[-_.]+", "-", wheel.name.split("-", 1)[0]).lower()


class SimpleIndex:
    """Serves `/simple/` (the project list), `/simple/NAME/` (its files, with sha256 fragments)
    and `/files/WHEEL`; `requested` records every path asked for. Use as a context manager."""

    def __init__(self, wheels: list[Path]) -> None:
        self.wheels = {wheel.name: wheel for wheel in wheels}
        self.requested: list[str] = []
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/simple/"

    def __enter__(self) -> SimpleIndex:
        threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True).start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._server.shutdown()
        self._server.server_close()

    def page(self, path: str) -> bytes | None:
        """Return the body for `path`, or None when there is nothing there."""
        if path.startswith("/files/") and path[len("/files/") :] in self.wheels:
            return self.wheels[path[len("/files/") :]].read_bytes()
        if path == "/simple/":
            names = sorted({project_name(wheel) for wheel in self.wheels.values()})
            return _html(f'<a href="{name}/">{name}</a>' for name in names)
        match = re.fullmatch(r"/simple/([^/]+)/", path)
        if match is None:
            return None
        files = [w for w in self.wheels.values() if project_name(w) == match.group(1).lower()]
        if not files:
            return None
        return _html(
            f'<a href="../../files/{html.escape(w.name)}#sha256='
            f'{hashlib.sha256(w.read_bytes()).hexdigest()}">{html.escape(w.name)}</a>'
            for w in sorted(files)
        )

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        index = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                return

            def do_GET(self) -> None:
                path = self.path.split("?", 1)[0]
                index.requested.append(path)
                if not path.endswith("/") and not path.startswith("/files/"):
                    path += "/"  # pip asks for /simple/NAME/, some clients for /simple/NAME
                body = index.page(path)
                if body is None:
                    self.send_error(404)
                    return
                self.send_response(200)
                kind = "text/html" if path.endswith("/") else "application/octet-stream"
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        return Handler


def _html(links: Iterable[str]) -> bytes:
    body = "\n".join(links)
    return f"<!DOCTYPE html>\n<html><body>\n{body}\n</body></html>\n".encode()
