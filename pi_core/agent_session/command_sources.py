"""`sourceInfo` for slash commands (RPC `get_commands`): where each came from, as pi says."""

from __future__ import annotations

from typing import Any

from pi_core.plugins.manager import PluginManager
from pi_core.plugins.sources import PluginSource
from pi_core.resources.diagnostics import SourceInfo

_SCOPES = {"project": "project", "global": "user", "installed": "user", "settings": "user"}


def plugin_source_infos(manager: PluginManager) -> dict[str, dict[str, Any]]:
    """Map each loaded plugin's key to the `sourceInfo` of the commands it registered."""
    return {plugin.key: _plugin_info(plugin.source) for plugin in manager.plugins}


def resource_source_info(info: SourceInfo | None, path: str) -> dict[str, Any]:
    """A prompt template's or skill's `sourceInfo` (camelCase, as on pi's wire)."""
    if info is None:
        return {"path": path, "source": "local", "scope": "temporary", "origin": "top-level"}
    return info.model_dump(by_alias=True, exclude_none=True)


def _plugin_info(source: PluginSource) -> dict[str, Any]:
    if source.kind == "distribution":
        origin = source.distribution or source.name
        return {"path": source.describe(), "source": f"package:{origin}", "scope": "user",
                "origin": "package"}  # fmt: skip
    path = str(source.path) if source.path is not None else f"<{source.origin}:{source.name}>"
    info: dict[str, Any] = {
        "path": path,
        "source": "cli" if source.origin == "cli" else "local",
        "scope": _SCOPES.get(source.origin, "temporary"),
        "origin": "top-level",
    }
    if source.path is not None:
        info["baseDir"] = str(source.path.parent if source.path.suffix else source.path)
    return info
