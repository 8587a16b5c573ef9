"""Old path of `pi_core.agent_session.session_events`; kept until in-flight branches merge."""

from pi_core.agent_session.session_events import *  # noqa: F403
