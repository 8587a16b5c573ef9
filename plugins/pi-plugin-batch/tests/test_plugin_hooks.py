"""The batch plugin costs a session nothing per turn unless a batch driver started it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from pi_plugin_batch.budget import BUDGET_ENV

# A fresh interpreter: the plugin reads its budget from the environment when imported.
HOOKS_OF_PLUGIN = """
import json, pluggy
from pi_core import hookspecs
import pi_plugin_batch.plugin as plugin
pm = pluggy.PluginManager(hookspecs.PROJECT_NAME)
pm.add_hookspecs(hookspecs)
pm.register(plugin)
print(json.dumps(sorted(caller.name for caller in pm.get_hookcallers(plugin) or [])))
"""


def _hooks(budget: str | None) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != BUDGET_ENV}
    if budget is not None:
        env[BUDGET_ENV] = budget
    output = subprocess.run(
        [sys.executable, "-c", HOOKS_OF_PLUGIN], env=env, capture_output=True, text=True, check=True
    ).stdout
    hooks: list[str] = json.loads(output)
    return hooks


def test_outside_a_batch_only_the_task_record_hook_is_registered() -> None:
    assert _hooks(None) == ["session_start"]


def test_a_batch_child_with_a_budget_counts_and_enforces_it() -> None:
    assert _hooks("0.5") == ["before_provider_request", "message_end", "session_start", "tool_call"]
