"""pi's markdown layout, block by block, and when links are made clickable."""

from __future__ import annotations

from pi_core.modes.interactive.hyperlinks import supports_hyperlinks
from pi_core.modes.interactive.markdown_view import MarkdownOptions, markdown_lines
from pi_core.modes.interactive.rendering import markdown, render_ansi, strip_ansi


def rows(source: str, width: int = 40) -> list[str]:
    lines = markdown_lines(source, width, MarkdownOptions())
    return [line.plain.rstrip() for line in lines]


def test_osc_8_only_on_known_terminals_and_never_in_tmux_or_screen() -> None:
    assert supports_hyperlinks({"TERM_PROGRAM": "kitty"})
    assert supports_hyperlinks({"WEZTERM_PANE": "3"})
    assert supports_hyperlinks({"TERM": "xterm-ghostty"})
    assert not supports_hyperlinks({"TERM_PROGRAM": "kitty", "TMUX": "/tmp/tmux-1/default,1,0"})
    assert not supports_hyperlinks({"TERM_PROGRAM": "iTerm.app", "TERM": "screen-256color"})
    assert not supports_hyperlinks({"TERM": "xterm-256color"})
    assert not supports_hyperlinks({})


def test_a_link_names_its_url_unless_the_text_is_the_url() -> None:
    assert rows("[docs](https://ex.com/d)") == ["docs (https://ex.com/d)"]
    assert rows("<https://ex.com/d>") == ["https://ex.com/d"]
    assert rows("<me@ex.com>") == ["me@ex.com"]


def test_osc_8_is_added_only_when_asked_and_the_url_stays_visible() -> None:
    plain = render_ansi(markdown("[docs](https://ex.com/d)"), 40)
    linked = render_ansi(
        markdown("[docs](https://ex.com/d)", options=MarkdownOptions(hyperlinks=True)), 40
    )
    assert "\x1b]8;" not in plain
    assert "\x1b]8;" in linked and strip_ansi(linked).strip() == "docs (https://ex.com/d)"


def test_blocks_are_spaced_as_pi_spaces_them() -> None:
    source = "Para\n- a\n- b\n\n# One\nText\n```\ncode\n```\nAfter\n\n\n\nFar"
    assert rows(source) == ["Para", "- a", "- b", "", "One", "", "Text", "", "```", "  code",
                            "```", "", "After", "", "Far"]  # fmt: skip


def test_headings_from_level_three_keep_their_marks() -> None:
    assert rows("## Two\n\n### Three") == ["Two", "", "### Three"]


def test_a_table_too_narrow_for_its_borders_shows_its_source() -> None:
    source = "| a | b | c | d |\n|---|---|---|---|\n| 1 | 2 | 3 | 4 |"
    shown = rows(source, width=12)
    assert not any("┌" in row for row in shown)
    assert "".join(shown).replace(" ", "") == source.replace("\n", "").replace(" ", "")


def test_the_theme_colours_headings_links_and_bullets() -> None:
    options = MarkdownOptions(colours={"mdHeading": "#ff0000", "mdListBullet": "#00ff00"})
    drawn = render_ansi(markdown("# Title\n\n- item", options=options), 40)
    assert "38;2;255;0;0" in drawn and "38;2;0;255;0" in drawn
    assert "38;2;255;0;0" not in render_ansi(markdown("# Title"), 40)
