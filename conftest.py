"""Suite-wide setup: the virtual environment's console scripts come first on PATH, so the suite
runs as `.venv/bin/python -m pytest` without activating the environment, and every process a test
starts (a tmux pane, an SDK's CLI, an MCP server) finds the same `pi`; and the tests that drive
the real `pi` through a fixture are marked `slow`."""

from __future__ import annotations

import os

import pytest

from pi_core.testing import path_with_scripts

END_TO_END_FIXTURES = frozenset({"screen", "cli", "rpc", "pi", "pi_claude", "pi_bin"})
"""Fixtures that start the real `pi` or `pi-claude` (in tmux, or as a child process): a test that
uses one takes seconds, so it is `slow` (left out of the pre-commit run `-m "not slow"`)."""


def pytest_configure(config: pytest.Config) -> None:
    """Put the interpreter's scripts folder first on PATH, for this process and its children."""
    os.environ["PATH"] = path_with_scripts()


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark `slow` every test that uses an end-to-end fixture."""
    for item in items:
        if END_TO_END_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)
