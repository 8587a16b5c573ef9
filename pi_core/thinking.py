"""The thinking levels pi knows, from none to the most, defined once for every user."""

from typing import Literal, get_args

ThinkingLevel = Literal["off", "minimal", "low", "medium", "high", "xhigh"]

# In order, least thinking first; providers map the levels a model lacks to the nearest one.
THINKING_LEVELS: tuple[ThinkingLevel, ...] = get_args(ThinkingLevel)
