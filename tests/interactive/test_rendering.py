"""Streaming markdown, tool views, the footer's figures, paste markers and the file index."""

from __future__ import annotations

from pathlib import Path

from pi_core.modes.interactive.editor import PasteStore, history_path, strip_continuation
from pi_core.modes.interactive.files import path_rank, project_files, search
from pi_core.modes.interactive.footer import format_tokens, git_branch, home_relative
from pi_core.modes.interactive.rendering import (
    MarkdownStream,
    render_ansi,
    stable_split,
    strip_ansi,
)
from pi_core.modes.interactive.theme import Theme
from pi_core.modes.interactive.tool_views import ToolView, result_text
from pi_core.tools.tool import ToolResult


def stream_in_pieces(text: str, piece: int, width: int = 60) -> tuple[list[str], MarkdownStream]:
    stream = MarkdownStream()
    committed: list[str] = []
    for end in range(piece, len(text) + piece, piece):
        stream.feed(text[:end])
        out = stream.take_stable(width)
        if out:
            committed += strip_ansi(out).split("\n")
    rest = stream.finish(width)
    if rest:
        committed += strip_ansi(rest).split("\n")
    return committed, stream


def test_stable_split_stops_at_the_last_blank_line_outside_a_fence() -> None:
    assert stable_split("one\n\ntwo") == len("one\n\n")
    assert stable_split("```\ncode\n\nmore\n") == 0
    assert stable_split("```\ncode\n```\nafter") == len("```\ncode\n```\n")
    assert stable_split("no boundary yet") == 0


def test_streaming_in_pieces_prints_the_same_lines_as_rendering_at_once() -> None:
    text = ("# Title\n\n" + "A long paragraph of words that wraps. " * 12 + "\n\n- one\n- two\n\n"
            "```python\nprint('x')\n```\n\nThe end.")  # fmt: skip
    one_go = MarkdownStream()
    one_go.feed(text)
    whole = strip_ansi(one_go.finish(60) or "")
    committed, _ = stream_in_pieces(text, 7)
    assert [line.rstrip() for line in committed if line.strip()] == [
        line.rstrip() for line in whole.split("\n") if line.strip()
    ]


def test_a_long_paragraph_is_committed_while_it_streams_except_its_tail() -> None:
    stream = MarkdownStream(live_lines=3)
    stream.feed("word " * 200)
    out = strip_ansi(stream.take_stable(40) or "").split("\n")
    tail = strip_ansi(stream.tail(40)).split("\n")
    assert len(tail) == 3
    assert len(out) > 10
    stream.feed("word " * 200 + "final")
    rest = strip_ansi(stream.finish(40) or "")
    assert rest.rstrip().endswith("final")
    assert len(rest.split("\n")) <= 4


def test_a_huge_paragraph_is_cut_so_each_frame_stays_small() -> None:
    text = "word " * 40_000 + "LAST"
    committed, stream = stream_in_pieces(text, 5_000, width=80)
    words = " ".join(committed).split()
    assert words.count("word") == 40_000 and words[-1] == "LAST"
    assert len(stream._cache[0]) <= 4_000 + 10


def test_a_huge_code_block_is_cut_and_its_fence_reopened() -> None:
    text = "```python\n" + "x = 1\n" * 3_000 + "```\n\nafter"
    committed, _ = stream_in_pieces(text, 1_000, width=80)
    code_lines = [line for line in committed if line.strip() == "x = 1"]
    assert len(code_lines) == 3_000
    fences = [line.strip() for line in committed if line.strip().startswith("```")]
    assert fences == ["```python", "```"]  # shown once, not at each cut
    assert committed[-1].strip() == "after"


def test_render_without_colour_writes_no_escape_codes() -> None:
    assert "\x1b" not in render_ansi("**plain**", 40, color=False)


class ExplodingTool:
    name = "boom"

    def render_call(self, args: object, theme: object) -> object:
        raise ValueError("bad view")

    def render_result(self, result: object, options: object, theme: object) -> object:
        return None


def test_a_tool_view_falls_back_and_reports_a_failing_renderer_once() -> None:
    reports: list[str] = []
    view = ToolView("1", "boom", ExplodingTool(), Theme(color=False),
                    lambda what, error: reports.append(f"{what}: {error}"))  # fmt: skip
    view.start({"x": 1})
    first = view.render(60, expanded=False)
    view.finish(ToolResult.text("line\n" * 15), is_error=False)
    collapsed = view.render(60, expanded=False)
    expanded = view.render(60, expanded=True)
    assert reports == ["boom.render_call: bad view"]
    assert 'boom {"x": 1}' in first
    assert "5 more lines, ctrl+o to expand" in collapsed
    assert "more lines" not in expanded


def test_result_text_strips_control_codes_and_names_images() -> None:
    data = {"content": [{"type": "text", "text": "\x1b[31mred\x1b[0m\r\nok\x07"}]}
    assert result_text(data) == "red\nok\u2407"  # the bell shown as its control picture


def test_token_counts_are_formatted_like_pi() -> None:
    assert [format_tokens(n) for n in (999, 1234, 12345, 123456, 1234567, 12345678)] == [
        "999", "1.2k", "12k", "123k", "1.2M", "12M"
    ]  # fmt: skip


def test_home_is_shown_as_a_tilde(monkeypatch: object, tmp_path: Path) -> None:
    import os

    assert home_relative(os.path.expanduser("~") + "/x") == "~/x"
    assert home_relative("/elsewhere") == "/elsewhere"


def test_git_branch_is_read_from_head(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "HEAD").write_text("ref: refs/heads/feature/x\n")
    (tmp_path / "sub").mkdir()
    assert git_branch(str(tmp_path / "sub")) == "feature/x"


def test_paste_markers_round_trip_and_unknown_markers_stay() -> None:
    store = PasteStore()
    marker = store.insert_text("x\n" * 20)
    assert marker == "[paste #1 +21 lines]"
    long_line = store.insert_text("y" * 1500)
    assert long_line == "[paste #2 1500 chars]"
    assert (
        store.expand(f"a {marker} b [paste #9 +3 lines]")
        == "a " + "x\n" * 20 + " b [paste #9 +3 lines]"
    )
    assert store.marker_before(f"a {marker}", len(f"a {marker}")) == (2, 2 + len(marker))


def test_backslash_before_the_cursor_means_a_new_line() -> None:
    assert strip_continuation("one\\", 4) == ("one\n", 4)
    assert strip_continuation("one", 3) is None


def test_history_files_are_per_project(tmp_path: Path) -> None:
    assert history_path(tmp_path, "/a/project") != history_path(tmp_path, "/b/project")


def test_project_files_honour_gitignore_and_skip_dot_git(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "config").write_text("")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text("")
    (tmp_path / "src" / "app.pyc").write_text("")
    (tmp_path / "dist").mkdir()
    (tmp_path / "dist" / "out.js").write_text("")
    (tmp_path / "keep.log").write_text("")
    (tmp_path / "drop.log").write_text("")
    (tmp_path / ".gitignore").write_text("*.pyc\n/dist/\n*.log\n!keep.log\n")
    files = project_files(tmp_path)
    assert "src/app.py" in files and "src/" in files and "keep.log" in files
    assert not any(
        f.startswith((".git/", "dist")) or f.endswith((".pyc", "drop.log")) for f in files
    )


def test_fuzzy_search_prefers_exact_then_prefix_then_substring() -> None:
    files = ["a/widget.py", "b/widget_factory.py", "c/my_widget.py", "d/w_i_d.py"]
    assert search(files, "widget.py")[0] == "a/widget.py"
    # prefix (shorter first), then substring; as in pi, letters merely in order do not match
    assert search(files, "widget") == ["a/widget.py", "b/widget_factory.py", "c/my_widget.py"]
    assert path_rank("wid", "d/w_i_d.py") is None
    assert path_rank("zzz", "a/widget.py") is None


def test_streaming_in_any_pieces_gives_the_rows_of_the_whole_blank_rows_included() -> None:
    text = ("Intro line\nsecond line\n\n## Heading\nBody under it.\n\n- a\n\n- b\n  more b\n\n"
            "1. one\n2. two\n\n```python\nx = 1\n\ny = 2\n```\nAfter the fence.\n\n"
            "| k | v |\n|---|---|\n| 1 | 2 |\n\n> quoted\n\nThe end.")  # fmt: skip
    whole = MarkdownStream()
    whole.feed(text)
    expected = [line.rstrip() for line in strip_ansi(whole.finish(60) or "").split("\n")]
    assert "" in expected
    for piece in (1, 2, 3, 5, 8, 13, 40):
        committed, _ = stream_in_pieces(text, piece)
        assert [line.rstrip() for line in committed] == expected, piece
