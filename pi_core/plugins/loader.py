"""Old import path of `pi_core.plugins.importing`; kept until in-flight branches merge."""

from pi_core.plugins.importing import *  # noqa: F403
