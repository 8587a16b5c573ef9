"""Matching path rules (`Read(./secrets/**)`, `Edit(//etc/**)`) against resolved call paths.

A Read rule covers every tool that reads and an Edit rule every tool that writes (pi's tools
are judged under their Claude names, `find` as Glob). A search (Glob, Grep, LS) is caught by
a deny or ask rule when its search root contains a path the rule covers, because it would
print that path's content or names; Claude Code excludes such paths from the search instead.
"""

from __future__ import annotations

import os
import re
from typing import Any

from pi_plugin_claude.permissions.paths import call_spellings, normalize, real_path
from pi_plugin_claude.permissions.rules import (
    EDIT_TOOLS,
    PATH_FIELDS,
    READ_TOOLS,
    PermissionRule,
    glob_to_regex,
    resolve_pattern,
    rule_covers_tool,
    rule_matches,
)

SEARCH_TOOLS = frozenset({"Glob", "Grep", "LS"})
"""Tools that look at a whole folder (pi's grep, find and ls are judged as these)."""

_GLOB_CHARS = re.compile(r"[*?\[]")


def _static_prefix(pattern: str) -> str:
    """The folders of a glob before its first wildcard: `/p/src/**/*.py` -> `/p/src`."""
    parts = pattern.split("/")
    for index, part in enumerate(parts):
        if _GLOB_CHARS.search(part):
            fixed = "/".join(parts[:index])
            return fixed or ("/" if pattern.startswith("/") else "")
    return pattern


def rule_patterns(rule: PermissionRule, cwd: str, home: str) -> list[str]:
    """The rule's absolute glob, and the same with its fixed folders' symlinks resolved."""
    assert rule.specifier is not None
    pattern = normalize(resolve_pattern(rule.specifier, cwd, rule.base_dir, home))
    prefix = _static_prefix(pattern)
    real = normalize(real_path(prefix) + pattern[len(prefix) :])
    found = [pattern] if real == pattern else [pattern, real]
    # Claude Code counts `dir/**` as covering `dir` itself too (reading it is "in a denied folder")
    return found + [p[: -len("/**")] for p in found if p.endswith("/**")]


def call_targets(tool_name: str, tool_input: dict[str, Any], cwd: str, home: str) -> list[str]:
    """Every spelling of every path a file tool touches (a search: its root, default the cwd)."""
    raw = next((tool_input[f] for f in PATH_FIELDS if isinstance(tool_input.get(f), str)), "")
    targets = call_spellings(raw or ".", cwd, home)
    pattern = tool_input.get("pattern")
    if tool_name == "Glob" and isinstance(pattern, str) and _static_prefix(pattern):
        # `../../*` or `/etc/*` reach past the search root: the folder they start from counts too
        fixed = os.path.join(targets[0], _static_prefix(pattern))
        targets += [p for p in call_spellings(fixed, cwd, home) if p not in targets]
    return targets


def _segment_matches(glob: str, name: str) -> bool:
    return glob_to_regex(glob).fullmatch(name) is not None


def reaches_below(pattern: str, root: str) -> bool:
    """Whether the glob covers `root` itself or some path below it (a search there finds it)."""
    wanted = pattern.strip("/").split("/")
    have = [part for part in root.strip("/").split("/") if part]
    for index, glob in enumerate(wanted):
        if "**" in glob or index >= len(have):
            return True
        if not _segment_matches(glob, have[index]):
            return False
    return True  # `root` lies below a covered folder


def _path_matches(patterns: list[str], path: str, search: bool) -> bool:
    for pattern in patterns:
        if glob_to_regex(pattern).fullmatch(path) is not None:
            return True
        if search and reaches_below(pattern, path):
            return True
    return False


def rule_applies(
    rule: PermissionRule,
    tool_name: str,
    tool_input: dict[str, Any],
    cwd: str,
    home: str,
    every: bool = False,
) -> bool:
    """Whether a rule applies to a call; path rules see resolved paths.

    `every=False` (deny and ask rules): one spelling of the path matching is enough, and a
    search whose root contains a covered path matches. `every=True` (allow rules): every
    spelling must match.
    """
    is_path_tool = tool_name in EDIT_TOOLS or tool_name in READ_TOOLS
    if not is_path_tool or rule.specifier is None or not rule_covers_tool(rule, tool_name):
        return rule_matches(rule, tool_name, tool_input, cwd, home)
    patterns = rule_patterns(rule, cwd, home)
    targets = call_targets(tool_name, tool_input, cwd, home)
    search = tool_name in SEARCH_TOOLS and not every
    hits = [_path_matches(patterns, target, search) for target in targets]
    return all(hits) if every else any(hits)


def search_note(
    rule: PermissionRule, tool_name: str, tool_input: dict[str, Any], cwd: str, home: str
) -> str:
    """For a search refused only because its root holds a covered path: a hint to narrow it."""
    if tool_name not in SEARCH_TOOLS or rule.specifier is None:
        return ""
    patterns = rule_patterns(rule, cwd, home)
    targets = call_targets(tool_name, tool_input, cwd, home)
    if any(_path_matches(patterns, target, search=False) for target in targets):
        return ""
    return (
        f" The search would reach paths that {rule} covers; search a folder that does not "
        "contain them."
    )
