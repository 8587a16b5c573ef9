"""A loopback npm registry: serves packuments and tarballs of local folders on 127.0.0.1."""

from __future__ import annotations

import base64
import hashlib
import json
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any


class NpmRegistry:
    """Publish folders with `add` (packed by `npm pack`); npm installs them from here offline."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.packages: dict[str, dict[str, bytes]] = {}
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        """Stop serving."""
        self.server.shutdown()
        self.server.server_close()

    def add(self, folder: Path) -> None:
        """Pack `folder` and publish it under its package.json name and version."""
        manifest = json.loads((folder / "package.json").read_text())
        out = subprocess.run(
            ["npm", "pack", "--pack-destination", str(self.workdir), str(folder)],
            capture_output=True, text=True, check=True, cwd=self.workdir,
        )  # fmt: skip
        tarball = (self.workdir / out.stdout.strip().splitlines()[-1]).read_bytes()
        self.packages.setdefault(manifest["name"], {})[manifest["version"]] = tarball

    def packument(self, name: str) -> dict[str, Any]:
        """Return the registry document npm asks for."""
        versions = {}
        for version, tarball in self.packages[name].items():
            integrity = "sha512-" + base64.b64encode(hashlib.sha512(tarball).digest()).decode()
            versions[version] = {
                "name": name,
                "version": version,
                "dist": {
                    "tarball": f"{self.url}{name}/-/{name}-{version}.tgz",
                    "shasum": hashlib.sha1(tarball).hexdigest(),
                    "integrity": integrity,
                },
            }
        latest = sorted(versions)[-1]
        return {"name": name, "dist-tags": {"latest": latest}, "versions": versions}

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        registry = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                parts = self.path.strip("/").split("/")
                body: bytes | None = None
                if len(parts) == 1 and parts[0] in registry.packages:
                    body = json.dumps(registry.packument(parts[0])).encode()
                elif len(parts) == 3 and parts[0] in registry.packages:
                    version = parts[2].removeprefix(f"{parts[0]}-").removesuffix(".tgz")
                    body = registry.packages[parts[0]].get(version)
                if body is None:
                    self.send_response(404)
                    self.end_headers()
                    return
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler
