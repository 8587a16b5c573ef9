"""Frontmatter splitting and YAML reading, checked against what pi's `yaml` package returns."""

from __future__ import annotations

import math
import subprocess
import sys
from typing import Any

import pytest

from pi_core.resources.frontmatter import (
    FrontmatterError,
    parse_frontmatter,
    strip_frontmatter,
)
from pi_core.resources.yaml_core import YamlError, load_yaml

# --- frontmatter (pi's frontmatter.test.ts cases) -------------------------------------------


def test_keys_quotes_and_body() -> None:
    text = "---\nname: \"skill-name\"\ndescription: 'A desc'\nfoo-bar: value\n---\n\nBody text"
    data, body = parse_frontmatter(text)
    assert data == {"name": "skill-name", "description": "A desc", "foo-bar": "value"}
    assert body == "Body text"


def test_crlf_is_normalized() -> None:
    _data, body = parse_frontmatter("---\r\nname: test\r\n---\r\nLine one\r\nLine two")
    assert body == "Line one\nLine two"


def test_invalid_yaml_names_line_and_column() -> None:
    with pytest.raises(FrontmatterError, match=r"at line 2, column 1 .*at line 1, column 6"):
        parse_frontmatter("---\nfoo: [bar\n---\nBody")


def test_literal_block_keeps_newlines() -> None:
    data, body = parse_frontmatter("---\ndescription: |\n  Line one\n  Line two\n---\n\nBody")
    assert data["description"] == "Line one\nLine two\n"
    assert body == "Body"


def test_missing_or_unterminated_frontmatter_returns_the_text() -> None:
    assert parse_frontmatter("Just text\nsecond line") == ({}, "Just text\nsecond line")
    text = "---\nname: test\nBody without terminator"
    assert parse_frontmatter(text) == ({}, text)


def test_comment_only_or_empty_frontmatter_is_empty() -> None:
    assert parse_frontmatter("---\n# just a comment\n---\nBody")[0] == {}
    assert parse_frontmatter("---\n---\nBody") == ({}, "Body")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("---x\na: 1\n---\nB", ({"a": 1}, "B")),
        ("--- \na: 1\n----\nB", ({"a": 1}, "-\nB")),
        ("---\na: 1\n---more\n  B  ", ({"a": 1}, "more\n  B")),
    ],
)
def test_delimiter_quirks_match_pi(text: str, expected: tuple[dict[str, Any], str]) -> None:
    assert parse_frontmatter(text) == expected


def test_strip_frontmatter() -> None:
    assert strip_frontmatter("---\nkey: value\n---\n\nBody\n") == "Body"
    assert strip_frontmatter("\n  No frontmatter body  \n") == "\n  No frontmatter body  \n"


def test_non_mapping_frontmatter_reads_as_empty() -> None:
    assert parse_frontmatter("---\n- a\n- b\n---\nBody") == ({}, "Body")


# --- YAML: (source, what pi's `yaml` package 2.9.1 parses it to) ----------------------------
# PyYAML implements YAML 1.1; yaml_core sets it to the 1.2 core schema pi uses. These cases pin
# the schema, how keys become JavaScript object keys, and the end-of-input block scalar.

PARSES: list[tuple[str, Any]] = [
    (
        "version: 1.0\nx: 1e3\ny: 0x1f\nz: ~\nw: null\nv: yes\nu: True\nt: FALSE",
        {
            "version": 1.0,
            "x": 1000.0,
            "y": 31,
            "z": None,
            "w": None,
            "v": "yes",
            "u": True,
            "t": False,
        },
    ),
    (
        "a: yes\nb: no\nc: on\nd: off\ne: y\nf: n\ng: Yes\nh: NO",
        {"a": "yes", "b": "no", "c": "on", "d": "off", "e": "y", "f": "n", "g": "Yes", "h": "NO"},
    ),
    (
        "a: true\nb: True\nc: TRUE\nd: tRUE\ne: false",
        {"a": True, "b": True, "c": True, "d": "tRUE", "e": False},
    ),
    ("a: null\nb: Null\nc: NULL\nd: ~\ne:\nf: nULL", dict.fromkeys("abcde") | {"f": "nULL"}),
    (
        "a: 010\nb: 0o10\nc: 0x1F\nd: -0x1F\ne: 0b101\nf: 08\ng: +0o7",
        {"a": 10, "b": 8, "c": 31, "d": "-0x1F", "e": "0b101", "f": 8, "g": "+0o7"},
    ),
    (
        "a: 1_000\nb: 1_000.5\nc: 190:20:30\nd: 1:30.5\ne: 12:30",
        {"a": "1_000", "b": "1_000.5", "c": "190:20:30", "d": "1:30.5", "e": "12:30"},
    ),
    (
        "a: 2001-12-14\nb: 2001-12-14t21:59:43.10-05:00\nc: 2001-12-14 21:59:43.10 -5",
        {"a": "2001-12-14", "b": "2001-12-14t21:59:43.10-05:00", "c": "2001-12-14 21:59:43.10 -5"},
    ),
    (
        "a: 1e3\nb: 1E-2\nc: .5\nd: +.5e2\ne: 1.\nf: -1.5\ng: -1\nh: +2\ni: 685.230_15e+03",
        {
            "a": 1000.0,
            "b": 0.01,
            "c": 0.5,
            "d": 50.0,
            "e": 1.0,
            "f": -1.5,
            "g": -1,
            "h": 2,
            "i": "685.230_15e+03",
        },
    ),
    ("<<: {a: 1}\nb: 2", {"<<": {"a": 1}, "b": 2}),
    ("base: &b {x: 1}\nd:\n  <<: *b\n  y: 2", {"base": {"x": 1}, "d": {"<<": {"x": 1}, "y": 2}}),
    ("a: =", {"a": "="}),
    ("a: !custom x\nb: !thing [1]\nc: !!str 1", {"a": "x", "b": [1], "c": "1"}),
    ("true: 1\n1: 2\nnull: 3", {"true": 1, "1": 2, "": 3}),
    ("a: &anc\n  b: 1\nc: *anc", {"a": {"b": 1}, "c": {"b": 1}}),
    ("a: |2\n    two extra\n  base", {"a": "  two extra\nbase\n"}),
    ("a: |+\n  keep", {"a": "keep\n"}),
    ("a: |+\n  keep\n\n", {"a": "keep\n\n"}),
    ("a: >-\n  one\n  two\n\n\n  three\n    more\n  back", {"a": "one two\n\nthree\n  more\nback"}),
    (
        "url: https://example.com/a?b=c#frag\nb: x#no",
        {"url": "https://example.com/a?b=c#frag", "b": "x#no"},
    ),
    (
        "allowed-tools: Bash(git:*) Read\nemoji: 🎉 café",
        {"allowed-tools": "Bash(git:*) Read", "emoji": "🎉 café"},
    ),
    ("- a\n- b", ["a", "b"]),
    ("just text", "just text"),
    ("", None),
]


@pytest.mark.parametrize(("source", "expected"), PARSES)
def test_yaml_parses_like_pi(source: str, expected: Any) -> None:
    assert load_yaml(source) == expected


def test_yaml_special_floats() -> None:
    parsed = load_yaml("a: .inf\nb: -.Inf\nc: .nan\nd: -.nan")
    assert parsed["a"] == math.inf and parsed["b"] == -math.inf and math.isnan(parsed["c"])
    assert parsed["d"] == "-.nan"


# (source, PyYAML's message, line, column): pi's `yaml` package words these differently.
ERRORS = [
    ("foo: [bar", "Did not find expected ',' or ']'", 2, 1),
    ("a: b: c", "Mapping values are not allowed in this context", 1, 5),
    ("description: Use when: testing", "Mapping values are not allowed", 1, 22),
    ("a: 'x", "Found unexpected end of stream", 2, 1),
    ("a: 1\na: 2", "Map keys must be unique", 2, 1),
    ("null: 1\n~: 2", "Map keys must be unique", 2, 1),
    ("a: 1\n1.0: x\n1: y", "Map keys must be unique", 3, 1),
    ("a:\n  b: 1\n c: 2", "Did not find expected key", 3, 2),
    ("\tname: x", "Found character that cannot start any token", 1, 1),
    ("a: @x", "Found character that cannot start any token", 1, 4),
    ("a: - x", "Block sequence entries are not allowed in this context", 1, 4),
    ("a: *nowhere", "Found undefined alias", 1, 4),
    ('a: "\\q"', "Found unknown escape character", 1, 5),
]


@pytest.mark.parametrize(("source", "message", "line", "column"), ERRORS)
def test_yaml_errors_name_line_and_column(
    source: str, message: str, line: int, column: int
) -> None:
    with pytest.raises(YamlError) as caught:
        load_yaml(source)
    assert str(caught.value).startswith(f"{message}")
    assert f"at line {line}, column {column}" in str(caught.value)


def test_yaml_error_names_where_the_unclosed_construct_started() -> None:
    with pytest.raises(YamlError) as caught:
        load_yaml("name: x\ndescription: [unclosed bracket")
    assert str(caught.value) == (
        "Did not find expected ',' or ']' at line 3, column 1 "
        "(while parsing a flow sequence at line 2, column 14)"
    )


def test_true_and_one_are_different_keys() -> None:
    assert load_yaml("true: a\n1: b") == {"true": "a", "1": "b"}


def test_pyyaml_is_imported_only_for_frontmatter() -> None:
    script = (
        "import sys\n"
        "from pi_core.resources import parse_frontmatter\n"
        "parse_frontmatter('# no frontmatter\\n')\n"
        "print('yaml' in sys.modules)\n"
        "parse_frontmatter('---\\na: 1\\n---\\nbody')\n"
        "print('yaml' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.stdout.split() == ["False", "True"], result.stderr
