"""Frontmatter splitting and the YAML subset, checked against what pi's `yaml` package returns."""

from __future__ import annotations

import math
from typing import Any

import pytest

from pi_core.resources.frontmatter import (
    FrontmatterError,
    js_trim,
    parse_frontmatter,
    strip_frontmatter,
)
from pi_core.resources.yaml_subset import YamlError, parse_yaml

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
    with pytest.raises(FrontmatterError, match="at line 1, column 10"):
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


def test_js_trim_matches_javascript() -> None:
    assert js_trim("\ufeff\u00a0 text \u3000\n") == "text"
    assert js_trim("\x1ctext\x85") == "\x1ctext\x85"  # Python's strip() would remove these


# --- the YAML subset: (source, what the `yaml` package 2.x parses it to) --------------------

PARSES: list[tuple[str, Any]] = [
    ("- a\n- b", ["a", "b"]),
    ("just text", "just text"),
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
    ("a: {b: 1, c: [1, 2]}", {"a": {"b": 1, "c": [1, 2]}}),
    ("a: |-\n  x\n  y\n\nb: >\n  f\n  g\n\n  h\n", {"a": "x\ny", "b": "f g\nh\n"}),
    ("a: plain\n  continued\n  more", {"a": "plain continued more"}),
    ("a: # comment\nb: 'it''s'\nc: \"q\\n\\\"x\\u00e9\"", {"a": None, "b": "it's", "c": 'q\n"xé'}),
    ('key with space: v\n"quoted key": w', {"key with space": "v", "quoted key": "w"}),
    ("a: x # trailing\nb: x#nocomment", {"a": "x", "b": "x#nocomment"}),
    ("a:\n  - 1\n  - two\nb:\n- c", {"a": [1, "two"], "b": ["c"]}),
    ("a: '' \nb: \"\"", {"a": "", "b": ""}),
    ("a: &x 1\nb: *x", {"a": 1, "b": 1}),
    ("a: !!str 1", {"a": "1"}),
    ("metadata:\n  author: me\n  tags: [a, b]", {"metadata": {"author": "me", "tags": ["a", "b"]}}),
    ("a: 'multi\n  line'\nb: 2", {"a": "multi line", "b": 2}),
    ('a: "multi\n  line\n\n  para"', {"a": "multi line\npara"}),
    ("a: >-\n  one\n  two\n\n\n  three\n    more\n  back", {"a": "one two\n\nthree\n  more\nback"}),
    ("a: |+\n  keep\n\n", {"a": "keep\n\n"}),
    ("a: |2\n    two extra\n  base", {"a": "  two extra\nbase\n"}),
    (
        "list:\n  - name: x\n    value: 1\n  - name: y",
        {"list": [{"name": "x", "value": 1}, {"name": "y"}]},
    ),
    ("- - a\n  - b\n- c", [["a", "b"], "c"]),
    ("a:\n  - b:\n      c: 1", {"a": [{"b": {"c": 1}}]}),
    ("a: [1, [2, 3], {k: v}]", {"a": [1, [2, 3], {"k": "v"}]}),
    ("a: {x: 1,\n  y: 2}", {"a": {"x": 1, "y": 2}}),
    ("a: [a, b,]", {"a": ["a", "b"]}),
    ("a: [\n  1,\n  2\n]", {"a": [1, 2]}),
    ("a: -1\nb: +2\nc: .5\nd: 1.\ne: 0o17", {"a": -1, "b": 2, "c": 0.5, "d": 1.0, "e": 15}),
    ("a: 12:30", {"a": "12:30"}),
    ("url: https://example.com/a?b=c#frag", {"url": "https://example.com/a?b=c#frag"}),
    ("description: Use when: testing", None),  # an error, see ERRORS
    ("a: '#notcomment'", {"a": "#notcomment"}),
    ("allowed-tools: Bash(git:*) Read", {"allowed-tools": "Bash(git:*) Read"}),
    ("a: -x", {"a": "-x"}),
    ("- a: 1\n  b: 2\n- c: 3", [{"a": 1, "b": 2}, {"c": 3}]),
    ('a: "\\x41\\U0001F600"', {"a": "A😀"}),
    ("emoji: 🎉 café", {"emoji": "🎉 café"}),
    ("a:\n\n  b: 1", {"a": {"b": 1}}),
    (
        "nested:\n  deeper:\n    deepest: true\n  back: 1",
        {"nested": {"deeper": {"deepest": True}, "back": 1}},
    ),
    ("x: y\n ", {"x": "y"}),
    ("a: &anc\n  b: 1\nc: *anc", {"a": {"b": 1}, "c": {"b": 1}}),
    ("\"a\": 1\n'b': 2", {"a": 1, "b": 2}),
    ("true: 1\n1: 2\nnull: 3", {"true": 1, "1": 2, "": 3}),
    ("", None),
]


@pytest.mark.parametrize(("source", "expected"), [c for c in PARSES if c[1] is not None])
def test_yaml_subset_parses_like_pi(source: str, expected: Any) -> None:
    assert parse_yaml(source) == expected


def test_yaml_special_floats() -> None:
    parsed = parse_yaml("a: .inf\nb: -.Inf\nc: .nan")
    assert parsed["a"] == math.inf and parsed["b"] == -math.inf and math.isnan(parsed["c"])


# (source, message start, line, column) — positions as the `yaml` package reports them.
ERRORS = [
    ("foo: [bar", "Flow sequence in block collection", 1, 10),
    ("name: invalid-yaml\ndescription: [unclosed bracket", "Flow sequence", 2, 31),
    ("a: b: c", "Nested mappings are not allowed in compact mappings", 1, 4),
    ("description: A skill: with colon", "Nested mappings", 1, 14),
    ("a: 'x", "Missing closing 'quote", 1, 6),
    ('a: "x', 'Missing closing "quote', 1, 6),
    ("a: 1\na: 2", "Map keys must be unique", 2, 1),
    ("a:\n  b: 1\n c: 2", "All mapping items must start at the same column", 3, 1),
    ("\tname: x", "Tabs are not allowed as indentation", 1, 1),
    ("a: @x", "Plain value cannot start with reserved character @", 1, 4),
    ("a: `x", "Plain value cannot start with reserved character `", 1, 4),
    ("a: [unclosed\nb: 2", "Flow sequence", 2, 1),
    ("a: |\n    indented more\n  less", "All mapping items must start at the same column", 3, 1),
    ("a: - x", "Unexpected block-seq-ind on same line with key", 1, 4),
]


@pytest.mark.parametrize(("source", "message", "line", "column"), ERRORS)
def test_yaml_errors_name_line_and_column(
    source: str, message: str, line: int, column: int
) -> None:
    with pytest.raises(YamlError) as caught:
        parse_yaml(source)
    assert str(caught.value).startswith(message)
    assert (caught.value.line, caught.value.column) == (line, column)
    assert str(caught.value).endswith(f"at line {line}, column {column}")


def test_unsupported_yaml_is_an_error_not_a_guess() -> None:
    with pytest.raises(YamlError, match="Explicit keys"):
        parse_yaml("? complex\n: value")
    with pytest.raises(YamlError, match="Unresolved alias"):
        parse_yaml("a: *nowhere")
