"""The floor: a minimal agent that does only the work a figure cannot avoid, same CLI as `pi`.

It takes the arguments the harness gives our pi for each scenario (`-p PROMPT --model M`,
`--mode rpc`, `--export IN OUT`, no arguments for the REPL), talks to the same fake server in the
same wire format (Chat Completions, streamed), runs the same tools and writes the same session
JSONL, and nothing else: no plugins, no validation models, no settings beyond models.json.

What it imports, and why that much is unavoidable:
- the interpreter and the standard library modules a run uses (json, os, asyncio for a stream
  that can be aborted while stdin is read);
- httpx (with httpcore, h11, certifi, ssl), the HTTP client our agent streams with: writing an
  HTTP/1.1 and TLS client by hand is not an option an agent takes;
- prompt_toolkit for the REPL's floor only;
- pydantic-core's JSON parser (a dependency of our core) where many lines are parsed (a session's
  open, the export): it parses a session's lines faster than `json`, so the floor uses it there.
Not imported: pydantic, pluggy, click, rich, or any module of pi_core or its plugins.

The harness runs it through a launcher (harness/floor_side.py) that loads this package by its
path; it imports nothing from the harness, so its start-up is its own. The modules: `model`
(models.json), `session` (the JSONL written and read), `tools`, `wire` (Chat Completions),
`loop` (the agent loop), `modes` (print and RPC), `export`, `repl`.
"""

from __future__ import annotations

import sys


def option(argv: list[str], name: str) -> str | None:
    """The value after `name` in argv, if given."""
    return argv[argv.index(name) + 1] if name in argv else None


def main(argv: list[str] | None = None) -> int:
    """Pick the mode from the arguments, as `pi` does; import only what that mode needs."""
    args = sys.argv[1:] if argv is None else argv
    if "--export" in args:
        from .export import export

        position = args.index("--export")
        return export(args[position + 1], args[position + 2])
    if not args:
        from .repl import repl

        return repl()
    import asyncio

    from .modes import print_mode, rpc_mode

    runner = rpc_mode if option(args, "--mode") == "rpc" else print_mode
    return asyncio.run(runner(args))
