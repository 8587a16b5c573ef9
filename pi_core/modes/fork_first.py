"""`pi --session ID` found only in another project asks its fork question before plugins load.

pi 0.73.1 asks "Fork this session into current directory?" before it loads anything, and the
answer decides which folder's plugins load (none on no: it stops). Plugins load while the
options are parsed (their flags become options), so the question is asked there, from the raw
arguments, and the answer is kept in the click context for the command to apply.
"""

from __future__ import annotations

import sys

import click

from pi_core.modes.run_options import RunOptions

_KEY = "pi.fork_answered"


def _answered_in_repl(args: list[str]) -> bool:
    """Whether `pi ARGS` runs the REPL (the question's words then go to stdout)."""
    named = {arg.split("=", 1)[0] for arg in args}
    return not named & {"-p", "--print", "--mode"} and sys.stdin.isatty()


def ask_fork_first(ctx: click.Context, options: RunOptions, args: list[str]) -> None:
    """Ask the fork question for `options` (from the raw `args`) now, before plugins load;
    on yes `options` forks and the answer is kept for take_fork_answer; on no pi exits 0."""
    from pi_core.modes.session_elsewhere import fork_or_stop

    fork_or_stop(options, interactive=_answered_in_repl(args))
    ctx.meta[_KEY] = options.fork


def take_fork_answer(ctx: click.Context, options: RunOptions) -> bool:
    """Apply the answer ask_fork_first got, if it asked; False when it did not run."""
    if _KEY not in ctx.meta:
        return False
    fork = ctx.meta[_KEY]
    if fork is not None and options.fork is None:  # the question forked the session
        options.fork, options.session = fork, None
    return True
