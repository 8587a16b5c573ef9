"""The reliability tests run the real `pi` against the fake server, like the CLI tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from pi_core.testing import console_script
from tests.cli.conftest import Cli, cli
from tests.cli.rpc_script import RpcProcess

__all__ = ["cli", "rpc"]


@pytest.fixture
def rpc(cli: Cli) -> Iterator[Callable[..., RpcProcess]]:
    """Start `pi --mode rpc ARGS…` in the test's project; whatever is still running is killed."""
    started: list[RpcProcess] = []

    def start(*args: str) -> RpcProcess:
        pi = console_script("pi")
        process = RpcProcess([pi, "--mode", "rpc", *args], cli.cwd, cli.env)
        started.append(process)
        return process

    yield start
    for process in started:
        if process.process.poll() is None:
            process.process.kill()
            process.process.wait(timeout=10)
