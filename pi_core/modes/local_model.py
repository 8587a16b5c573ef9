"""Fall back on a local model server when keys and models.json give no model."""

from __future__ import annotations

from typing import Any

from pi_core.ai.local_servers import (
    FoundServer,
    probe,
    register_found,
    servers_to_probe,
    unclaimed,
)
from pi_core.ai.model import Model


def discovery_enabled(session: Any) -> bool:
    """Whether pi may look for a local server (the setting and `PI_LOCAL_SERVERS` allow it)."""
    return bool(session.settings.get_discover_local_servers() and servers_to_probe())


async def adopt_local_model(session: Any) -> tuple[list[FoundServer], Model | None]:
    """With no model selected, probe the local servers, offer their models and select the first.

    The choice is not saved as the default: the server may be gone next time.
    """
    if session.model is not None or not discovery_enabled(session):
        return [], None
    registry = session.model_registry
    taken = set(registry.providers())
    found = unclaimed(await probe(servers_to_probe()), taken)
    models = register_found(registry, found)
    if not models or session.model is not None:
        return found, None
    await session.set_model(models[0], remember=False)
    return found, models[0]
