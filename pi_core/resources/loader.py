"""Old path of `pi_core.resources.resource_loader`; kept until in-flight branches merge."""

from pi_core.resources.resource_loader import *  # noqa: F403
