"""One session's Claude compatibility state: settings, permission gate and hooks, built once.

`create_claude_runtime(...)` is what pi-claude calls with its command-line options; plain pi
builds one from the project's settings when `claudeSettings` is on.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from pi_plugin_claude.hooks import ClaudeHooks, HookConfig
from pi_plugin_claude.permissions import AskCallback, PermissionGate
from pi_plugin_claude.settings import ClaudeSettings, load_claude_settings


@dataclass
class ClaudeRuntime:
    """Everything the compat plugin consults while the session runs."""

    settings: ClaudeSettings
    gate: PermissionGate
    hooks: ClaudeHooks
    problems: list[str] = field(default_factory=list)
    on_user_message: Callable[[str], None] | None = None
    """Where messages meant for the user go (hook errors, `systemMessage`); default: ctx.ui."""
    stop_hook_block_cap: int = 9
    resumed: bool = False
    """The session was opened from its history (`--resume`, `--continue`): SessionStart's
    `source` is `resume`."""
    """Consecutive Stop-hook blocks after which the agent stops anyway (Claude's cap)."""


def create_claude_runtime(
    cwd: str | os.PathLike[str],
    *,
    setting_sources: str | list[str] | None = None,
    settings: str | None = None,
    permission_mode: str | None = None,
    allowed_tools: Sequence[str] = (),
    disallowed_tools: Sequence[str] = (),
    add_dirs: Sequence[str] = (),
    ask: AskCallback | None = None,
    session_id: str = "",
    transcript_path: str = "",
    home: str | None = None,
) -> ClaudeRuntime:
    """Load the settings and build the gate and hooks; raise ValueError on a bad option."""
    loaded = load_claude_settings(cwd, setting_sources, settings, home)
    policy = loaded.permission_policy(permission_mode, allowed_tools, disallowed_tools, add_dirs)
    gate = PermissionGate(policy, ask)
    config = HookConfig.parse(loaded.hooks())
    hooks = ClaudeHooks(
        config,
        loaded.cwd,
        session_id=session_id,
        transcript_path=transcript_path,
        permission_mode=lambda: gate.policy.mode,
    )
    return ClaudeRuntime(loaded, gate, hooks, problems=loaded.problems + config.problems)
