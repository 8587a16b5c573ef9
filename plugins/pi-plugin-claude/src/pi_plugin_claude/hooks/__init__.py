"""Claude Code hooks: settings command hooks run with the event JSON on stdin.

Public surface: `HookConfig.parse`, `ClaudeHooks.fire`, `HookOutcome`, `HookReply`,
`HookSource` (how pi-claude adds its SDK hook callbacks), `run_command_hook`.
"""

from pi_plugin_claude.hooks.config import HOOK_EVENTS, CommandHook, HookConfig, HookMatcher
from pi_plugin_claude.hooks.dispatch import ClaudeHooks, HookSource
from pi_plugin_claude.hooks.outcome import HookOutcome, combine
from pi_plugin_claude.hooks.runner import HookReply, parse_output, run_command_hook

__all__ = [
    "HOOK_EVENTS",
    "ClaudeHooks",
    "CommandHook",
    "HookConfig",
    "HookMatcher",
    "HookOutcome",
    "HookReply",
    "HookSource",
    "combine",
    "parse_output",
    "run_command_hook",
]
