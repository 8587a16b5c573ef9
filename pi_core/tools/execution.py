"""Old path of `pi_core.testing.tools`; kept until in-flight branches merge."""

from pi_core.testing.tools import *  # noqa: F403
