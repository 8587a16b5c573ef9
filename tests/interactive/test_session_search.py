"""The resume picker's search and ordering, on SessionInfo values (no terminal)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from pi_core.modes.interactive.selectors.sessions import order, search
from pi_core.session.listing import SessionInfo

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def info(name: str | None, text: str, age: int, parent: str | None = None) -> SessionInfo:
    path = Path(f"/s/{text.split()[0]}-{age}.jsonl")
    return SessionInfo(path, text, "/p", name, parent, NOW, NOW - timedelta(minutes=age), 2,
                       text, text)  # fmt: skip


def test_words_phrases_and_regex() -> None:
    sessions = [info(None, "red apples and pears", 1), info("fruit", "green pears", 2)]
    assert [i.first_message for i, _ in search(sessions, "pears apples")] == [
        "red apples and pears"
    ]
    assert [i.first_message for i, _ in search(sessions, '"green pears"')] == ["green pears"]
    assert search(sessions, '"pears green"') == []
    assert [i.name for i, _ in search(sessions, "re:^gr")] == ["fruit"]
    assert search(sessions, "re:(") == []  # a broken pattern matches nothing
    assert len(search(sessions, "  ")) == 2


def test_relevance_prefers_name_hits_and_threaded_nests_forks() -> None:
    parent = info(None, "pears in text", 5)
    fork = info(None, "fork of pears", 1, parent=str(parent.path))
    named = info("pears", "other", 3)
    found = search([parent, fork, named], "pears")
    assert order(found, "relevance")[0][0] is named
    assert [i.first_message for i, _ in order(found, "recent")] == [
        "fork of pears", "other", "pears in text"
    ]  # fmt: skip
    threaded = order(found, "threaded")
    assert [(i.first_message, depth) for i, depth in threaded] == [
        ("other", 0), ("pears in text", 0), ("fork of pears", 1)
    ]  # fmt: skip
