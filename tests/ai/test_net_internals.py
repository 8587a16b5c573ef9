"""The private members of httpx, httpcore and prompt_toolkit that pi relies on are still there.

pi_core/ai/http.py swaps httpx's private `AsyncHTTPTransport._pool` for an httpcore pool on
pi_core/ai/net.py's backend, and the REPL reads a few private prompt_toolkit fields. Their
versions are pinned to the minor series tested (pyproject.toml); these tests fail loudly, with
the member's name, when an installed version moves one of them, and when an installed version is
outside the pins.
"""

from __future__ import annotations

import inspect
import tomllib
from importlib.metadata import version
from pathlib import Path

import httpcore
import httpx
import pytest
from packaging.requirements import Requirement
from prompt_toolkit.application import Application
from prompt_toolkit.output import DummyOutput

from pi_core.ai.http import asyncio_transport
from pi_core.ai.net import AsyncioBackend

ROOT = Path(__file__).resolve().parents[2]
PINNED = ("httpx", "httpcore", "prompt-toolkit")


def _core_requirements() -> dict[str, Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirements = map(Requirement, project["dependencies"])
    return {requirement.name: requirement for requirement in requirements}


@pytest.mark.parametrize("name", PINNED)
def test_internals_dependencies_are_pinned_to_a_minor_and_installed_within(name: str) -> None:
    requirement = _core_requirements()[name]
    assert any(spec.operator == "<" for spec in requirement.specifier), requirement
    installed = version(name)
    assert installed in requirement.specifier, f"{name} {installed} is outside {requirement}"


def test_httpx_transport_still_keeps_an_httpcore_pool_in_pool() -> None:
    transport = httpx.AsyncHTTPTransport()
    assert isinstance(getattr(transport, "_pool", None), httpcore.AsyncConnectionPool), (
        "httpx.AsyncHTTPTransport._pool is gone or no longer an httpcore pool: "
        "pi_core/ai/http.py asyncio_transport needs another way in"
    )


def test_httpcore_pool_still_takes_the_arguments_we_pass() -> None:
    parameters = inspect.signature(httpcore.AsyncConnectionPool).parameters
    for name in (
        "ssl_context",
        "max_connections",
        "max_keepalive_connections",
        "keepalive_expiry",
        "network_backend",
    ):
        assert name in parameters, f"httpcore.AsyncConnectionPool lost `{name}`"


def test_our_transport_uses_our_backend() -> None:
    transport = asyncio_transport(True)
    pool = transport._pool
    assert isinstance(pool, httpcore.AsyncConnectionPool)
    assert isinstance(pool._network_backend, AsyncioBackend)


def test_httpcore_still_exports_what_net_py_uses() -> None:
    for name in (
        "AsyncNetworkBackend",
        "AsyncNetworkStream",
        "ConnectError",
        "ConnectTimeout",
        "ReadError",
        "ReadTimeout",
        "WriteError",
        "WriteTimeout",
    ):
        assert hasattr(httpcore, name), f"httpcore.{name} is gone (pi_core/ai/net.py uses it)"


def test_prompt_toolkit_still_has_the_private_members_the_repl_reads() -> None:
    app: Application[None] = Application(output=DummyOutput())
    for name in (
        "_running_in_terminal",
        "_running_in_terminal_f",
        "_default_bindings",
        "_page_navigation_bindings",
    ):
        assert hasattr(app, name), f"prompt_toolkit Application.{name} is gone"
    assert hasattr(app.renderer, "_cursor_pos"), "prompt_toolkit Renderer._cursor_pos is gone"
