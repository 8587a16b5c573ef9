"""Split a Bash command line into every simple command it runs, with a real bash parser.

The parser is tree-sitter's bash grammar (the `tree-sitter` and `tree-sitter-bash` wheels): it
is maintained with the grammar GitHub and editors use, knows heredocs, quoting, `$(…)`,
backticks, process substitution and `&`, and marks what it cannot read with ERROR nodes instead
of guessing. (`bashlex` was the alternative; it is unmaintained since 2023 and raises on common
syntax such as `[[ … ]]` and `case`.) The grammar is loaded by `grammar`, which the plugin
imports at load, so a missing wheel fails the plugin's load, never a permission check.

`parse_command` walks the tree: lists (`;`, `&&`, `||`, `&`, newlines), pipelines, subshells,
`{ …; }`, redirections, `$(…)`, backticks, `<(…)`/`>(…)`, heredoc bodies and the values of
`VAR=$(…)` all yield their simple commands. Wrappers (`env`, `command`, `sudo`, `nice`,
`timeout`, `nohup`, `time`, `xargs`, `stdbuf`, …) are peeled off and `bash -c '…'` (sh, zsh,
dash, ksh) is parsed in turn, so each `SimpleCommand` is what really runs. Anything it does not
understand (`if`/`for`/`case`, functions, syntax errors, a command word that is a variable)
sets `unknown`, which the engine turns into a question, never an allowance.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from tree_sitter import Node

from pi_plugin_claude.permissions.grammar import BASH_PARSER as _PARSER
from pi_plugin_claude.permissions.wrappers import unwrap

_MAX_DEPTH = 8
"""How deeply `bash -c "bash -c '…'"` may nest before the command is called unknown."""


_HARMLESS_TARGETS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr"})


@dataclass(frozen=True)
class Redirect:
    """One redirection: its operator (`>`, `>>`, `<`, `&>` …) and target (None if not literal)."""

    op: str
    target: str | None

    @property
    def writes(self) -> bool:
        """Whether it writes a file (`> /dev/null` and `2>&1` do not)."""
        if "<" in self.op and ">" not in self.op:
            return False
        if self.target is None:
            return True
        if self.target in _HARMLESS_TARGETS or (self.op.endswith("&") and self.target.isdigit()):
            return False
        return self.op not in (">&", "<&") or self.target != "-"

    @property
    def reads(self) -> bool:
        """Whether it reads a file (`< file`)."""
        return self.op in ("<", "<>")


@dataclass(frozen=True)
class SimpleCommand:
    """One command that runs: its words after expansion and wrapper removal, and redirections."""

    argv: tuple[str, ...]
    redirects: tuple[Redirect, ...] = ()
    dynamic: frozenset[int] = frozenset()
    """Indexes in `argv` whose value bash only knows at run time (`$X`, `$(…)`, `{a,b}`).

    Globs stay literal (`*.py`): a path check looks at the folder before the first glob."""
    unknown: bool = False
    """The command word itself is not known (a variable, a substitution, an unparsed wrapper)."""
    assigned: tuple[str, ...] = ()
    """Variables set for this command alone (`FOO=1 cmd`, `env FOO=1 cmd`)."""
    substituted: bool = False
    """A word holds another command's output (`$(…)`, backticks, `<(…)`)."""

    @property
    def text(self) -> str:
        """The command as rules see it: its words joined by spaces."""
        return " ".join(self.argv)

    @property
    def writes(self) -> tuple[Redirect, ...]:
        """The redirections that write a file."""
        return tuple(r for r in self.redirects if r.writes)


@dataclass
class ParsedCommand:
    """Every simple command of a command line, and whether any part could not be understood."""

    commands: list[SimpleCommand] = field(default_factory=list)
    unparseable: bool = False

    @property
    def known(self) -> bool:
        """Whether every part was understood (no syntax error, no unknown command word)."""
        return not self.unparseable and not any(c.unknown for c in self.commands)


def parse_command(command: str) -> ParsedCommand:
    """Parse a Bash command line into the simple commands it runs."""
    result = ParsedCommand()
    _parse_into(command, result, 0)
    return result


def _parse_into(command: str, result: ParsedCommand, depth: int) -> None:
    if depth > _MAX_DEPTH:
        result.unparseable = True
        return
    tree = _PARSER.parse(command.encode("utf-8"))
    if tree.root_node.has_error:
        result.unparseable = True
    _Walker(result, depth).visit(tree.root_node, ())


_SEQUENCE_NODES = frozenset(
    {"program", "list", "pipeline", "subshell", "compound_statement", "negated_command"}
)
_WORD_ESCAPE = re.compile(r"\\(.)", re.DOTALL)
_DQUOTE_ESCAPE = re.compile(r"\\([$`\"\\\n])")


class _Walker:
    """Collects simple commands from a tree into a ParsedCommand."""

    def __init__(self, result: ParsedCommand, depth: int) -> None:
        self.result = result
        self.depth = depth

    def visit(self, node: Node, redirects: tuple[Redirect, ...]) -> None:
        """Visit a statement node, with the redirections of enclosing statements."""
        kind = node.type
        if not node.is_named or kind == "comment":
            return
        if kind in _SEQUENCE_NODES:
            for child in node.children:
                self.visit(child, redirects)
        elif kind == "redirected_statement":
            own = tuple(self.redirect(child) for child in node.children_by_field_name("redirect"))
            body = node.child_by_field_name("body")
            if body is not None:
                self.visit(body, redirects + own)
            elif own:
                self.result.commands.append(SimpleCommand((), redirects + own))
        elif kind == "command":
            self.command(node, redirects)
        elif kind == "variable_assignment" or kind == "variable_assignments":
            self.scan(node)  # `X=$(rm y)` runs rm; the assignment itself changes no file
            self.result.commands.append(SimpleCommand((), redirects))
        elif kind in ("declaration_command", "unset_command", "test_command"):
            self.words_command(node, redirects)
        else:  # if/while/for/case, functions, arithmetic, ERROR …: not understood
            self.result.unparseable = True
            self.scan(node)

    def redirect(self, node: Node) -> Redirect:
        """A file, heredoc or herestring redirection."""
        if node.type == "heredoc_redirect":
            self.scan(node)  # an unquoted heredoc body expands `$(…)`
            return Redirect("<<", None if self.has_substitution(node) else "")
        if node.type == "herestring_redirect":
            self.scan(node)
            return Redirect("<<<", "")
        op = "".join(
            child.text.decode() for child in node.children if not child.is_named and child.text
        )
        destination = node.child_by_field_name("destination")
        target: str | None = None
        if destination is not None:
            value, dynamic = self.word(destination)
            target = None if dynamic else value
        else:
            self.result.unparseable = True
        return Redirect(op or ">", target)

    def words_command(self, node: Node, redirects: tuple[Redirect, ...]) -> None:
        """`export X=1`, `unset X`, `[[ … ]]`: a command named by its keyword."""
        self.scan(node)
        first = node.children[0].text.decode() if node.children and node.children[0].text else ""
        self.result.commands.append(SimpleCommand((first or node.type,), redirects))

    def command(self, node: Node, redirects: tuple[Redirect, ...]) -> None:
        """A simple command: words, assignments dropped, wrappers peeled."""
        argv: list[str] = []
        dynamic: set[int] = set()
        assigned: list[str] = []
        name_dynamic = False
        substituted = False
        for child in node.children:
            if child.type == "variable_assignment":
                self.scan(child)
                name = child.child_by_field_name("name")
                assigned.append(name.text.decode() if name is not None and name.text else "")
            elif child.type == "command_name":
                value, is_dynamic = self.word(child.children[0] if child.children else child)
                name_dynamic = is_dynamic
                argv.append(value)
            elif child.type in ("file_redirect", "heredoc_redirect", "herestring_redirect"):
                redirects = (*redirects, self.redirect(child))
            elif child.is_named and child.type != "comment":
                value, is_dynamic = self.word(child)
                if is_dynamic:
                    dynamic.add(len(argv))
                substituted = substituted or _has_command_substitution(child)
                argv.append(value)
        if name_dynamic or not argv:
            self.result.commands.append(
                SimpleCommand(tuple(argv), redirects, frozenset(), True, tuple(assigned))
            )
            return
        self.add(
            SimpleCommand(
                tuple(argv), redirects, frozenset(dynamic), False, tuple(assigned), substituted
            )
        )

    def add(self, command: SimpleCommand) -> None:
        """Record a command after peeling wrappers (`env`, `sudo`, `bash -c` …)."""
        inner = unwrap(command.argv, command.dynamic)
        if inner is None:
            self.result.commands.append(command)
            return
        if inner.script is not None:
            if inner.script_dynamic:
                self.result.commands.append(replace(command, unknown=True))
                return
            before = len(self.result.commands)
            _parse_into(inner.script, self.result, self.depth + 1)
            added = self.result.commands[before:]
            self.result.commands[before:] = [
                replace(
                    c,
                    redirects=c.redirects + command.redirects,
                    assigned=command.assigned + inner.assigned + c.assigned,
                )
                for c in added
            ]
            return
        if not inner.argv or inner.unknown:
            unknown = inner.unknown or bool(inner.argv)
            self.result.commands.append(replace(command, unknown=unknown))
            return
        assigned = command.assigned + inner.assigned
        self.add(replace(command, argv=inner.argv, dynamic=inner.dynamic, assigned=assigned))

    def word(self, node: Node) -> tuple[str, bool]:
        """A word's value as bash would pass it, and whether it is only known at run time."""
        kind = node.type
        text = node.text.decode() if node.text else ""
        if kind == "word":
            return _WORD_ESCAPE.sub(r"\1", text), False
        if kind == "number":
            return text, False
        if kind == "raw_string":
            return text[1:-1], False
        if kind == "string":
            parts: list[str] = []
            dynamic = False
            for child in node.children:
                if child.type == "string_content":
                    parts.append(
                        _DQUOTE_ESCAPE.sub(r"\1", child.text.decode() if child.text else "")
                    )
                elif child.is_named:
                    value, _ = self.word(child)
                    parts.append(value)
                    dynamic = True
            return "".join(parts), dynamic
        if kind == "concatenation":
            values = [self.word(child) for child in node.children]
            braces = any(c.type == "brace_expression" or c.text == b"{" for c in node.children)
            return "".join(v for v, _ in values), braces or any(d for _, d in values)
        if kind in ("command_substitution", "process_substitution"):
            for child in node.children:
                self.visit(child, ())
            return text, True
        self.scan(node)  # $X, ${X}, $'…', $((…)), arrays …
        return text, True

    def scan(self, node: Node) -> None:
        """Find the substitutions inside a node and collect their commands."""
        for child in node.children:
            if child.type in ("command_substitution", "process_substitution"):
                self.word(child)
            else:
                self.scan(child)

    def has_substitution(self, node: Node) -> bool:
        """Whether a node contains `$(…)`, backticks or an expansion."""
        return any(
            child.type in ("command_substitution", "expansion", "simple_expansion")
            or self.has_substitution(child)
            for child in node.children
        )


def _has_command_substitution(node: Node) -> bool:
    """Whether a word contains `$(…)`, backticks or `<(…)`."""
    if node.type in ("command_substitution", "process_substitution"):
        return True
    return any(_has_command_substitution(child) for child in node.children)
