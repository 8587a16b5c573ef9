"""The exported page in a real headless Chromium: scripts run, the tree selects, nothing leaks.

Chromium comes from Debian's packages (`.ci/run` installs it); without it these tests skip.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from pi_core.export import export_file_to_html
from tests.export.cdp import DevTools
from tests.export.sessions import hostile_session, ordinary_session, write_session

BROWSER = next(
    (found for name in ("chromium", "chromium-browser") if (found := shutil.which(name))), None
)
pytestmark = [
    pytest.mark.skipif(
        BROWSER is None,
        reason="chromium is not installed (apt-get install chromium; CI installs it)",
    ),
    pytest.mark.slow,
]
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars"]


def run_browser(*args: str, profile: Path) -> str:
    assert BROWSER is not None
    done = subprocess.run(
        [BROWSER, *FLAGS, f"--user-data-dir={profile}", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.fixture
def page(tmp_path: Path) -> Path:
    source = write_session(tmp_path / "session.jsonl", ordinary_session())
    return export_file_to_html(source, tmp_path / "session.html").path


def test_after_scripts_run_the_leaf_path_is_shown_and_a_screenshot_is_kept(
    page: Path, tmp_path: Path
) -> None:
    dom = run_browser(
        "--virtual-time-budget=10000", "--dump-dom", page.as_uri(), profile=tmp_path / "profile"
    )
    assert 'data-ready="1"' in dom
    messages = dom.split('id="messages"', 1)[1].split('id="entries"', 1)[0]
    assert "SIDE-BRANCH-QUESTION" in messages and "SIDE-BRANCH-ANSWER" in messages
    assert "MAIN-BRANCH-ANSWER" not in messages  # the other branch is not on the path
    assert dom.count('class="tree-row') >= 8
    assert "13 / 14 entries" in dom  # the model change is hidden by the default filter
    shot = tmp_path / "export-screenshot.png"
    run_browser(
        "--window-size=1400,900",
        "--virtual-time-budget=10000",
        f"--screenshot={shot}",
        page.as_uri(),
        profile=tmp_path / "profile",
    )
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000


def test_a_deep_link_selects_its_entry_and_branch(page: Path, tmp_path: Path) -> None:
    dom = run_browser(
        "--virtual-time-budget=10000",
        "--dump-dom",
        page.as_uri() + "#u2",
        profile=tmp_path / "profile",
    )
    assert 'data-selected="u2"' in dom
    messages = dom.split('id="messages"', 1)[1].split('id="entries"', 1)[0]
    assert "MAIN-BRANCH-ANSWER" in messages and "SIDE-BRANCH-QUESTION" not in messages
    assert 'class="entry user-message highlight" id="entry-u2"' in messages


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[DevTools]:
    assert BROWSER is not None
    tools = DevTools(BROWSER, str(tmp_path / "cdp-profile"))
    try:
        yield tools
    finally:
        tools.close()


def test_clicking_tree_rows_filters_search_and_toggles(page: Path, browser: DevTools) -> None:
    browser.open(page.as_uri())
    shown = "Array.from(document.querySelectorAll('#messages .entry')).map(e => e.id)"
    assert browser.evaluate(shown)[-1] == "entry-a4"
    browser.evaluate("document.querySelector('.tree-row[data-id=\"u2\"]').click()")
    assert browser.evaluate(shown)[-1] == "entry-a3"  # the newest leaf through u2
    browser.evaluate("document.querySelector('.tree-row[data-id=\"r1\"]').click()")
    assert browser.evaluate(shown)[-1] == "entry-a3"  # r1 is on the path shown: it stays
    browser.evaluate("location.hash = '#u3'")  # a link into the other branch
    browser.evaluate("new Promise(r => setTimeout(r, 200))")
    assert browser.evaluate(shown)[-1] == "entry-a4"
    browser.evaluate("document.querySelector('.tree-row[data-id=\"u2\"]').click()")
    assert browser.evaluate("location.hash") == "#u2"
    assert browser.evaluate("document.querySelector('.tree-row.selected').dataset.id") == "u2"
    rows = "Array.from(document.querySelectorAll('.tree-row')).map(e => e.dataset.id)"
    browser.evaluate("document.querySelector('[data-filter=\"user-only\"]').click()")
    assert set(browser.evaluate(rows)) == {"u1", "u2", "u3", "a3"}  # users, and the leaf
    browser.evaluate("document.querySelector('[data-filter=\"labeled-only\"]').click()")
    assert set(browser.evaluate(rows)) == {"u3", "a3"}
    browser.evaluate("document.querySelector('[data-filter=\"all\"]').click()")
    browser.evaluate("""(() => { const s = document.getElementById('tree-search');
        s.value = 'side-branch-answer'; s.dispatchEvent(new Event('input')); })()""")
    browser.evaluate("new Promise(r => setTimeout(r, 400))")
    assert browser.evaluate(rows) == ["a4", "a3"] or set(browser.evaluate(rows)) == {"a4", "a3"}
    expandable = "document.querySelector('#messages .expandable')"
    browser.evaluate("document.querySelector('.tree-row[data-id=\"a4\"]').click()")
    assert browser.evaluate(f"{expandable}.classList.contains('expanded')") is False
    browser.evaluate("document.getElementById('toggle-tools').click()")
    assert browser.evaluate(f"{expandable}.classList.contains('expanded')") is True
    browser.evaluate("document.getElementById('toggle-thinking').click()")
    assert (
        browser.evaluate("getComputedStyle(document.querySelector('.thinking-text')).display")
        == "none"
    )


# The file "↓ JSONL" saves: the blob the button hands to URL.createObjectURL.
DOWNLOADED = """(async () => {
    let saved = null;
    const create = URL.createObjectURL;
    URL.createObjectURL = blob => { saved = blob; return create.call(URL, blob); };
    document.getElementById('download-jsonl').click();
    await new Promise(resolve => (function poll() {
      saved ? resolve() : setTimeout(poll, 10); })());
    return Array.from(new Uint8Array(await saved.arrayBuffer())); })()"""


def test_the_jsonl_download_unpacks_to_the_original_file(page: Path, browser: DevTools) -> None:
    browser.open(page.as_uri())
    source = page.with_name("session.jsonl").read_bytes()
    assert bytes(browser.evaluate(DOWNLOADED)) == source


def test_a_file_with_carriage_returns_downloads_byte_for_byte_from_its_packed_copy(
    tmp_path: Path, browser: DevTools
) -> None:
    source = write_session(tmp_path / "crlf.jsonl", ordinary_session())
    source.write_bytes(source.read_bytes().replace(b"\n", b"\r\n"))  # the HTML parser drops \r
    page = export_file_to_html(source, tmp_path / "crlf.html").path
    browser.open(page.as_uri())
    assert bytes(browser.evaluate(DOWNLOADED)) == source.read_bytes()


def test_a_hostile_session_runs_no_script_and_loads_nothing(
    tmp_path: Path, browser: DevTools
) -> None:
    source = write_session(tmp_path / "evil.jsonl", hostile_session())
    page = export_file_to_html(source, tmp_path / "evil.html").path
    browser.call("Network.enable")
    browser.open(page.as_uri())
    browser.evaluate("document.querySelectorAll('.tree-row').forEach(r => r.click())")
    browser.evaluate("document.querySelector('[data-filter=\"all\"]').click()")
    browser.evaluate("document.querySelectorAll('.tree-row').forEach(r => r.click())")
    assert browser.evaluate("document.body.getAttribute('data-pwned')") is None
    assert (
        browser.evaluate("document.querySelectorAll('#messages script, #messages iframe').length")
        == 0
    )
    loaded = browser.evaluate("performance.getEntriesByType('resource').map(r => r.name)")
    assert loaded == []


def test_markdown_past_the_budget_is_rendered_by_the_page(
    tmp_path: Path, browser: DevTools, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pi_core.export.markdown as markdown

    monkeypatch.setattr(markdown, "MARKDOWN_BUDGET", 0)
    source = write_session(tmp_path / "session.jsonl", ordinary_session())
    page = export_file_to_html(source, tmp_path / "session.html").path
    assert '<div class="as-written">Please **fix** the bug' in page.read_text()
    browser.open(page.as_uri())
    first = "document.querySelector('#entry-u1 .markdown')"
    assert browser.evaluate(f"{first}.querySelector('strong').textContent") == "fix"
    assert browser.evaluate(f"{first}.querySelector('code').textContent") == "app.py"
    assert browser.evaluate(f"{first}.textContent") == "Please fix the bug in app.py"
    fence = "document.querySelector('#entry-a1 .markdown pre.hl code.language-python')"
    assert browser.evaluate(f"{fence}.textContent") == "def main():\n    return 42\n"
    assert browser.evaluate("document.querySelectorAll('#messages .as-written').length") == 0
    browser.evaluate("document.querySelector('.tree-row[data-id=\"a2\"]').click()")
    cells = "Array.from(document.querySelectorAll('#entry-a2 table td')).map(c => c.textContent)"
    assert browser.evaluate(cells) == ["a", "1"]


def test_a_hostile_session_rendered_by_the_page_runs_no_script_and_loads_nothing(
    tmp_path: Path, browser: DevTools, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pi_core.export.markdown as markdown

    monkeypatch.setattr(markdown, "MARKDOWN_BUDGET", 0)
    test_a_hostile_session_runs_no_script_and_loads_nothing(tmp_path, browser)
    links = "Array.from(document.querySelectorAll('#messages a[href]')).map(a => a.href)"
    assert all(href.startswith(("http", "mailto:", "file:")) for href in browser.evaluate(links))
