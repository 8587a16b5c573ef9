"""The building blocks other plugins may reuse: pi-plugin-tools' public API besides the tools.

pi-plugin-claude builds Claude Code's tool profile on these, so each behaviour (running a
shell command, ripgrep, listing, path resolution, atomic file replacement) has one
implementation. The `Local*Operations` are the tools' default back-ends (this machine), for a
plugin that wraps them (pi's `createLocalBashOperations`). Everything else in this package is
internal and may change.
"""

from __future__ import annotations

from pi_plugin_tools import TOOL_MODULES, create_tools
from pi_plugin_tools.files import file_mutation_lock, replace_file
from pi_plugin_tools.find import LocalFindOperations, find_paths
from pi_plugin_tools.grep import LocalGrepOperations
from pi_plugin_tools.ls import list_entries
from pi_plugin_tools.operations import (
    LocalBashOperations,
    LocalEditOperations,
    LocalLsOperations,
    LocalReadOperations,
    LocalWriteOperations,
)
from pi_plugin_tools.paths import resolve_read_path, resolve_to_cwd
from pi_plugin_tools.process import RunOutcome, run_in_shell
from pi_plugin_tools.ripgrep import RipgrepMissing, RipgrepProcess, find_rg
from pi_plugin_tools.shell import kill_process_group, shell_command

__all__ = [
    "TOOL_MODULES",
    "LocalBashOperations",
    "LocalEditOperations",
    "LocalFindOperations",
    "LocalGrepOperations",
    "LocalLsOperations",
    "LocalReadOperations",
    "LocalWriteOperations",
    "RipgrepMissing",
    "RipgrepProcess",
    "RunOutcome",
    "create_tools",
    "file_mutation_lock",
    "find_paths",
    "find_rg",
    "kill_process_group",
    "list_entries",
    "replace_file",
    "resolve_read_path",
    "resolve_to_cwd",
    "run_in_shell",
    "shell_command",
]
