"""A large `pi --export` computes the sidebar in a forked child: the same page, another core."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

import pi_core.export.page as page_module
from pi_core.export import export_file_to_html
from pi_core.export.forked import Forked
from tests.export.sessions import ordinary_session, write_session


def test_the_sidebar_comes_from_a_child_and_the_page_is_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = write_session(tmp_path / "s.jsonl", ordinary_session())
    pids = tmp_path / "pids"
    original = page_module.sidebar_json

    def recording(*args: Any) -> Any:
        with pids.open("a") as out:
            out.write(f"{os.getpid()}\n")
        return original(*args)

    monkeypatch.setattr(page_module, "sidebar_json", recording)
    monkeypatch.setattr(page_module, "FORK_FROM_ENTRIES", 0)
    forked = export_file_to_html(source, tmp_path / "forked.html").path.read_bytes()
    assert pids.read_text().split() != [str(os.getpid())]  # computed in another process
    monkeypatch.setattr(page_module, "FORK_FROM_ENTRIES", 10**9)
    pids.unlink()
    inline = export_file_to_html(source, tmp_path / "inline.html").path.read_bytes()
    assert pids.read_text().split() == [str(os.getpid())]
    assert forked == inline


def test_a_failed_child_is_computed_again_here() -> None:
    parent = os.getpid()

    def compute() -> str:
        if os.getpid() != parent:
            raise RuntimeError("the child fails")
        return "computed here \udc80 ✓"

    assert Forked(compute, fork=True).result() == "computed here \udc80 ✓"
    assert (
        Forked(lambda: "from the child ✓ \udc80", fork=True).result() == "from the child ✓ \udc80"
    )
