"""Claude Code permission rules: `Tool` or `Tool(specifier)`, parsed and matched against a call."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlparse

EDIT_TOOLS = frozenset({"Edit", "Write", "MultiEdit", "NotebookEdit"})
"""Tools an `Edit(...)` rule covers (Claude applies Edit rules to every file-changing tool)."""

READ_TOOLS = frozenset({"Read", "Glob", "Grep", "LS", "NotebookRead"})
"""Tools a `Read(...)` rule covers."""

PATH_FIELDS = ("file_path", "notebook_path", "path")

_RULE = re.compile(r"^(?P<tool>[A-Za-z0-9_\-*]+)(?:\((?P<spec>.*)\))?$", re.DOTALL)
_COMMAND_SEPARATORS = re.compile(r"\s*(?:&&|\|\||;|\||\n)\s*")


@dataclass(frozen=True)
class PermissionRule:
    """One rule: the tool it names and the optional specifier in parentheses."""

    tool: str
    specifier: str | None = None
    base_dir: str | None = None
    """The folder `/path` specifiers are relative to (the settings file's project root)."""

    def __str__(self) -> str:
        return self.tool if self.specifier is None else f"{self.tool}({self.specifier})"


def parse_rule(text: str, base_dir: str | None = None) -> PermissionRule:
    """Parse `Bash(npm run test:*)`, `Edit(src/**)`, `mcp__x` …; raise ValueError if malformed."""
    stripped = text.strip()
    match = _RULE.match(stripped)
    if not match:
        raise ValueError(f"Invalid permission rule {text!r}: expected Tool or Tool(specifier)")
    spec = match.group("spec")
    if spec is not None:
        spec = spec.strip()
        if spec in ("", "*"):
            spec = None  # `Bash()` and `Bash(*)` mean the whole tool
    return PermissionRule(match.group("tool"), spec, base_dir)


def parse_rules(texts: Any, base_dir: str | None = None) -> tuple[list[PermissionRule], list[str]]:
    """Parse a settings list of rules; return the rules and a message for each bad entry."""
    rules: list[PermissionRule] = []
    problems: list[str] = []
    if texts is None:
        return rules, problems
    if not isinstance(texts, list):
        return rules, [f"permission rules must be a list of strings, got {type(texts).__name__}"]
    for text in texts:
        if not isinstance(text, str):
            problems.append(f"permission rule {text!r} is not a string")
            continue
        try:
            rules.append(parse_rule(text, base_dir))
        except ValueError as error:
            problems.append(str(error))
    return rules, problems


def tool_name_matches(rule_tool: str, tool_name: str) -> bool:
    """`mcp__server` covers all the server's tools; `mcp__server__*` too; else the exact name."""
    if rule_tool == tool_name:
        return True
    if rule_tool.startswith("mcp__"):
        server = rule_tool[:-3] if rule_tool.endswith("__*") else rule_tool
        if rule_tool.endswith("*") and not rule_tool.endswith("__*"):
            return tool_name.startswith(rule_tool[:-1])
        return server.count("__") == 1 and tool_name.startswith(server + "__")
    return False


def split_command(command: str) -> list[str]:
    """Split a shell command line into its simple commands (on `&&`, `||`, `;`, `|`)."""
    return [part.strip() for part in _COMMAND_SEPARATORS.split(command) if part.strip()]


def command_matches(specifier: str, command: str) -> bool:
    """Match a Bash specifier: `prefix:*` (word-bounded), a `*` glob, or the exact command."""
    command = command.strip()
    if len(split_command(command)) > 1 and len(split_command(specifier)) == 1:
        return False  # a rule for one command never covers a compound command line as a whole
    if specifier.endswith(":*"):
        prefix = specifier[:-2].strip()
        return command == prefix or command.startswith(prefix + " ")
    if "*" in specifier:
        pattern = ".*".join(re.escape(piece) for piece in specifier.split("*"))
        if re.fullmatch(pattern, command, re.DOTALL):
            return True
        # `npm run *` also covers a bare `npm run`
        return specifier.endswith(" *") and command == specifier[:-2].strip()
    return command == specifier


def glob_to_regex(pattern: str) -> re.Pattern[str]:
    """Compile a gitignore-style glob: `**` crosses folders, `*` and `?` do not."""
    out = []
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if pattern.startswith("**/", index):
            out.append("(?:.*/)?")
            index += 3
            continue
        if pattern.startswith("**", index):
            out.append(".*")
            index += 2
            continue
        out.append("[^/]*" if char == "*" else "[^/]" if char == "?" else re.escape(char))
        index += 1
    return re.compile("".join(out) + "(?:/.*)?", re.DOTALL)


def resolve_pattern(specifier: str, cwd: str, base_dir: str | None, home: str) -> str:
    """Make a path specifier absolute: `//abs`, `~/home`, `/settings-root`, `./cwd` or `cwd`."""
    if specifier.startswith("//"):
        return specifier[1:]
    if specifier.startswith("~/"):
        return os.path.join(home, specifier[2:])
    if specifier.startswith("/"):
        return os.path.join(base_dir or cwd, specifier[1:])
    if specifier.startswith("./"):
        specifier = specifier[2:]
    if "/" not in specifier.rstrip("/") and any(c in specifier for c in "*?"):
        return os.path.join(cwd, "**", specifier)  # `*.env` matches at any depth, as gitignore
    return os.path.join(cwd, specifier)


def path_matches(rule: PermissionRule, path: str, cwd: str, home: str) -> bool:
    """Whether the absolute `path` falls under the rule's path specifier."""
    assert rule.specifier is not None
    pattern = os.path.normpath(resolve_pattern(rule.specifier, cwd, rule.base_dir, home))
    target = os.path.normpath(path)
    return glob_to_regex(pattern).fullmatch(target) is not None


def call_path(tool_input: dict[str, Any], cwd: str) -> str | None:
    """The absolute path a file tool call touches, if it names one."""
    for field in PATH_FIELDS:
        value = tool_input.get(field)
        if isinstance(value, str) and value:
            return os.path.normpath(os.path.join(cwd, os.path.expanduser(value)))
    if "pattern" in tool_input or "command" not in tool_input:
        return cwd  # Glob/Grep/LS without a path search the cwd
    return None


def _domain_matches(specifier: str, url: Any) -> bool:
    if not specifier.startswith("domain:") or not isinstance(url, str):
        return False
    domain = specifier[len("domain:") :].strip().lower()
    host = (urlparse(url).hostname or "").lower()
    if domain.startswith("*."):
        return host.endswith(domain[1:])
    return host == domain or host.endswith("." + domain)


def rule_covers_tool(rule: PermissionRule, tool_name: str) -> bool:
    """Whether the rule is about this tool (Edit rules cover Write, Read rules cover Grep …)."""
    if tool_name_matches(rule.tool, tool_name):
        return True
    if rule.specifier is None:
        return False
    if rule.tool == "Edit" and tool_name in EDIT_TOOLS:
        return True
    return rule.tool == "Read" and tool_name in READ_TOOLS


def rule_matches(
    rule: PermissionRule, tool_name: str, tool_input: dict[str, Any], cwd: str, home: str
) -> bool:
    """Whether the rule matches this call as a whole (Bash: the whole command line)."""
    if not rule_covers_tool(rule, tool_name):
        return False
    if rule.specifier is None:
        return True
    spec = rule.specifier
    if tool_name == "Bash":
        command = tool_input.get("command")
        return isinstance(command, str) and command_matches(spec, command)
    if tool_name == "WebFetch":
        return _domain_matches(spec, tool_input.get("url"))
    if tool_name in EDIT_TOOLS or tool_name in READ_TOOLS:
        path = call_path(tool_input, cwd)
        return path is not None and path_matches(rule, path, cwd, home)
    if tool_name == "Task":
        return tool_input.get("subagent_type") == spec
    if tool_name == "WebSearch":
        return tool_input.get("query") == spec
    return False


def describe_call(tool_name: str, tool_input: dict[str, Any]) -> str:
    """`Bash with command ls`, `Edit`: the way Claude names a call in its permission messages."""
    command = tool_input.get("command")
    if tool_name == "Bash" and isinstance(command, str):
        return f"{tool_name} with command {command}"
    return tool_name
