"""Claude Code's headless argv, parsed into `ClaudeOptions` (`--flag value` and `--flag=value`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Kind = Literal["switch", "value", "list", "optional"]

CLAUDE_ALIASES = {
    "sonnet": "claude-sonnet-4-5",
    "opus": "claude-opus-4-5",
    "haiku": "claude-haiku-4-5",
}
"""Claude Code's model aliases, as the anthropic provider's ids."""


class UsageError(Exception):
    """The command line cannot be understood; the message says which argument and why."""


@dataclass
class ClaudeOptions:
    """What a Claude Code host asked for on the command line."""

    print_mode: bool = False
    prompt: str | None = None
    output_format: str = "text"
    input_format: str = "text"
    verbose: bool = False
    system_prompt: str | None = None
    system_prompt_file: str | None = None
    append_system_prompt: str | None = None
    permission_prompt_tool: str | None = None
    permission_mode: str | None = None
    model: str | None = None
    fallback_model: str | None = None
    resume: str | None = None
    continue_session: bool = False
    fork_session: bool = False
    session_id: str | None = None
    allowed_tools: list[str] = field(default_factory=list)
    disallowed_tools: list[str] = field(default_factory=list)
    tools: list[str] | None = None
    max_turns: int | None = None
    max_thinking_tokens: int | None = None
    setting_sources: list[str] | None = None
    settings: str | None = None
    add_dirs: list[str] = field(default_factory=list)
    include_partial_messages: bool = False
    mcp_configs: list[str] = field(default_factory=list)
    no_session_persistence: bool = False
    show_version: bool = False
    show_help: bool = False
    ignored: list[str] = field(default_factory=list)
    """Flags Claude Code knows that pi-claude accepts and does not act on (listed on stderr)."""


# flag → (attribute, kind). Aliases map to the same attribute.
FLAGS: dict[str, tuple[str, Kind]] = {
    "-p": ("print_mode", "switch"),
    "--print": ("print_mode", "switch"),
    "--output-format": ("output_format", "value"),
    "--input-format": ("input_format", "value"),
    "--verbose": ("verbose", "switch"),
    "--system-prompt": ("system_prompt", "value"),
    "--system-prompt-file": ("system_prompt_file", "value"),
    "--append-system-prompt": ("append_system_prompt", "value"),
    "--permission-prompt-tool": ("permission_prompt_tool", "value"),
    "--permission-mode": ("permission_mode", "value"),
    "--model": ("model", "value"),
    "--fallback-model": ("fallback_model", "value"),
    "--resume": ("resume", "value"),
    "-r": ("resume", "value"),
    "--continue": ("continue_session", "switch"),
    "-c": ("continue_session", "switch"),
    "--fork-session": ("fork_session", "switch"),
    "--session-id": ("session_id", "value"),
    "--allowedTools": ("allowed_tools", "list"),
    "--allowed-tools": ("allowed_tools", "list"),
    "--disallowedTools": ("disallowed_tools", "list"),
    "--disallowed-tools": ("disallowed_tools", "list"),
    "--tools": ("tools", "list"),
    "--max-turns": ("max_turns", "value"),
    "--max-thinking-tokens": ("max_thinking_tokens", "value"),
    "--setting-sources": ("setting_sources", "list"),
    "--settings": ("settings", "value"),
    "--add-dir": ("add_dirs", "list"),
    "--include-partial-messages": ("include_partial_messages", "switch"),
    "--mcp-config": ("mcp_configs", "list"),
    "--no-session-persistence": ("no_session_persistence", "switch"),
    "--version": ("show_version", "switch"),
    "-v": ("show_version", "switch"),
    "--help": ("show_help", "switch"),
    "-h": ("show_help", "switch"),
}

# Flags the SDKs may send that change nothing pi-claude does: accepted, reported on stderr.
IGNORED_SWITCHES = {
    "--allow-dangerously-skip-permissions",
    "--strict-mcp-config",
    "--include-hook-events",
    "--replay-user-messages",
    "--debug",
}
IGNORED_VALUES = {
    "--effort",
    "--thinking",
    "--json-schema",
    "--plugin-dir",
    "--resume-session-at",
    "--agents",
    "--betas",
    "--max-budget-usd",
}

INTEGER_FLAGS = {"max_turns", "max_thinking_tokens"}
CHOICES = {
    "output_format": ("text", "json", "stream-json"),
    "input_format": ("text", "stream-json"),
    "permission_mode": ("default", "acceptEdits", "plan", "bypassPermissions", "dontAsk"),
}


def split_list(value: str) -> list[str]:
    """Split `a,b c` into items, keeping commas and spaces inside `Tool(...)` specifiers."""
    items: list[str] = []
    current: list[str] = []
    depth = 0
    for char in value:
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(0, depth - 1)
        if depth == 0 and char in ", ":
            if current:
                items.append("".join(current))
            current = []
            continue
        current.append(char)
    if current:
        items.append("".join(current))
    return items


def parse_argv(argv: list[str]) -> ClaudeOptions:
    """Parse Claude Code's argv; raise UsageError naming an unknown flag or a bad value."""
    options = ClaudeOptions()
    positional: list[str] = []
    index = 0
    while index < len(argv):
        arg = argv[index]
        index += 1
        if arg == "--":
            positional.extend(argv[index:])
            break
        if not arg.startswith("-") or arg == "-":
            positional.append(arg)
            continue
        name, has_inline, inline = arg.partition("=")
        if name in IGNORED_SWITCHES:
            options.ignored.append(name)
            continue
        if name in IGNORED_VALUES:
            if not has_inline:
                if index >= len(argv):
                    raise UsageError(f"option '{name}' needs a value")
                index += 1
            options.ignored.append(name)
            continue
        if name not in FLAGS:
            raise UsageError(f"unknown option '{name}'")
        attribute, kind = FLAGS[name]
        if kind == "switch":
            if has_inline:
                raise UsageError(f"option '{name}' takes no value")
            setattr(options, attribute, True)
            continue
        if has_inline:
            value = inline
        elif index < len(argv):
            value = argv[index]
            index += 1
        else:
            raise UsageError(f"option '{name}' needs a value")
        _store(options, name, attribute, kind, value)
    if positional:
        options.prompt = " ".join(positional)
    return options


def _store(options: ClaudeOptions, name: str, attribute: str, kind: Kind, value: str) -> None:
    if kind == "list":
        items = [] if attribute == "tools" and value in ("", '""') else split_list(value)
        if attribute == "mcp_configs":
            items = [value]  # a JSON document or a path: never split
        current = getattr(options, attribute)
        setattr(options, attribute, (current or []) + items)
        return
    if attribute in INTEGER_FLAGS:
        try:
            setattr(options, attribute, int(value))
        except ValueError:
            raise UsageError(f"option '{name}' needs a whole number, got {value!r}") from None
        return
    allowed = CHOICES.get(attribute)
    if allowed is not None and value not in allowed:
        raise UsageError(f"option '{name}' got {value!r}; expected one of: {', '.join(allowed)}")
    setattr(options, attribute, value)


def check_combination(options: ClaudeOptions, stdin_is_tty: bool) -> None:
    """Reject flag combinations Claude Code rejects, with its wording where it has one."""
    headless = options.print_mode or not stdin_is_tty
    if options.output_format == "stream-json" and not options.verbose and options.print_mode:
        raise UsageError("When using --print, --output-format=stream-json requires --verbose")
    if options.input_format == "stream-json" and options.output_format != "stream-json":
        raise UsageError("--input-format=stream-json requires --output-format=stream-json")
    if options.fallback_model and _same_model(options.fallback_model, options.model):
        raise UsageError(
            "Fallback model cannot be the same as the main model. "
            "Please specify a different model for --fallback-model."
        )
    if options.resume and options.continue_session:
        raise UsageError("--resume and --continue cannot be used together")
    resuming = options.resume or options.continue_session
    if options.session_id and resuming and not options.fork_session:
        raise UsageError(
            "--session-id can only be used with --continue or --resume if --fork-session "
            "is also given"
        )
    if not headless:
        raise UsageError(
            "pi-claude runs headless only: give -p, or pipe stdin "
            "(for the interactive agent, run pi)"
        )
    if options.input_format == "text" and options.prompt is None and stdin_is_tty:
        raise UsageError("Input must be provided either through stdin or as a prompt argument")


def _same_model(fallback: str, model: str | None) -> bool:
    """Whether two --model values name one model (aliases and `anthropic/` resolved)."""
    if model is None or model == "default":
        return False

    def canonical(name: str) -> str:
        name = CLAUDE_ALIASES.get(name, name)
        return name.removeprefix("anthropic/")

    return canonical(fallback) == canonical(model)
