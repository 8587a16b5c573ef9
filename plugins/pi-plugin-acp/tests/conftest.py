"""Fixtures for `pi acp` driven by the ACP SDK's client: a project against the loopback fake,
every message pi sends checked against the SDK's schema models."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "helpers"))

from acp_test_client import Project

from pi_core.testing import FakeLLMServer


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Project]:
    """A project, its agent dir and HOME against a fake model; after the test, every message pi
    sent must have been valid, and some must have been checked."""
    with FakeLLMServer() as fake:
        made = Project(tmp_path, fake)
        yield made
    assert made.wire.invalid == []
    assert made.wire.checked > 0
