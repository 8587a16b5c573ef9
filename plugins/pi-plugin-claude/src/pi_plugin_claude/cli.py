"""`pi-claude`: pi behind Claude Code's headless command line and stream-json protocol."""

from __future__ import annotations

import asyncio
import json
import os
import sys

from pi_plugin_claude.options import ClaudeOptions, UsageError, check_combination, parse_argv

USAGE = """Usage: pi-claude [options] [prompt]

pi, driven the way Claude Code is driven headless: by the claude-agent-sdk (Python or
TypeScript) as `cli_path`, by an editor's Claude panel, or by a script with -p.

  -p, --print                       answer the prompt and exit
  --output-format text|json|stream-json
  --input-format text|stream-json   (stream-json: JSONL user and control messages on stdin)
  --verbose, --include-partial-messages
  --model provider/id, --fallback-model
  --system-prompt, --system-prompt-file, --append-system-prompt
  --permission-mode default|acceptEdits|plan|bypassPermissions|dontAsk
  --permission-prompt-tool stdio, --allowedTools, --disallowedTools, --tools
  --resume ID, --continue, --fork-session, --session-id UUID, --no-session-persistence
  --max-turns N, --max-thinking-tokens N
  --setting-sources, --settings, --add-dir, --mcp-config

See docs/claude-code.md."""


def main(argv: list[str] | None = None) -> int:
    """Run pi-claude with `argv` (default: the process's); return the exit code."""
    arguments = sys.argv[1:] if argv is None else argv
    try:
        options = parse_argv(arguments)
        if options.show_help:
            print(USAGE)
            return 0
        if options.show_version:
            from pi_plugin_claude.runner import CLAUDE_CODE_VERSION

            print(f"{CLAUDE_CODE_VERSION} (pi-claude)")
            return 0
        check_combination(options, sys.stdin.isatty())
    except UsageError as error:
        print(f"Error: {error}", file=sys.stderr)
        return 1
    for flag in options.ignored:
        print(f"pi-claude: {flag} is accepted and has no effect", file=sys.stderr)
    _apply_mcp_config(options)
    try:
        return asyncio.run(_run(options))
    except UsageError as error:
        print(f"Error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


def _apply_mcp_config(options: ClaudeOptions) -> None:
    """Hand --mcp-config to pi-plugin-mcp through its documented PI_MCP_CONFIG variable."""
    if options.mcp_configs:
        os.environ["PI_MCP_CONFIG"] = json.dumps(options.mcp_configs)


async def _run(options: ClaudeOptions) -> int:
    try:  # the gate comes with the runner: without it nothing may run (one clear line, exit 1)
        from pi_plugin_claude.protocol.control import Output
        from pi_plugin_claude.runner import ClaudeRunner
    except ImportError as error:
        print(f"Error: pi-claude cannot load its permission gate: {error}", file=sys.stderr)
        return 1
    stream_input = options.input_format == "stream-json"
    output = Output()
    try:
        runner = ClaudeRunner(options, os.getcwd(), output, stream_input)
    except ValueError as error:  # a bad --setting-sources or --allowedTools rule
        raise UsageError(str(error)) from None
    for problem in runner.problems:
        print(f"pi-claude: {problem}", file=sys.stderr)
    if stream_input:
        from pi_plugin_claude.protocol.host import HostLoop, open_stdin

        return await HostLoop(runner).serve(await open_stdin())
    prompt = options.prompt
    if prompt is None or not sys.stdin.isatty():
        piped = sys.stdin.read() if not sys.stdin.isatty() else ""
        prompt = "\n".join(p for p in (prompt, piped.strip()) if p)
    if not prompt:
        print(
            "Error: Input must be provided either through stdin or as a prompt argument",
            file=sys.stderr,
        )
        return 1
    try:
        result = await runner.run_prompt(prompt)
    except UsageError:
        raise
    except Exception as error:  # no model, no key, a plugin that failed: one line, exit 1
        print(f"Error: {error}", file=sys.stderr)
        return 1
    finally:
        await runner.close()
    if options.output_format == "json":
        output.send(result)
    elif options.output_format == "text":
        stream = sys.stderr if result["is_error"] else sys.stdout
        print(result["result"], file=stream)
    return 1 if result["is_error"] else runner.exit_code


if __name__ == "__main__":
    raise SystemExit(main())
