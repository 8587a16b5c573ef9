"""Enter and Tab with the completion menu open take the highlighted entry (pi's editor): after a
`/command` name Enter runs the command; after `@file` it completes the mention; nothing
half-typed reaches the model."""

from __future__ import annotations

from pi_core.testing import chat_stream
from tests.interactive.conftest import Screen, editor_lines


def row_styles(screen: Screen, *names: str) -> list[str]:
    """The escape sequences that start each named menu row (how the row is drawn)."""
    lines = screen.styled().splitlines()
    return [next(line for line in lines if f" {n} " in line).split(f" {n} ")[0] for n in names]


def test_the_menu_opens_with_its_first_entry_highlighted(screen: Screen) -> None:
    screen.start()
    screen.ready()
    screen.type("/se")
    shown = screen.wait_for("/session")
    assert shown.index("/settings") < shown.index("/session")  # the first entry (pi's order)
    first, second = row_styles(screen, "/settings", "/session")
    assert first != second
    screen.keys("Down")
    screen.wait_for(lambda _: row_styles(screen, "/settings", "/session") == [second, first])


def test_enter_on_a_half_typed_command_runs_the_command_and_sends_nothing(
    screen: Screen,
) -> None:
    screen.start()
    screen.ready()
    screen.type("/sess")
    screen.wait_for("Show session info")  # the menu is open
    screen.keys("Enter")
    screen.wait_for("Session Info")
    screen.wait_for(lambda s: editor_lines(s) == [""])
    screen.type("/session")  # typed in full, the menu still open: Enter runs it too
    screen.wait_for("Show session info")
    screen.keys("Enter")
    screen.wait_for(lambda s: s.count("Session Info") == 2)
    assert screen.server.requests == []


def test_enter_on_a_half_typed_mention_completes_it_and_sends_nothing(screen: Screen) -> None:
    (screen.cwd / "needle.txt").write_text("the needle\n")
    screen.server.queue(chat_stream("found it"))
    screen.start()
    screen.ready()
    screen.type("look at @need")
    screen.wait_for(lambda s: "needle.txt" in s and "look at @need" in s)
    screen.keys("Enter")
    screen.wait_for(lambda s: editor_lines(s) == ["look at @needle.txt"])
    assert screen.server.requests == []
    screen.type("please")
    screen.keys("Enter")  # no menu now: Enter sends
    screen.wait_for("found it")
    sent = str(screen.server.requests[-1].json()["messages"])
    assert "look at @needle.txt please" in sent


def test_tab_takes_the_highlighted_command_and_closes_the_menu(screen: Screen) -> None:
    screen.server.queue(chat_stream("plain prompt answered"), chat_stream("sent as typed"))
    screen.start()
    screen.ready()
    screen.type("/sess")
    screen.wait_for("Show session info")
    screen.keys("Tab")
    screen.wait_for(lambda s: editor_lines(s) == ["/session"] and "Show session info" not in s)
    screen.keys("Enter")  # one Enter: the menu is closed, the command runs
    screen.wait_for("Session Info")
    screen.type("/zzqq")  # no command matches: Enter sends the text as before
    screen.keys("Enter")
    screen.wait_for("plain prompt answered")
    assert "/zzqq" in str(screen.server.requests[-1].json()["messages"])
    screen.type("/sess")  # Esc closes the menu: Enter then sends the text as typed, as in pi
    screen.wait_for("Show session info")
    screen.keys("Escape")
    screen.wait_for(lambda s: "Show session info" not in s)
    screen.keys("Enter")
    screen.wait_for("sent as typed")
    assert "/sess" in str(screen.server.requests[-1].json()["messages"])


def test_the_menu_comes_back_after_backspace_and_enter_takes_it(screen: Screen) -> None:
    screen.start()
    screen.ready()
    screen.type("/sessz")  # a typo: nothing matches, no menu
    screen.wait_for(lambda s: editor_lines(s) == ["/sessz"] and "Show session info" not in s)
    screen.keys("BSpace")
    screen.wait_for("Show session info")
    screen.keys("Enter")
    screen.wait_for("Session Info")
    assert screen.server.requests == []
