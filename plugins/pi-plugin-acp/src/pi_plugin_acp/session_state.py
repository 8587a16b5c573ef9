"""Session-wide ACP updates: the slash commands on offer, context usage and the title."""

from __future__ import annotations

from typing import Any

from acp.schema import AvailableCommand, AvailableCommandsUpdate, SessionInfoUpdate, UsageUpdate

from pi_core import AgentSession

TITLE_LENGTH = 80


def available_commands(session: AgentSession) -> AvailableCommandsUpdate:
    """Plugin commands, prompt templates and skills, as the client's slash commands."""
    return AvailableCommandsUpdate(
        session_update="available_commands_update",
        available_commands=[
            AvailableCommand(
                name=str(c["name"]), description=str(c.get("description") or c["name"])
            )
            for c in session.plugins.ctx.get_commands()
        ],
    )


def usage(session: AgentSession) -> UsageUpdate | None:
    """Tokens in the context now and the model's context window, once known."""
    current: dict[str, Any] | None = session.get_context_usage()
    if not current or current.get("tokens") is None or not current.get("contextWindow"):
        return None
    return UsageUpdate(
        session_update="usage_update",
        used=int(current["tokens"]),
        size=int(current["contextWindow"]),
    )


def title(session: AgentSession) -> str | None:
    """The session's name, else its first user message cut to one line."""
    if session.session_name:
        return session.session_name
    for message in session.messages:
        if getattr(message, "role", None) != "user":
            continue
        content = message.content  # type: ignore[union-attr]
        text = (
            content
            if isinstance(content, str)
            else " ".join(getattr(block, "text", "") for block in content)
        )
        line = text.strip().splitlines()[0] if text.strip() else ""
        return line[:TITLE_LENGTH] or None
    return None


def title_update(text: str) -> SessionInfoUpdate:
    """A `session_info_update` carrying the title."""
    return SessionInfoUpdate(session_update="session_info_update", title=text)
