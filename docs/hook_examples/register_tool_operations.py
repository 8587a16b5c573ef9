"""Every `bash` call runs at low priority, with a marker the scripts it starts can check."""

from collections.abc import Callable

from pi_core import hookimpl
from pi_core.tools import BashSpawnContext, ToolOperations


def low_priority(spawn: BashSpawnContext) -> BashSpawnContext:
    env = {**spawn.env, "PI_AGENT": "1"}
    return BashSpawnContext(f"nice -n 10 sh -c {quote(spawn.command)}", spawn.cwd, env)


def quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


@hookimpl
def register_tool_operations(register: Callable[..., None]) -> None:
    # only the spawn hook: read, write, edit, grep, find and ls (and bash itself) stay local
    register(ToolOperations(spawn_hook=low_priority))
