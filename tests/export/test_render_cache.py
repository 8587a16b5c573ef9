"""An export renders repeated code and markdown once, and a repeat costs no budget."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pygments.lexer import Lexer

import pi_core.export.markdown as markdown
from pi_core.export import export_file_to_html
from tests.export.page_checks import templates
from tests.export.sessions import assistant, header, message, write_session

SOURCE = "\n".join(f"def f_{i}(x):\n    return x * {i}" for i in range(20))
ANSWER = "Done:\n\n```python\ndef main():\n    return 42\n```\n\n- **one** `fix`"
REPEATS = 6


def _repeating_session() -> list[dict[str, Any]]:
    """The same file read REPEATS times, each time answered with the same markdown."""
    entries: list[dict[str, Any]] = [header()]
    parent: str | None = None
    for turn in range(REPEATS):
        call = {"type": "toolCall", "id": f"c{turn}", "name": "read", "arguments": {"path": "a.py"}}
        result = {"role": "toolResult", "toolCallId": f"c{turn}", "toolName": "read"}
        text = [{"type": "text", "text": SOURCE}]
        entries += [
            message(f"u{turn}", parent, 1, role="user", content=[{"type": "text", "text": "go"}]),
            assistant(f"a{turn}", f"u{turn}", 2, [call], stopReason="toolUse"),
            message(f"r{turn}", f"a{turn}", 3, **result, content=text, isError=False),
            assistant(f"b{turn}", f"r{turn}", 4, [{"type": "text", "text": ANSWER}]),
        ]
        parent = f"b{turn}"
    return entries


@pytest.fixture
def tokenised(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text Pygments is asked to tokenise during the test."""
    seen: list[str] = []
    original = Lexer.get_tokens

    def counting(self: Lexer, text: str, unfiltered: bool = False) -> Iterator[Any]:
        seen.append(text)
        return original(self, text, unfiltered)

    monkeypatch.setattr(Lexer, "get_tokens", counting)
    return seen


def test_repeated_code_is_highlighted_once_per_export(tmp_path: Path, tokenised: list[str]) -> None:
    source = write_session(tmp_path / "s.jsonl", _repeating_session())
    page = export_file_to_html(source, tmp_path / "s.html").path.read_text()
    assert tokenised.count(SOURCE) == 1
    bodies = templates(page)
    reads = {bodies[f"a{turn}"].split('class="tool-output', 1)[1] for turn in range(REPEATS)}
    assert len(reads) == 1 and '<span class="' in reads.pop()
    # a second export highlights again: the cache lives for one export
    export_file_to_html(source, tmp_path / "t.html")
    assert tokenised.count(SOURCE) == 2


def test_a_repeat_costs_no_budget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Room for one copy of the file and one of the answer: every repeat is still rendered.
    monkeypatch.setattr(
        markdown, "HIGHLIGHT_BUDGET", len(SOURCE) + len("def main():\n    return 42\n")
    )
    monkeypatch.setattr(markdown, "MARKDOWN_BUDGET", len(ANSWER))
    source = write_session(tmp_path / "s.jsonl", _repeating_session())
    bodies = templates(export_file_to_html(source, tmp_path / "s.html").path.read_text())
    for turn in range(REPEATS):
        assert '<span class="k">def ' in bodies[f"a{turn}"], turn
        assert "<strong>one</strong>" in bodies[f"b{turn}"], turn
        assert '<span class="k">return ' in bodies[f"b{turn}"], turn
        assert "as-written" not in bodies[f"b{turn}"], turn
