"""Which submitted lines the editor's history keeps, as pi 0.73.1 decides.

pi handles its built-in commands before a line reaches the history: `/new`, `/resume`,
`/model …` and the rest are not recalled by Up (nor, here, written to the history file).
Everything else is kept: prompts, `!command` lines, plugin commands, prompt templates and
skills, and a slash line pi does not know.
"""

from __future__ import annotations

# pi's built-in commands taken as typed, alone.
_ALONE = frozenset(
    {
        "/settings", "/scoped-models", "/model", "/export", "/import", "/share", "/copy",
        "/name", "/session", "/changelog", "/hotkeys", "/fork", "/clone", "/tree", "/login",
        "/logout", "/new", "/compact", "/reload", "/debug", "/arminsayshi", "/dementedelves",
        "/resume", "/quit",
    }
)  # fmt: skip
# The built-in commands pi also takes with an argument after a space.
_WITH_ARGUMENT = ("/model ", "/export ", "/import ", "/name ", "/compact ")


def kept_in_history(text: str) -> bool:
    """Whether the submitted `text` goes into the editor's history (not a built-in command)."""
    line = text.strip()
    return line not in _ALONE and not line.startswith(_WITH_ARGUMENT)
