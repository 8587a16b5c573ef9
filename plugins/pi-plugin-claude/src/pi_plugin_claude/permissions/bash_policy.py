"""Deciding a Bash call: every simple command it runs must be allowed for the whole to be.

The command line is parsed (`shell.parse_command`); each simple command is matched against the
Bash rules after normalisation (no `VAR=` prefixes, no `env`/`command`/`sudo` …), classified
(`readonly.classify`), and its paths and redirections are checked against the working folders
and the `Read(...)`/`Edit(...)` rules. Any deny denies; what is not understood asks.
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass
from typing import Literal, Protocol

from pi_plugin_claude.permissions.modes import FILESYSTEM_COMMANDS, PermissionMode
from pi_plugin_claude.permissions.readonly import classify, sed_edit_is_safe
from pi_plugin_claude.permissions.rules import (
    PermissionRule,
    command_matches,
    path_matches,
    rule_covers_tool,
    rule_matches,
)
from pi_plugin_claude.permissions.shell import SimpleCommand, parse_command


class PolicyView(Protocol):
    """What deciding a Bash call reads of the session's policy (engine.PermissionPolicy is one)."""

    mode: PermissionMode
    allow: list[PermissionRule]
    ask: list[PermissionRule]
    deny: list[PermissionRule]
    cwd: str
    home: str

    def working_dirs(self) -> list[str]: ...


SAFE_VARIABLES = frozenset(
    {"GOEXPERIMENT", "GOOS", "GOARCH", "CGO_ENABLED", "GO111MODULE", "RUST_BACKTRACE", "RUST_LOG",
     "NODE_ENV", "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE", "PYTEST_DISABLE_PLUGIN_AUTOLOAD",
     "PYTEST_DEBUG", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_TIME", "CHARSET", "TERM",
     "COLORTERM", "NO_COLOR", "FORCE_COLOR", "TZ", "LS_COLORS", "LSCOLORS", "GREP_COLOR",
     "GREP_COLORS", "GCC_COLORS", "TIME_STYLE", "BLOCK_SIZE", "BLOCKSIZE", "COLUMNS", "LINES",
     "CLICOLOR", "CLICOLOR_FORCE", "CI", "DEBIAN_FRONTEND", "GIT_TERMINAL_PROMPT"}
)  # fmt: skip
"""`VAR=` prefixes that leave a command allowed; any other (`LD_PRELOAD=…`, `PAGER=…`) asks."""

Outcome = Literal["allow", "deny", "ask", "plan", "outside"]


@dataclass(frozen=True)
class BashVerdict:
    """The decision on a Bash call: allow, deny, ask, plan (refused in plan mode), outside."""

    outcome: Outcome
    reason: Literal["rule", "readOnly", "mode", "default", "workingDir"] = "default"
    rule: PermissionRule | None = None
    detail: str = ""


def resolve_path(arg: str, cwd: str, home: str) -> str:
    """An argument as the absolute, symlink-free path it names (`~`, `..`; a glob's folder)."""
    cut = min((arg.find(c) for c in "*?[" if c in arg), default=-1)
    if cut >= 0:
        arg = arg[:cut]
        arg = arg if arg.endswith("/") or not arg else os.path.dirname(arg) or "."
    if arg == "~" or arg.startswith("~/"):
        arg = home + arg[1:]
    elif arg.startswith("~"):  # `~user/…`: another user's home (or "/" when unknown: outside)
        expanded = os.path.expanduser(arg)
        arg = expanded if expanded != arg else os.sep
    return os.path.realpath(os.path.join(cwd, arg or "."))


def _rule_matches_part(rule: PermissionRule, part: SimpleCommand) -> bool:
    if not rule_covers_tool(rule, "Bash") or rule.tool != "Bash" or part.unknown:
        return False
    if rule.specifier is None:
        return True
    return any(command_matches(rule.specifier, text) for text in (part.text, shlex.join(part.argv)))


def _first_rule(rules: list[PermissionRule], part: SimpleCommand) -> PermissionRule | None:
    return next((rule for rule in rules if _rule_matches_part(rule, part)), None)


def _allow_rule(rules: list[PermissionRule], part: SimpleCommand) -> PermissionRule | None:
    """An allow rule covers a part only if its words are all known (no `$X`, no `$(…)`)."""
    return None if part.dynamic else _first_rule(rules, part)


class _Judge:
    """Holds one call's context: the policy, the parsed parts and their classifications."""

    def __init__(self, policy: PolicyView, command: str) -> None:
        self.policy = policy
        self.command = command
        self.parsed = parse_command(command)
        self.parts = self.parsed.commands
        self.kinds = [classify(part) for part in self.parts]
        roots = policy.working_dirs()
        self.roots = roots + [os.path.realpath(root) for root in roots]
        self.bases = self._bases()

    def _bases(self) -> list[list[str]]:
        """For each part, every folder it may run in: the cwd and each earlier `cd` target.

        Parts are in source order; a `cd` in a subshell or a failed `cd` leaves the folder
        uncertain, so a path is judged from all of them (inside only if inside from each).
        """
        folders = [self.policy.cwd]
        bases = []
        for part in self.parts:
            bases.append(list(folders))
            if part.argv[:1] == ("cd",):
                operands = [a for a in part.argv[1:] if not a.startswith("-")]
                target = operands[0] if operands else "~"
                folders.extend(resolve_path(target, base, self.policy.home) for base in bases[-1])
        return bases

    def resolve(self, arg: str, at: int) -> list[str]:
        """An argument of part `at` as the absolute paths it may name."""
        return [resolve_path(arg, base, self.policy.home) for base in self.bases[at]]

    def inside(self, path: str) -> bool:
        """Whether `path` lies in a working folder (cwd or an added directory)."""
        return any(
            path == root or path.startswith(root.rstrip(os.sep) + os.sep) for root in self.roots
        )

    def read_paths(self, at: int) -> list[str]:
        """The absolute paths read-only part `at` reads (its path arguments and `< file`)."""
        part, kind = self.parts[at], self.kinds[at]
        reads = [r.target for r in part.redirects if r.reads and r.target]
        return [path for arg in (*kind.paths, *reads) for path in self.resolve(arg, at)]

    def reads_inside(self, at: int) -> bool:
        """Whether every path read-only part `at` reads lies in a working folder."""
        return all(self.inside(path) for path in self.read_paths(at))

    def read_candidates(self, at: int) -> list[str]:
        """The read paths as deny rules see them: a glob (`secrets/*`) stands for its entries."""
        part, kind = self.parts[at], self.kinds[at]
        reads = [r.target for r in part.redirects if r.reads and r.target]
        paths = []
        for arg in (*kind.paths, *reads):
            for path in self.resolve(arg, at):
                paths.append(path)
                if any(c in arg for c in "*?["):
                    paths.append(os.path.join(path, "*"))
        return paths

    def path_rule(self, rules: list[PermissionRule], tool: str, path: str) -> PermissionRule | None:
        """The first `Read(...)`/`Edit(...)` rule of `rules` whose path pattern covers `path`."""
        for rule in rules:
            if rule.tool != tool or rule.specifier is None:
                continue
            if path_matches(rule, path, self.policy.cwd, self.policy.home):
                return rule
        return None

    def denied(self) -> BashVerdict | None:
        """A deny rule that matches the line, a part, a path it reads or a file it writes."""
        deny = self.policy.deny
        cwd, home = self.policy.cwd, self.policy.home
        raw = {"command": self.command}
        for whole in deny:
            if whole.tool == "Bash" and rule_matches(whole, "Bash", raw, cwd, home):
                return BashVerdict("deny", "rule", whole)
        for at, (part, kind) in enumerate(zip(self.parts, self.kinds, strict=True)):
            rule = _first_rule(deny, part)
            reads = self.read_candidates(at) if kind.read_only else []
            writes = [p for w in part.writes if w.target for p in self.resolve(w.target, at)]
            for path in reads:
                rule = rule or self.path_rule(deny, "Read", path)
            for path in writes:
                rule = rule or self.path_rule(deny, "Edit", path)
            if rule is not None:
                return BashVerdict("deny", "rule", rule)
        return None

    def asked(self) -> PermissionRule | None:
        """The first ask rule matching a part."""
        for part in self.parts:
            rule = _first_rule(self.policy.ask, part)
            if rule is not None:
                return rule
        return None

    def writes_allowed(self, at: int) -> bool:
        """A redirection to a file needs its own allowance: acceptEdits inside, or an Edit rule."""
        for redirect in self.parts[at].writes:
            if redirect.target is None:
                return False
            for path in self.resolve(redirect.target, at):
                if self.policy.mode == "acceptEdits" and self.inside(path):
                    continue
                if self.path_rule(self.policy.allow, "Edit", path) is None:
                    return False
        return True

    def filesystem_edit(self, at: int) -> bool:
        """acceptEdits: `mkdir`/`touch`/`rm`/`mv`/`cp`/`sed` on literal paths inside the folders."""
        part = self.parts[at]
        if not part.argv or part.argv[0] not in FILESYSTEM_COMMANDS or part.dynamic:
            return False
        if part.argv[0] == "sed" and not sed_edit_is_safe(list(part.argv[1:])):
            return False  # `e` runs a command, `w` writes anywhere
        # operands and `--target-directory=DIR`-style values: every one must be inside
        operands = [a.partition("=")[2] if a.startswith("--") else a for a in part.argv[1:]]
        operands = [a for a in operands if a and not a.startswith("-")]
        return all(self.inside(path) for a in operands for path in self.resolve(a, at))

    def decide(self) -> BashVerdict:
        """The verdict for the whole command line."""
        denied = self.denied()
        if denied is not None:
            return denied
        mode = self.policy.mode
        if mode == "bypassPermissions":
            return BashVerdict("allow", "mode")
        asked = self.asked()
        if asked is not None:
            return BashVerdict("ask", "rule", asked)
        whole_tool = next(
            (r for r in self.policy.allow if r.tool == "Bash" and r.specifier is None), None
        )
        if whole_tool is not None:  # `Bash` allows every command line that nothing denies
            return BashVerdict("allow", "rule", whole_tool)
        if not self.parsed.known:
            return BashVerdict("plan" if mode == "plan" else "ask", detail="it cannot be parsed")
        reason: Literal["rule", "readOnly", "mode"] = "readOnly"
        used: PermissionRule | None = None
        outside = False
        for at, (part, kind) in enumerate(zip(self.parts, self.kinds, strict=True)):
            # unsafe `VAR=` prefixes and another command's output as words (`$(…)`) need a person
            plain = all(name in SAFE_VARIABLES for name in part.assigned) and not part.substituted
            read_only = kind.read_only and not part.writes and plain
            if read_only and not kind.unknown_paths:
                if self.reads_inside(at):
                    continue
                outside = True
                continue
            rule = _allow_rule(self.policy.allow, part) if plain else None
            if rule is not None and self.writes_allowed(at):
                reason, used = "rule", used or rule
                continue
            reads_inside = kind.read_only and not kind.unknown_paths and self.reads_inside(at)
            edits = plain and (reads_inside or self.filesystem_edit(at))
            if mode == "acceptEdits" and self.writes_allowed(at) and edits:
                reason = "mode" if reason != "rule" else reason
                continue
            return BashVerdict("plan" if mode == "plan" else "ask")
        if outside:
            return BashVerdict("outside", "workingDir")
        return BashVerdict("allow", reason, used)


def decide_bash(policy: PolicyView, command: str) -> BashVerdict:
    """Decide a Bash command line under the policy's rules and mode."""
    return _Judge(policy, command).decide()
