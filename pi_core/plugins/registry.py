"""Old import path of `pi_core.plugins.registrations`; kept until in-flight branches merge."""

from pi_core.plugins.registrations import *  # noqa: F403
