"""pi-plugin-hello: the plugin is this module; pi registers the hook functions it holds."""

from pi_plugin_hello.commands import register_commands, register_flags
from pi_plugin_hello.events import session_shutdown, session_start
from pi_plugin_hello.tools import register_tools

PI_HOOK_API = "1.0"  # the hook API this plugin was written for (see docs/hooks.md)

__all__ = [
    "register_commands",
    "register_flags",
    "register_tools",
    "session_shutdown",
    "session_start",
]
