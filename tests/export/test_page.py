"""The exported page: what it shows, what it embeds, and that session content stays inert."""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import re
from pathlib import Path

import pytest

from pi_core.export import ExportError, export_branch_to_jsonl, export_file_to_html
from pi_core.export.markdown import render_markdown
from pi_core.session.manager import SessionManager
from tests.export.page_checks import embedded_jsonl, parse, templates, tree_data
from tests.export.sessions import HOSTILE_ID, hostile_session, ordinary_session, write_session

ROOT = Path(__file__).resolve().parents[1]
SAFE_HREF = re.compile(r"^(https?:|mailto:|#|[^:]*$)", re.I)


def session_fixtures() -> list[Path]:
    """Every session file pi wrote that the tests keep (plain or gzipped)."""
    found = []
    for path in sorted(ROOT.rglob("*.jsonl*")):
        if not path.name.endswith((".jsonl", ".jsonl.gz")):
            continue
        raw = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
        first = raw.split(b"\n", 1)[0]
        if first.startswith(b"{") and json.loads(first).get("type") == "session":
            found.append(path)
    return found


def test_the_fixture_list_holds_pi_sessions() -> None:
    names = {p.name for p in session_fixtures()}
    assert {"before-compaction.jsonl", "large-session.jsonl", "written-by-pi.jsonl"} <= names


@pytest.mark.slow
@pytest.mark.parametrize("fixture", session_fixtures(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_session_fixture_exports(fixture: Path, tmp_path: Path) -> None:
    source = fixture
    if fixture.suffix == ".gz":
        source = tmp_path / fixture.name.removesuffix(".gz")
        source.write_bytes(gzip.decompress(fixture.read_bytes()))
    original = source.read_bytes()
    out = tmp_path / "out.html"
    result = export_file_to_html(source, out)
    assert result.path == out and result.warnings == []
    assert source.read_bytes() == original  # an old file is migrated in memory only
    page = out.read_text()
    data = tree_data(page)
    lines = [json.loads(line) for line in original.splitlines() if line.strip()]
    assert len(data["rows"]) == len(lines) - 1
    # Each entry is rendered here (a template) or by the page from its line, never both.
    here, on_page = set(templates(page)), {row["id"] for row in data["rows"] if "line" in row}
    assert {row["id"] for row in data["rows"]} == here | on_page and not here & on_page
    assert embedded_jsonl(page) == original
    assert f"Session: {lines[0]['id']}" in page


def test_the_page_shows_stats_tools_branches_and_blocks(tmp_path: Path) -> None:
    source = write_session(tmp_path / "s.jsonl", ordinary_session())
    page = export_file_to_html(source, tmp_path / "s.html").path.read_text()
    assert "4 assistant" in page and "3 user" in page and "3 tool results" in page
    assert "1 compactions" in page and "1 branch summaries" in page
    assert "fake/fake-model" in page and "$0.120" in page and "↑400 ↓80 R20 W4" in page
    bodies = templates(page)
    assert 'class="diff-added">+new line' in bodies["a1"]
    assert 'class="diff-removed">-old line' in bodies["a1"]
    assert "$ ls -la" in bodies["a1"] and "BASH-OUTPUT-MARK" in bodies["a1"]
    assert "expandable preview-10" in bodies["a1"] and "... (20 more lines)" in bodies["a1"]
    assert '<span class="' in bodies["a1"]  # python highlighted
    assert "Let me look at the file first." in bodies["a1"]  # thinking
    assert 'src="data:image/png;base64,' in bodies["u1"]
    assert "<table>" in bodies["a2"]
    assert "Compacted from 12,345 tokens" in bodies["k1"]
    assert "Branch Summary" in bodies["b1"] and "<strong>other</strong>" in bodies["b1"]
    assert bodies["r1"] == ""  # results are shown with their calls
    assert 'href="#u1"' in bodies["u1"]  # the deep link
    data = tree_data(page)
    rows = {row["id"]: row for row in data["rows"]}
    assert data["leafId"] == "l1"
    assert rows["u3"]["label"] == "side"
    # r3 has two children: the active branch (to the leaf) is listed first
    assert rows["b1"]["branch"] == "├" and rows["a2"]["branch"] == "└"
    assert rows["r3"]["newest"] == "b1" and "newest" not in rows["a2"]
    assert [row["id"] for row in data["rows"]][:4] == ["m1", "u1", "a1", "r1"]


def test_hostile_content_stays_inert(tmp_path: Path) -> None:
    source = write_session(tmp_path / "evil.jsonl", hostile_session())
    page = export_file_to_html(source, tmp_path / "evil.html").path.read_text()
    parsed = parse(page)
    # Only the page's own four script elements; the one that runs is the one the policy allows.
    assert len(re.findall(r"<script\b", page, re.I)) == 4
    kinds = [attrs.get("type") for attrs, _ in parsed.scripts]
    assert kinds == ["application/x-ndjson", "application/json", "application/octet-stream", None]
    code = parsed.scripts[-1][1]
    digest = base64.b64encode(hashlib.sha256(code.encode()).digest()).decode()
    policy = next(
        a["content"] for t, a in parsed.tags if a.get("http-equiv") == "Content-Security-Policy"
    )
    assert policy is not None and f"'sha256-{digest}'" in policy and "default-src 'none'" in policy
    for tag, attrs in parsed.tags:
        assert tag not in ("iframe", "object", "embed", "form", "base"), tag
        for name, value in attrs.items():
            assert not name.startswith("on"), (tag, name, value)
            if name == "href":
                assert value is not None and SAFE_HREF.match(value.strip()), value
            if name == "src":
                assert value is not None and re.match(
                    r"data:image/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]*$", value
                ), value
    bodies = templates(page)
    assert "&lt;script&gt;" in bodies[HOSTILE_ID]  # raw HTML shown as text
    assert "[image: g]" in bodies[HOSTILE_ID]  # a remote image is not loaded
    assert 'href="https://example.com/page"' in bodies[HOSTILE_ID]
    assert "image not shown" in bodies["a1"]
    data = tree_data(page)  # the session's strings survive the trip through the script element
    assert {row["id"] for row in data["rows"]} >= {HOSTILE_ID, "weird", "weird2"}
    assert next(r for r in data["rows"] if r["id"] == HOSTILE_ID)["label"].startswith("</script>")
    assert embedded_jsonl(page) == source.read_bytes()


@pytest.mark.parametrize(
    "text",
    [
        "plain words",
        "two\nlines",
        "para one\n\npara two",
        "  indented a bit\nnext",
        "émoji 🎉 ok",
        'it\'s "quoted"',
        "a - b + c = d # e > f ! g: h",
        "x\n- list",
        "x\n---",
        "x\n> quote",
        "x\n# head",
        "1. one",
        "a\n    b",
        "trailing  \nspaces",
    ],
)
def test_plain_text_renders_as_markdown_it_would(text: str) -> None:
    from markdown_it import MarkdownIt

    reference = MarkdownIt("commonmark", {"html": False, "breaks": True}).render(text)
    assert render_markdown(text) == reference


def test_a_torn_last_line_exports_what_parses_with_a_warning(tmp_path: Path) -> None:
    lines = [json.dumps(e) for e in ordinary_session()[:4]]
    source = tmp_path / "torn.jsonl"
    source.write_text("\n".join(lines) + "\n" + lines[3][:40])
    result = export_file_to_html(source, tmp_path / "torn.html")
    assert len(result.warnings) == 1 and "incomplete last line" in result.warnings[0]
    assert set(templates(result.path.read_text())) == {"m1", "u1", "a1"}


def test_empty_missing_and_headerless_files_are_clear_errors(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    with pytest.raises(ExportError, match=r"Nothing to export: .* is empty"):
        export_file_to_html(empty, tmp_path / "o.html")
    only_header = write_session(tmp_path / "header.jsonl", ordinary_session()[:1])
    with pytest.raises(ExportError, match="has no entries"):
        export_file_to_html(only_header, tmp_path / "o.html")
    with pytest.raises(ExportError, match="File not found"):
        export_file_to_html(tmp_path / "missing.jsonl", tmp_path / "o.html")
    not_session = tmp_path / "notes.jsonl"
    not_session.write_text('{"hello": 1}\n')
    with pytest.raises(ExportError, match="not a pi session file"):
        export_file_to_html(not_session, tmp_path / "o.html")
    assert not (tmp_path / "o.html").exists()


def test_an_unwritable_output_is_a_clear_error(tmp_path: Path) -> None:
    source = write_session(tmp_path / "s.jsonl", ordinary_session())
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    with pytest.raises(ExportError, match=r"Cannot write .*a-file/out\.html"):
        export_file_to_html(source, blocker / "out.html")
    with pytest.raises(ExportError, match="it is a folder"):
        export_file_to_html(source, tmp_path)


def test_in_memory_and_unsaved_sessions_are_clear_errors(tmp_path: Path) -> None:
    from pi_core.export import export_session_to_html

    with pytest.raises(ExportError, match="Cannot export in-memory session to HTML"):
        export_session_to_html(SessionManager.in_memory(str(tmp_path)))
    fresh = SessionManager.create(str(tmp_path), tmp_path / "sessions")
    fresh.append_message({"role": "user", "content": "hi", "timestamp": 0})
    with pytest.raises(ExportError, match="Nothing to export yet - start a conversation first"):
        export_session_to_html(fresh)


def test_a_live_session_exports_at_its_leaf_with_prompt_and_tools(tmp_path: Path) -> None:
    from pi_core.export import export_session_to_html
    from pi_core.export.page import ToolInfo

    source = write_session(tmp_path / "s.jsonl", ordinary_session())
    manager = SessionManager.open(source)
    manager.branch("a3")
    schema = {
        "properties": {"path": {"type": "string", "description": "Where"}},
        "required": ["path"],
    }
    result = export_session_to_html(
        manager,
        tmp_path / "live.html",
        system_prompt="You are <b>pi</b>",
        tools=[ToolInfo("read", "Read a file", schema)],
    )
    page = result.path.read_text()
    assert tree_data(page)["leafId"] == "a3"
    assert "You are &lt;b&gt;pi&lt;/b&gt;" in page
    assert "Available Tools (1)" in page and "tool-param-required" in page
    assert embedded_jsonl(page).decode().count("\n") == len(ordinary_session())


def test_the_branch_exports_as_a_linear_session(tmp_path: Path) -> None:
    source = write_session(tmp_path / "s.jsonl", ordinary_session())
    manager = SessionManager.open(source)
    out = export_branch_to_jsonl(manager, tmp_path / "deep" / "branch.jsonl")
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert records[0]["type"] == "session" and records[0]["id"] == "sess-1"
    ids = [r["id"] for r in records[1:]]
    assert ids == ["m1", "u1", "a1", "r1", "r2", "r3", "b1", "u3", "a4", "l1"]
    assert [r["parentId"] for r in records[1:]] == [None, *ids[:-1]]
    reopened = SessionManager.open(out)
    assert reopened.get_leaf_id() == "l1"


def test_past_the_budgets_the_oldest_entries_are_shown_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pi_core.export.markdown as markdown

    source = write_session(tmp_path / "s.jsonl", ordinary_session())
    # the markdown of b1, k1 and a2, the newest ones (a4, u3, a3 and u2 are plain text)
    newer = [
        "Tried the **other** way",
        "## Goal\nFix the bug",
        "| col | val |\n|---|---|\n| a | 1 |",
    ]
    monkeypatch.setattr(markdown, "MARKDOWN_BUDGET", sum(map(len, newer)))
    monkeypatch.setattr(markdown, "HIGHLIGHT_BUDGET", 0)
    page = export_file_to_html(source, tmp_path / "s.html").path.read_text()
    bodies = templates(page)
    assert "<table>" in bodies["a2"]
    assert '<div class="as-written">Reading it:' in bodies["a1"]  # older: as written
    assert re.search(r'<span class="(?!timestamp|tool-)', bodies["a1"]) is None  # no colours
    assert "Please **fix** the bug in `app.py`" in bodies["u1"]
