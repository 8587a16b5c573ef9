"""Export of the running session (RPC `export_html`, `/export`, `/share`), prompt and tools too."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from pi_core.export import ExportResult, export_session_to_html
from pi_core.export.page import ToolInfo

if TYPE_CHECKING:
    from pi_core.agent_session.session import AgentSession


def export_agent_session(
    session: AgentSession, output: str | os.PathLike[str] | None = None
) -> ExportResult:
    """Export the session at its current leaf with the system prompt and the active tools."""
    tools = [
        ToolInfo(tool.name, tool.description, tool.parameters_schema())
        for tool in session.tools.active()
    ]
    return export_session_to_html(
        session.session_manager,
        output,
        system_prompt=session.agent.state.system_prompt or None,
        tools=tools,
    )
