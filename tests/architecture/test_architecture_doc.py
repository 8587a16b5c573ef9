"""What docs/architecture.md says about the tree now is computed from the tree, so it cannot
drift: the REPL's module count and size, the built-in command count, the pieces it names."""

from __future__ import annotations

import re
from pathlib import Path

from pi_core.builtin_commands import BUILTIN_COMMAND_NAMES

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "architecture.md").read_text()
CORE = ROOT / "pi_core"
NOT_PIECES = {"__init__.py", "__main__.py", "_version.py", "py.typed", "__pycache__"}


def stated(pattern: str) -> int:
    """The number the doc states where `pattern` (with one `(\\d+)` group) matches."""
    found = re.search(pattern, " ".join(DOC.split()))
    assert found is not None, f"docs/architecture.md no longer says {pattern!r}"
    return int(found.group(1))


def test_the_repl_module_count_is_the_trees() -> None:
    modules = [p for p in (CORE / "modes" / "interactive").rglob("*.py") if p.name != "__init__.py"]
    assert stated(r"`modes/interactive/` is (\d+) modules") == len(modules)


def test_the_repl_app_is_as_small_as_said() -> None:
    lines = (CORE / "modes" / "interactive" / "app.py").read_text().count("\n")
    assert lines < stated(r"`InteractiveApp`, under (\d+) lines")


def test_the_built_in_command_count_is_the_lists() -> None:
    assert stated(r"The built-in names are pi's (\d+)") == len(BUILTIN_COMMAND_NAMES)


def test_every_piece_of_the_core_is_in_the_table() -> None:
    pieces = DOC.split("## The pieces", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"`(?:pi_core/)?([A-Za-z_]+(?:\.py)?)/?`", pieces))
    top_level = {p.name for p in CORE.iterdir()} - NOT_PIECES
    assert sorted(top_level - named) == []


def test_every_core_path_the_doc_names_exists() -> None:
    paths = set(re.findall(r"`(pi_core/[A-Za-z_./]+)`", DOC))
    assert sorted(p for p in paths if not (ROOT / p).exists()) == []
