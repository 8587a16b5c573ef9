"""Suite-wide setup: the virtual environment's console scripts come first on PATH, so the suite
runs as `.venv/bin/python -m pytest` without activating the environment, and every process a test
starts (a tmux pane, an SDK's CLI, an MCP server) finds the same `pi`."""

from __future__ import annotations

import os

import pytest

from pi_core.testing import path_with_scripts


def pytest_configure(config: pytest.Config) -> None:
    """Put the interpreter's scripts folder first on PATH, for this process and its children."""
    os.environ["PATH"] = path_with_scripts()
