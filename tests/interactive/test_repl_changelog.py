"""`/changelog` prints the project's CHANGELOG.md; after an upgrade the new entries show once."""

from __future__ import annotations

import json
from pathlib import Path

from pi_core._version import __version__
from tests.interactive.conftest import Screen, stripped_lines

CHANGELOG = (Path(__file__).resolve().parents[2] / "CHANGELOG.md").read_text()


def set_settings(screen: Screen, **values: object) -> None:
    path = screen.agent_dir / "settings.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), **values}))


def saved_settings(screen: Screen) -> dict[str, object]:
    return dict(json.loads((screen.agent_dir / "settings.json").read_text()))


def test_changelog_prints_every_entry_oldest_first(screen: Screen) -> None:
    set_settings(screen, lastChangelogVersion=__version__)
    screen.start()
    screen.ready()
    screen.type("/changelog")
    screen.keys("Enter")
    # the whole changelog is longer than a screen and the default 200 lines of history
    screen.wait_for(lambda _visible: "[Unreleased]" in screen.text(history=2000))
    shown = screen.text(history=2000)
    assert "What's New" in shown
    lines = stripped_lines(shown)
    released = next(i for i, line in enumerate(lines) if line.endswith(f"[{__version__}]"))
    unreleased = next(i for i, line in enumerate(lines) if line.endswith("[Unreleased]"))
    assert released < unreleased  # the newest entry is printed last, next to the editor
    assert "Keep a Changelog" not in shown  # the preamble is no entry
    assert "Benchmarks side by side with pi 0.73.1" in " ".join(lines)


def test_whats_new_shows_once_after_an_upgrade(screen: Screen) -> None:
    set_settings(screen, lastChangelogVersion="0.0.1")
    screen.start()
    shown = screen.ready()
    assert "What's New" in shown and f"[{__version__}]" in shown
    assert "[Unreleased]" not in shown
    assert saved_settings(screen)["lastChangelogVersion"] == __version__
    screen.type("/quit")
    screen.keys("Enter")
    screen.wait_for("EXIT=0")
    screen.close()
    screen.start()
    assert "What's New" not in screen.ready()


def test_first_run_records_the_version_and_collapsed_says_one_line(screen: Screen) -> None:
    screen.start()
    assert "What's New" not in screen.ready()
    assert saved_settings(screen)["lastChangelogVersion"] == __version__
    screen.type("/quit")
    screen.keys("Enter")
    screen.wait_for("EXIT=0")
    screen.close()
    set_settings(screen, lastChangelogVersion="0.0.1", collapseChangelog=True)
    screen.start()
    shown = screen.ready()
    assert f"Updated to v{__version__}. Use /changelog to view full changelog." in shown
    assert "What's New" not in shown
