"""Fixtures: real MCP servers for the tests (the demo server over stdio and over Streamable HTTP),
and `pi mcp serve` served to the SDK's client against the loopback fake model."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from pi_plugin_mcp.config import ServerConfig, parse_server

sys.path.insert(0, str(Path(__file__).resolve().parent / "helpers"))

from mcp_serve_client import Served

from pi_core.testing import FakeLLMServer

DEMO = Path(__file__).parent / "servers" / "demo_server.py"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    """`pi mcp serve`'s project, agent dir and HOME against a fake model."""
    with FakeLLMServer() as fake:
        yield Served(tmp_path, fake)


@pytest.fixture
def demo_stdio() -> Callable[..., ServerConfig]:
    """Build the config of a demo server over stdio, with extra flags and entry keys."""

    def build(*flags: str, name: str = "demo", **entry: Any) -> ServerConfig:
        raw = {"command": sys.executable, "args": [str(DEMO), "stdio", *flags], **entry}
        return parse_server(name, raw, "test")

    return build


@pytest.fixture
def demo_http() -> Iterator[Callable[..., str]]:
    """Start demo servers over Streamable HTTP on loopback ports (`env` added); each call
    returns a URL. Every server is stopped at the end of the test."""
    processes: list[subprocess.Popen[str]] = []

    def start(env: dict[str, str] | None = None, kind: str = "http") -> str:
        process = subprocess.Popen(
            [sys.executable, str(DEMO), kind],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
        )
        processes.append(process)
        assert process.stdout is not None
        line = process.stdout.readline()  # printed once the socket listens
        assert line.startswith("port "), line
        path = "/mcp" if kind == "http" else "/sse"
        return f"http://127.0.0.1:{int(line.split()[1])}{path}"

    yield start
    for process in processes:
        process.terminate()
        process.wait(timeout=30)


@pytest.fixture(params=["stdio", "http", "sse"])
def demo_any(
    request: pytest.FixtureRequest, demo_stdio: Callable[..., ServerConfig]
) -> ServerConfig:
    """The demo server over each transport."""
    if request.param == "stdio":
        return demo_stdio()
    kind = request.param
    url = request.getfixturevalue("demo_http")(kind=kind)
    return parse_server("demo", {"type": kind, "url": url}, "test")
