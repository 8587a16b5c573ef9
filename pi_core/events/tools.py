"""Old import path of `pi_core.events.tool_events`; kept until in-flight branches merge."""

from pi_core.events.tool_events import *  # noqa: F403
