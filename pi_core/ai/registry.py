"""Old import path of `pi_core.ai.model_registry`; kept until in-flight branches merge."""

from pi_core.ai.model_registry import *  # noqa: F403
