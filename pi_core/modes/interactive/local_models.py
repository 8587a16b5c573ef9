"""In the REPL, with no model: find a local model server, select its first model, and say so."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pi_core.ai.local_servers import describe
from pi_core.modes.local_model import adopt_local_model, discovery_enabled

if TYPE_CHECKING:
    from pi_core.modes.interactive.host import Screen


async def offer_local_models(app: Screen) -> None:
    """Probe the local servers (off the start-up path) and report what was found."""
    if not discovery_enabled(app.session):
        return
    found, model = await adopt_local_model(app.session)
    if model is None:
        if not found:
            app.transcript.status(
                "No local model server answered (PI_LOCAL_SERVERS names other addresses)"
            )
        return
    count = sum(len(each.model_ids) for each in found)
    others = "; /model lists them all" if count > 1 else ""
    app.transcript.status(f"{describe(found)}. Selected {model.key}{others}", "green")
    app.invalidate()
