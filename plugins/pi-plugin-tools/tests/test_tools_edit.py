"""`edit`: exact then fuzzy matching against the original, pi's errors, endings and BOM kept."""

from __future__ import annotations

from pathlib import Path

from pi_plugin_tools.line_diff import generate_diff_string

from pi_core.tools.inputs import EditToolDetails


def edit_args(path: str, *pairs: tuple[str, str]) -> dict[str, object]:
    return {"path": path, "edits": [{"oldText": o, "newText": n} for o, n in pairs]}


async def test_single_edit_with_diff_details(run, cwd: Path) -> None:
    (cwd / "a.py").write_text("def f():\n    return 1\n")
    outcome = await run("edit", edit_args("a.py", ("return 1", "return 2")))
    assert not outcome.is_error
    assert outcome.result.text_content() == "Successfully replaced 1 block(s) in a.py."
    assert (cwd / "a.py").read_text() == "def f():\n    return 2\n"
    details = outcome.result.details
    assert isinstance(details, EditToolDetails)
    assert details.diff == " 1 def f():\n-2     return 1\n+2     return 2"
    assert details.first_changed_line == 2


async def test_edits_match_the_original_not_each_other(run, cwd: Path) -> None:
    (cwd / "a.txt").write_text("alpha\nbeta\ngamma\n")
    outcome = await run("edit", edit_args("a.txt", ("alpha", "beta"), ("beta", "delta")))
    assert outcome.result.text_content() == "Successfully replaced 2 block(s) in a.txt."
    assert (cwd / "a.txt").read_text() == "beta\ndelta\ngamma\n"


async def test_text_found_twice(run, cwd: Path) -> None:
    (cwd / "a.txt").write_text("x = 1\nx = 1\n")
    outcome = await run("edit", edit_args("a.txt", ("x = 1", "x = 2")))
    assert outcome.is_error
    assert outcome.result.text_content() == (
        "Found 2 occurrences of the text in a.txt; it has to occur once. "
        "Take in more of the surrounding lines so that only one place matches."
    )
    assert (cwd / "a.txt").read_text() == "x = 1\nx = 1\n"


async def test_second_edit_found_twice_is_named(run, cwd: Path) -> None:
    (cwd / "a.txt").write_text("one\ntwo\ntwo\n")
    outcome = await run("edit", edit_args("a.txt", ("one", "1"), ("two", "2")))
    assert outcome.result.text_content() == (
        "Found 2 occurrences of edits[1] in a.txt; every oldText has to occur once. "
        "Take in more of the surrounding lines so that only one place matches."
    )
    assert (cwd / "a.txt").read_text() == "one\ntwo\ntwo\n"


async def test_overlapping_edits(run, cwd: Path) -> None:
    (cwd / "a.txt").write_text("abcdef\n")
    outcome = await run("edit", edit_args("a.txt", ("cdef", "X"), ("abcd", "Y")))
    assert outcome.is_error
    assert outcome.result.text_content() == (
        "edits[1] and edits[0] overlap in a.txt. "
        "Combine them into one edit, or make them cover separate parts of the file."
    )
    assert (cwd / "a.txt").read_text() == "abcdef\n"


async def test_text_not_found_leaves_the_file_untouched(run, cwd: Path) -> None:
    (cwd / "a.txt").write_text("hello\n")
    before = (cwd / "a.txt").stat().st_mtime_ns
    single = await run("edit", edit_args("a.txt", ("goodbye", "x")))
    assert single.result.text_content() == (
        "Could not find the text to replace in a.txt. It has to match character for "
        "character, spaces and line breaks included."
    )
    multiple = await run("edit", edit_args("a.txt", ("hello", "hi"), ("nope", "x")))
    assert multiple.result.text_content() == (
        "Could not find edits[1] in a.txt. Its oldText has to match character for "
        "character, spaces and line breaks included."
    )
    assert (cwd / "a.txt").read_text() == "hello\n"
    assert (cwd / "a.txt").stat().st_mtime_ns == before


async def test_crlf_and_bom_are_preserved(run, cwd: Path) -> None:
    (cwd / "win.txt").write_bytes(b"\xef\xbb\xbfline one\r\nline two\r\n")
    outcome = await run("edit", edit_args("win.txt", ("line one\nline two", "first\nsecond")))
    assert not outcome.is_error
    assert (cwd / "win.txt").read_bytes() == b"\xef\xbb\xbffirst\r\nsecond\r\n"


async def test_fuzzy_match_of_quotes_and_trailing_spaces(run, cwd: Path) -> None:
    (cwd / "q.py").write_text("print(\u201chi\u201d)   \nx = 1\n")
    outcome = await run("edit", edit_args("q.py", ('print("hi")', 'print("bye")')))
    assert not outcome.is_error
    # like pi, a fuzzy match rewrites the file in normalized form
    assert (cwd / "q.py").read_text() == 'print("bye")\nx = 1\n'


async def test_models_quirky_argument_shapes(run, cwd: Path) -> None:
    (cwd / "a.txt").write_text("one two\n")
    legacy = await run("edit", {"path": "a.txt", "oldText": "one", "newText": "1"})
    assert not legacy.is_error
    as_json = await run("edit", {"path": "a.txt", "edits": '[{"oldText": "two", "newText": "2"}]'})
    assert not as_json.is_error
    assert (cwd / "a.txt").read_text() == "1 2\n"


async def test_empty_and_invalid_input(run, cwd: Path) -> None:
    (cwd / "a.txt").write_text("x")
    none = await run("edit", {"path": "a.txt", "edits": []})
    assert none.result.text_content() == (
        "Invalid edit arguments: edits needs at least one replacement."
    )
    empty = await run("edit", edit_args("a.txt", ("", "y")))
    assert empty.result.text_content() == "oldText must not be empty in a.txt."
    same = await run("edit", edit_args("a.txt", ("x", "x")))
    assert same.result.text_content().startswith("No changes made to a.txt: the new text equals")


async def test_missing_file(run) -> None:
    outcome = await run("edit", edit_args("gone.txt", ("a", "b")))
    assert outcome.is_error
    assert outcome.result.text_content() == "Could not edit file: gone.txt. Error code: ENOENT."


async def test_bytes_that_are_not_utf8_survive(run, cwd: Path) -> None:
    (cwd / "mixed.txt").write_bytes(b"caf\xe9\nkeep me\n")
    outcome = await run("edit", edit_args("mixed.txt", ("keep me", "kept")))
    assert not outcome.is_error
    assert (cwd / "mixed.txt").read_bytes() == b"caf\xe9\nkept\n"


async def test_path_outside_the_cwd(run, tmp_path: Path) -> None:
    target = tmp_path / "other.txt"
    target.write_text("a")
    outcome = await run("edit", edit_args(str(target), ("a", "b")))
    assert outcome.result.text_content() == f"Successfully replaced 1 block(s) in {target}."
    assert target.read_text() == "b"


def test_diff_elides_unchanged_stretches() -> None:
    old = "\n".join(f"l{i}" for i in range(1, 21))
    new = old.replace("l10", "L10")
    diff, first = generate_diff_string(old, new)
    assert first == 10
    assert diff.split("\n") == [
        "    ...",
        "  6 l6",
        "  7 l7",
        "  8 l8",
        "  9 l9",
        "-10 l10",
        "+10 L10",
        " 11 l11",
        " 12 l12",
        " 13 l13",
        " 14 l14",
        "    ...",
    ]
