"""Prompt templates: argument splitting, placeholder substitution (pi's cases), loading."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from pi_core.resources.prompt_templates import (
    expand_prompt_template,
    load_prompt_templates,
    load_template_file,
    load_templates_from_dir,
    parse_command_args,
    substitute_args,
)

Write = Callable[[Path, str], Path]

# (template, args, result) — pi's prompt-templates.test.ts cases plus JavaScript quirks,
# checked against pi 0.73.1's substituteArgs.
SUBSTITUTIONS: list[tuple[str, list[str], str]] = [
    ("Test: $ARGUMENTS", ["a", "b", "c"], "Test: a b c"),
    ("Test: $@", ["a", "b", "c"], "Test: a b c"),
    ("$ARGUMENTS", ["$1", "$ARGUMENTS"], "$1 $ARGUMENTS"),
    ("$@", ["$100", "$1"], "$100 $1"),
    ("$1: $ARGUMENTS", ["prefix", "a", "b"], "prefix: prefix a b"),
    ("Test: $ARGUMENTS", [], "Test: "),
    ("Test: $1", [], "Test: "),
    ("$ARGUMENTS and $@", ["a", "b"], "a b and a b"),
    ("$1 $2: $ARGUMENTS", ["arg100", "@user"], "arg100 @user: arg100 @user"),
    ("$1 $2 $3 $4 $5", ["a", "b"], "a b   "),
    ("$ARGUMENTS", ["日本語", "🎉", "café"], "日本語 🎉 café"),
    ("$1 $2", ["line1\nline2", "tab\tthere"], "line1\nline2 tab\tthere"),
    ("$1$2", ["a", "b"], "ab"),
    ("$0", ["a", "b"], ""),
    ("$1.5", ["a"], "a.5"),
    ("pre$ARGUMENTS", ["a", "b"], "prea b"),
    ("$ARGUMENTS", ["a", "", "c"], "a  c"),
    ("$A $$ $ $ARGS", ["a"], "$A $$ $ $ARGS"),
    ("$arguments $Arguments $ARGUMENTS", ["a", "b"], "$arguments $Arguments a b"),
    ("$10 $12 $15", [f"val{i}" for i in range(15)], "val9 val11 val14"),
    ("Price: \\$100", [], "Price: \\"),
    ("${@:2}", ["a", "b", "c", "d"], "b c d"),
    ("${@:2:2}", ["a", "b", "c", "d"], "b c"),
    ("${@:99}", ["a", "b"], ""),
    ("${@:2:0}", ["a", "b", "c"], ""),
    ("${@:2:99}", ["a", "b", "c"], "b c"),
    ("${@:2} vs $@", ["a", "b", "c"], "b c vs a b c"),
    ("${@:1}", ["${@:2}", "test"], "${@:2} test"),
    ("${@:0}", ["a", "b", "c"], "a b c"),
    ("prefix${@:2}suffix", ["a", "b", "c"], "prefixb csuffix"),
    (
        "Run $1 on ${@:2:2}, then process $@",
        ["eslint", "f1", "f2", "f3"],
        "Run eslint on f1 f2, then process eslint f1 f2 f3",
    ),
    # JavaScript quirks pi inherits (verified with node):
    ("x $@ y", ["a$$b", "$&", "$`", "$'"], "x a$b $@ x   y y"),
    ("pre $ARGUMENTS post", ["$`|$'|$&|$$|$1|$<n>"], "pre pre | post|$ARGUMENTS|$|$1|$<n> post"),
    ("$1 ${@:1}", ["${@:2}", "z"], "z ${@:2} z"),
    ("$99999999999999999999 $0 $01 $10", ["a", "b"], "  a "),
    ("${@:0:2} ${@:1:0} ${@:3:1}", ["a", "b", "c"], "a b  c"),
    ("$1$2$3", ["$2", "$3", "x"], "$2$3x"),
]


@pytest.mark.parametrize(("template", "args", "expected"), SUBSTITUTIONS)
def test_substitute_args(template: str, args: list[str], expected: str) -> None:
    assert substitute_args(template, args) == expected


PARSES: list[tuple[str, list[str]]] = [
    ("a b c", ["a", "b", "c"]),
    ('"first arg" second', ["first arg", "second"]),
    ("'first arg' second", ["first arg", "second"]),
    ('"double" \'single\' "double again"', ["double", "single", "double again"]),
    ("", []),
    ("a  b   c", ["a", "b", "c"]),
    ("a\tb\tc", ["a", "b", "c"]),
    ('"" " "', [" "]),
    ("$100 @user #tag", ["$100", "@user", "#tag"]),
    ('"line1\nline2" second', ["line1\nline2", "second"]),
    ('"quoted \\"text\\""', ["quoted \\text\\"]),
    ("   a b c   ", ["a", "b", "c"]),
    ('it\'s "x y"', ['its "x y"']),
    ('"unterminated arg', ["unterminated arg"]),
    ("a\nb c", ["a\nb", "c"]),
    ("a'b'c", ["abc"]),
]


@pytest.mark.parametrize(("text", "expected"), PARSES)
def test_parse_command_args(text: str, expected: list[str]) -> None:
    assert parse_command_args(text) == expected


def test_readme_example() -> None:
    args = parse_command_args('Button "onClick handler" "disabled support"')
    assert substitute_args("Create component $1 with features: $ARGUMENTS", args) == (
        "Create component Button with features: Button onClick handler disabled support"
    )


def test_description_from_frontmatter_or_first_line(tmp_path: Path, write: Write) -> None:
    a = write(
        tmp_path / "review.md",
        '---\ndescription: Review staged changes\nargument-hint: "<PR-URL>"\n---\nReview $1\n',
    )
    template, diagnostics = load_template_file(str(a))
    assert diagnostics == [] and template is not None
    assert (template.name, template.description, template.argument_hint, template.content) == (
        "review",
        "Review staged changes",
        "<PR-URL>",
        "Review $1",
    )
    b = write(tmp_path / "plain.md", "\n\n   \nFirst line here\nsecond\n")
    template, _ = load_template_file(str(b))
    assert template is not None and template.description == "First line here"
    assert template.content == "\n\n   \nFirst line here\nsecond\n"  # no frontmatter: untrimmed
    c = write(tmp_path / "long.md", "x" * 61)
    template, _ = load_template_file(str(c))
    assert template is not None and template.description == "x" * 60 + "..."
    d = write(tmp_path / "sixty.md", "y" * 60)
    template, _ = load_template_file(str(d))
    assert template is not None and template.description == "y" * 60
    e = write(tmp_path / "empty.md", "")
    template, _ = load_template_file(str(e))
    assert template is not None and (template.description, template.content) == ("", "")


def test_invalid_frontmatter_is_reported_not_loaded(tmp_path: Path, write: Write) -> None:
    path = write(tmp_path / "bad.md", "---\ndescription: [oops\n---\nBody")
    template, diagnostics = load_template_file(str(path))
    assert template is None
    assert diagnostics[0].path == str(path) and "at line 1, column 14" in diagnostics[0].message


def test_folder_loading_is_not_recursive(tmp_path: Path, write: Write) -> None:
    write(tmp_path / "prompts" / "a.md", "A")
    write(tmp_path / "prompts" / "notes.txt", "not a template")
    write(tmp_path / "prompts" / "sub" / "b.md", "B")
    assert [t.name for t in load_templates_from_dir(str(tmp_path / "prompts")).prompts] == ["a"]


def test_collisions_first_wins(tmp_path: Path, write: Write) -> None:
    first = write(tmp_path / "one" / "commit.md", "First")
    second = write(tmp_path / "two" / "commit.md", "Second")
    result = load_prompt_templates(
        [str(tmp_path / "one"), str(tmp_path / "two"), "missing", "x.txt"], str(tmp_path)
    )
    assert [t.content for t in result.prompts] == ["First"]
    [diagnostic] = result.diagnostics
    assert diagnostic.message == 'name "/commit" collision'
    assert diagnostic.collision is not None
    assert (diagnostic.collision.winner_path, diagnostic.collision.loser_path) == (
        str(first),
        str(second),
    )


def test_expansion(tmp_path: Path, write: Write) -> None:
    write(tmp_path / "greet.md", "---\ndescription: d\n---\nHello $1, and ${@:2}!")
    templates = load_prompt_templates([str(tmp_path)], str(tmp_path)).prompts
    assert expand_prompt_template('/greet Bob "Ada L" Cy', templates) == "Hello Bob, and Ada L Cy!"
    assert expand_prompt_template("/greet", templates) == "Hello , and !"
    assert expand_prompt_template("/greet\tBob", templates) == "/greet\tBob"
    assert expand_prompt_template("/unknown Bob", templates) == "/unknown Bob"
    assert expand_prompt_template("greet Bob", templates) == "greet Bob"
