"""Old import path of `pi_core.agent.tool_calls`; kept until in-flight branches merge."""

from pi_core.agent.tool_calls import *  # noqa: F403
