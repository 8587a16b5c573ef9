"""`/reload`: plugins from files and folders, settings, skills, prompts, context files, keys."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pi_core.modes.interactive.host import CommandHost


async def reload_command(app: CommandHost, args: str) -> None:
    """Reload everything pi's `/reload` does; a plugin that fails leaves all as it was."""
    session = app.session
    if session.is_streaming:
        app.transcript.status("Wait until the agent is idle to /reload", "yellow")
        return
    if session.compaction.is_compacting:
        app.transcript.status("Wait until the compaction is done to /reload", "yellow")
        return
    app.state.working = "Reloading plugins, skills, prompts, context files and keybindings..."
    try:
        errors = await session.reload(on_swap=app.ui.clear_plugin_state)
    finally:
        app.state.working = None
    if errors:
        for error in errors:
            app.transcript.status(f"Error: reload failed: {error.source}: {error.error}", "red")
        app.transcript.status(
            "Error: nothing was reloaded; the plugins loaded before are still in use", "red"
        )
        return
    app.rebuild_keys()
    app.transcript.status(
        "Reloaded plugins, skills, prompt templates, context files and keybindings"
    )
