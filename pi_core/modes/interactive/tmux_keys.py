"""Inside tmux, Shift+Enter reaches the REPL only with tmux's `extended-keys` on: pi checks it
at start and warns, and so does the REPL (tmux's `extended-keys-format`, which pi also checks,
does not matter here: both of its formats are understood)."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable, Mapping

WARNING = ("tmux extended-keys is off, so Shift+Enter arrives as Enter. Add "
           "`set -g extended-keys on` to ~/.tmux.conf and restart tmux.")  # fmt: skip
QUERY_SECONDS = 2.0


async def tmux_option(name: str, env: Mapping[str, str] | None = None) -> str | None:
    """The global value of a tmux option (None when tmux does not answer in time)."""
    try:
        process = await asyncio.create_subprocess_exec(
            "tmux", "show", "-gv", name,
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL, env=dict(os.environ if env is None else env),
        )  # fmt: skip
    except OSError:
        return None
    try:
        out, _ = await asyncio.wait_for(process.communicate(), QUERY_SECONDS)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()
        return None
    return out.decode("utf-8", "replace").strip() if process.returncode == 0 else None


async def tmux_keys_warning(env: Mapping[str, str] | None = None) -> str | None:
    """The warning to show when running inside a tmux whose extended keys are off."""
    env = os.environ if env is None else env
    if not env.get("TMUX"):
        return None
    extended = await tmux_option("extended-keys", env)
    if extended is None or extended in ("on", "always"):
        return None
    return WARNING


async def warn_about_tmux_keys(report: Callable[[str], None]) -> None:
    """Check tmux's setting and `report` the warning, if there is one."""
    warning = await tmux_keys_warning()
    if warning is not None:
        report(warning)
