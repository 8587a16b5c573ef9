"""The hook reference in docs/ is generated from the hookspecs and must not fall behind them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pi_core import hookspecs

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_hook_reference_is_up_to_date() -> None:
    result = subprocess.run(
        [sys.executable, str(DOCS / "gen_hooks.py"), "--check"], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr


def test_every_hook_is_documented_with_its_semantics() -> None:
    text = (DOCS / "hooks.md").read_text()
    for name, semantics in hookspecs.EVENT_HOOKS.items():
        assert f"| `{name}` | {semantics} |" in text
        assert f"### `{name}`" in text
    for name in hookspecs.REGISTRATION_HOOKS:
        assert f"### `{name}`" in text


def test_every_hookspec_has_a_one_line_docstring() -> None:
    for name in [*hookspecs.EVENT_HOOKS, *hookspecs.REGISTRATION_HOOKS]:
        doc = getattr(hookspecs, name).__doc__
        assert doc and "\n" not in doc.strip(), name
