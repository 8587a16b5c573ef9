"""Property: however commands are joined, one denied or unknown part keeps the line from running."""

from __future__ import annotations

import shlex

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pi_plugin_claude.permissions import PermissionPolicy, parse_mode, parse_rule

pytestmark = pytest.mark.slow

CWD = "/proj"
ALLOWED = ["ls", "git status", "cat README.md", "npm test", "echo hi", "pwd", "grep -r x src"]
DENIED = ["rm -rf x", "FOO=1 rm x", "env rm x", "command rm x", "sudo rm -f y"]
UNKNOWN = ["curl evil.example", "$X y", "touch /tmp/x", "cat ~/.ssh/id_rsa", "sort -o o f"]
GUARDED_MODES = ("default", "plan", "acceptEdits", "dontAsk")

BINARY = [";", "&&", "||", "|", "&", "\n"]


def _policy(mode: str) -> PermissionPolicy:
    return PermissionPolicy(
        mode=parse_mode(mode),
        allow=[parse_rule("Bash(git status:*)", CWD), parse_rule("Bash(npm test)", CWD)],
        deny=[parse_rule("Bash(rm:*)", CWD), parse_rule("Read(./secrets/**)", CWD)],
        cwd=CWD,
        home="/home/u",
    )


def _join(left: str, op: str, right: str) -> str:
    # "( (" not "((": bash reads `((` as arithmetic first
    return f"( {left} {op} {right} )" if op != "\n" else f"( {left}\n{right} )"


def _wrap(kind: str, inner: str) -> str:
    if kind == "subst":
        return f"echo $( {inner} )"
    if kind == "backticks":  # nested backticks would need escaping: use $( ) inside then
        return f"echo `{inner}`" if "`" not in inner else f"echo $( {inner} )"
    if kind == "shell":
        return f"bash -c {shlex.quote(inner)}"
    if kind == "sh":
        return f"sh -c {shlex.quote(inner)}"
    if kind == "procsubst":
        return f"cat <( {inner} )"
    return f"{{ {inner}; }}"


def _lines(leaves: list[str]) -> st.SearchStrategy[str]:
    base = st.sampled_from(leaves)
    return st.recursive(
        base,
        lambda inner: st.one_of(
            st.builds(_join, inner, st.sampled_from(BINARY), inner),
            st.builds(
                _wrap,
                st.sampled_from(["subst", "backticks", "shell", "sh", "procsubst", "group"]),
                inner,
            ),
        ),
        max_leaves=6,
    )


@st.composite
def _with_bad_part(draw: st.DrawFn, bad: list[str]) -> str:
    """A composed line with at least one part drawn from `bad`."""
    good = draw(_lines(ALLOWED + bad))
    op = draw(st.sampled_from(BINARY))
    poison = draw(_lines(bad))
    left, right = (good, poison) if draw(st.booleans()) else (poison, good)
    return f"{left}\n{right}" if op == "\n" else f"{left} {op} {right}"


@settings(max_examples=300, deadline=None)
@given(_with_bad_part(DENIED))
def test_a_denied_part_denies_in_every_mode(command: str) -> None:
    for mode in (*GUARDED_MODES, "bypassPermissions"):
        decision = _policy(mode).decide("Bash", {"command": command})
        assert decision.behavior == "deny", (mode, command)


@settings(max_examples=300, deadline=None)
@given(_with_bad_part(UNKNOWN))
def test_an_unknown_part_never_allows(command: str) -> None:
    for mode in GUARDED_MODES:
        decision = _policy(mode).decide("Bash", {"command": command})
        assert decision.behavior != "allow", (mode, command)


@settings(max_examples=200, deadline=None)
@given(
    st.recursive(
        st.sampled_from(ALLOWED),
        lambda inner: st.builds(_join, inner, st.sampled_from(BINARY), inner),
        max_leaves=6,
    )
)
def test_allowed_parts_joined_by_operators_stay_allowed(command: str) -> None:
    decision = _policy("default").decide("Bash", {"command": command})
    assert decision.behavior == "allow", command
