"""Entries past the export's entry budget: written as their session lines, rendered by the page."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import pi_core.export.markdown as markdown
import pi_core.export.page as page_module
from pi_core.export import export_file_to_html
from pi_core.export.entries import EntryRenderer
from tests.export.cdp import DevTools
from tests.export.page_checks import embedded_jsonl, parse, templates, tree_data
from tests.export.sessions import assistant, entry, message, ordinary_session, write_session
from tests.export.test_browser import (
    BROWSER,
    test_a_hostile_session_runs_no_script_and_loads_nothing,
)


def broad_session() -> list[dict[str, Any]]:
    """The ordinary session and, after its leaf, every other kind of block the page draws."""
    lines = "\n".join(f"row {i}" for i in range(14))
    skill = '<skill name="fmt" location="/s/fmt.md">\nUse **black**\n</skill>\n\nthen fix it'
    return [
        *ordinary_session(),
        message("u4", "a4", 15, role="user", content=skill),
        assistant(
            "a5",
            "u4",
            16,
            [
                {"type": "text", "text": "plain answer\n\nsecond paragraph"},
                {"type": "image", "mimeType": "constructor", "data": "AAAA"},  # not a type
                {
                    "type": "toolCall",
                    "id": "c4",
                    "name": "write",
                    "arguments": {"path": "/work/notes.txt", "content": lines},
                },
                {"type": "toolCall", "id": "c5", "name": "ls", "arguments": {"limit": 5}},
                {
                    "type": "toolCall",
                    "id": "c6",
                    "name": "grep",
                    "arguments": {"pattern": "a<b", "glob": "*.py"},
                },
                {"type": "toolCall", "id": "c7", "name": "bash", "arguments": {"command": 7}},
                {
                    "type": "toolCall",
                    "id": "c8",
                    "name": "read",
                    "arguments": {"path": "/work/x.py", "offset": 3, "limit": 2},
                },
            ],
            stopReason="toolUse",
        ),
        message(
            "r4", "a5", 17, role="toolResult", toolCallId="c4", toolName="write",
            content=[{"type": "text", "text": "Wrote 14 lines"}], isError=False,
        ),
        message(
            "r5", "r4", 18, role="toolResult", toolCallId="c5", toolName="ls",
            content=[{"type": "text", "text": "a.py\nb.py"}], isError=True,
        ),
        message(
            "r6", "r5", 19, role="toolResult", toolCallId="c6", toolName="grep",
            content=[{"type": "text", "text": "x.py:1: a<b & 'c'"}], isError=False,
        ),
        entry("thinking_level_change", "t1", "r6", 20, thinkingLevel="high"),
        entry(
            "custom_message", "cm1", "t1", 21, customType="note",
            content="A *plugin* note", display=True,
        ),
        message(
            "x1", "cm1", 22, role="bashExecution", command="make", output="ok\nfailed",
            exitCode=2,
        ),
        entry(
            "custom_message", "cm2", "x1", 22, customType="data",
            content={"ok": True, "n": [1, "two", None], "deep": {"x": "<y>"}},
        ),
        assistant(
            "a6", "cm2", 23, [{"type": "text", "text": "partial"}],
            stopReason="error", errorMessage="overloaded <503>",
        ),
        assistant("a7", "a6", 24, [], stopReason="aborted"),
    ]  # fmt: skip


def export(tmp_path: Path, name: str, entries: list[dict[str, Any]]) -> Path:
    """Export `entries` as a session file to `name`.html."""
    source = write_session(tmp_path / f"{name}.jsonl", entries)
    return export_file_to_html(source, tmp_path / f"{name}.html").path


def test_past_the_entry_budget_entries_are_lines_not_rendered_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rendered: list[str] = []
    original = EntryRenderer.render

    def counting(self: EntryRenderer, raw: dict[str, Any]) -> str:
        rendered.append(raw["id"])
        return original(self, raw)

    monkeypatch.setattr(EntryRenderer, "render", counting)
    source = write_session(tmp_path / "s.jsonl", broad_session())
    sizes = {json.loads(line)["id"]: len(line) for line in source.read_bytes().splitlines()}
    # the budget holds the newest three lines (a7, a6, cm2) and runs out on the fourth (x1)
    monkeypatch.setattr(page_module, "ENTRY_BUDGET", sizes["a7"] + sizes["a6"] + sizes["cm2"] + 1)
    page = export_file_to_html(source, tmp_path / "s.html").path.read_text()
    assert sorted(rendered) == ["a6", "a7", "cm2", "x1"]
    assert set(templates(page)) == {"a6", "a7", "cm2", "x1"}
    data = tree_data(page)
    lines = next(t for a, t in parse(page).scripts if a.get("id") == "session-lines")
    assert "<" not in lines  # nothing in the lines can end the element
    split = lines.split("\n")
    for row in data["rows"]:
        if row["id"] in ("a6", "a7", "cm2", "x1"):
            assert "line" not in row
        else:
            assert json.loads(split[row["line"]])["id"] == row["id"]
    assert json.loads(split[data["results"]["c6"]])["message"]["content"][0]["text"] == (
        "x.py:1: a<b & 'c'"
    )


def test_a_current_session_file_is_scanned_without_reading_every_entry_into_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pi_core.session.jsonl as jsonl

    def refuse(path: Path) -> Any:
        raise AssertionError("the whole file was read into entries")

    monkeypatch.setattr(jsonl, "read_session_file", refuse)
    page = export(tmp_path, "s", broad_session()).read_text()
    assert "SIDE-BRANCH-ANSWER" in page


needs_browser = pytest.mark.skipif(BROWSER is None, reason="chromium is not installed")


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[DevTools]:
    assert BROWSER is not None
    tools = DevTools(BROWSER, str(tmp_path / "cdp-profile"))
    try:
        yield tools
    finally:
        tools.close()


# Every entry's HTML as the page shows it: open each entry by its deep link, collect #messages.
SHOWN = """(async () => {
  const ids = JSON.parse(document.getElementById('session-tree').textContent).rows.map(r => r.id);
  const shown = [];
  for (const id of ids) {
    await new Promise(resolve => {  // the page's own hashchange listener runs first
      window.addEventListener('hashchange', resolve, { once: true });
      location.hash = '#' + encodeURIComponent(id);
    });
    shown.push(document.getElementById('messages').innerHTML);
  }
  return shown; })()"""


@needs_browser
@pytest.mark.slow
def test_entries_rendered_by_the_page_are_those_rendered_here(
    tmp_path: Path, browser: DevTools, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With no markdown or code budget both sides leave markdown to markdown.js, code uncoloured.
    monkeypatch.setattr(markdown, "MARKDOWN_BUDGET", 0)
    monkeypatch.setattr(markdown, "HIGHLIGHT_BUDGET", 0)
    monkeypatch.setattr(page_module, "ENTRY_BUDGET", 10**9)
    here = export(tmp_path, "here", broad_session())
    monkeypatch.setattr(page_module, "ENTRY_BUDGET", 0)
    on_page = export(tmp_path, "page", broad_session())
    assert templates(on_page.read_text()) == {}
    browser.open(here.as_uri())
    expected = browser.evaluate(SHOWN)
    browser.open(on_page.as_uri())
    assert browser.evaluate(SHOWN) == expected
    everything = "".join(expected)
    for marker in ("notes.txt", "(limit 5)", "a&lt;b", "Thinking level: high", "(exit 2)"):
        assert marker in everything, marker
    assert "overloaded &lt;503&gt;" in everything and "Aborted" in everything
    assert "<strong>black</strong>" in everything  # the skill's markdown, by markdown.js
    assert "<table>" in everything and "BASH-OUTPUT-MARK" in everything
    # the search finds text that only the page's rendering of an entry holds
    browser.evaluate("""(() => { const s = document.getElementById('tree-search');
        s.value = 'overloaded'; s.dispatchEvent(new Event('input')); })()""")
    found = browser.evaluate("""new Promise(resolve => { const start = Date.now();
      (function poll() {
        const ids = Array.from(document.querySelectorAll('.tree-row')).map(r => r.dataset.id);
        if (!ids.includes('u1') || Date.now() - start > 10000) resolve(ids);
        else setTimeout(poll, 20);
      })(); })""")
    assert "a6" in found and "u1" not in found


@needs_browser
@pytest.mark.slow
def test_a_hostile_session_rendered_from_its_lines_runs_no_script_and_loads_nothing(
    tmp_path: Path, browser: DevTools, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(page_module, "ENTRY_BUDGET", 0)
    monkeypatch.setattr(markdown, "MARKDOWN_BUDGET", 0)
    test_a_hostile_session_runs_no_script_and_loads_nothing(tmp_path, browser)
    shown = "document.querySelectorAll('#messages .entry').length"
    assert browser.evaluate(shown) > 0


def test_the_download_is_the_lines_themselves_unless_they_cannot_give_the_file_back(
    tmp_path: Path,
) -> None:
    def export_with(text: str, name: str) -> tuple[dict[str | None, str], bytes, str]:
        session = ordinary_session()
        session.append(message("u9", "l1", 30, role="user", content=text))
        source = write_session(tmp_path / f"{name}.jsonl", session)
        page = export_file_to_html(source, tmp_path / f"{name}.html").path.read_text()
        scripts = {attrs.get("id"): body for attrs, body in parse(page).scripts}
        return scripts, source.read_bytes(), page

    scripts, original, page = export_with("a <b> tag", "plain")
    assert scripts["session-jsonl"] == ""  # no packed copy: the lines are the file
    assert "<" not in scripts["session-lines"] and embedded_jsonl(page) == original
    # the file itself holds the escape the page uses for "<": only a packed copy is exact
    scripts, original, page = export_with("a <b> and a literal \\u003C", "escape")
    assert scripts["session-jsonl"] != "" and embedded_jsonl(page) == original


@needs_browser
@pytest.mark.slow
def test_lines_with_lone_carriage_returns_keep_their_numbers_in_the_page(
    tmp_path: Path, browser: DevTools, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(page_module, "ENTRY_BUDGET", 0)
    source = write_session(tmp_path / "cr.jsonl", ordinary_session())
    source.write_bytes(source.read_bytes().replace(b"\n", b"\r\r\n"))  # JSON whitespace
    page = export_file_to_html(source, tmp_path / "cr.html").path
    browser.open(page.as_uri())
    shown = "Array.from(document.querySelectorAll('#messages .entry')).map(e => e.id)"
    assert browser.evaluate(shown) == [f"entry-{i}" for i in ("m1", "u1", "a1", "b1", "u3", "a4")]
    answer = browser.evaluate("document.getElementById('entry-a4').textContent")
    assert "SIDE-BRANCH-ANSWER" in answer


def test_a_live_session_past_the_budget_is_written_as_lines_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pi_core.export import export_session_to_html
    from pi_core.session.manager import SessionManager

    monkeypatch.setattr(page_module, "ENTRY_BUDGET", 0)
    manager = SessionManager.open(write_session(tmp_path / "s.jsonl", broad_session()))
    manager.branch("a3")
    page = export_session_to_html(manager, tmp_path / "live.html").path.read_text()
    assert templates(page) == {}
    data = tree_data(page)
    assert data["leafId"] == "a3"
    lines = embedded_jsonl(page).decode().split("\n")
    for row in data["rows"]:
        assert json.loads(lines[row["line"]])["id"] == row["id"]
