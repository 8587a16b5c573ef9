"""`sourceInfo` for slash commands (RPC `get_commands`): where each came from, as pi says."""

from __future__ import annotations

from typing import Any

from pi_core.plugins.manager import PluginManager
from pi_core.plugins.sources import PluginSource
from pi_core.resources.diagnostics import SourceInfo


def plugin_source_infos(manager: PluginManager) -> dict[str, dict[str, Any]]:
    """Map each loaded plugin's key to the `sourceInfo` of the commands it registered."""
    return {plugin.key: _plugin_info(plugin.source) for plugin in manager.plugins}


def resource_source_info(info: SourceInfo | None, path: str) -> dict[str, Any]:
    """A prompt template's or skill's `sourceInfo` (camelCase, as on pi's wire)."""
    if info is None:
        return {"path": path, "source": "local", "scope": "temporary", "origin": "top-level"}
    return info.model_dump(by_alias=True, exclude_none=True)


def _plugin_info(source: PluginSource) -> dict[str, Any]:
    """pi's metadata for an extension: found in an extensions folder (`auto`, the `.pi` or agent
    folder as `baseDir`), named in settings (`local`), or given with `-e` (`cli`)."""
    if source.kind == "distribution" or source.path is None:
        origin = source.distribution or source.name
        return {"path": source.describe(), "source": f"package:{origin}", "scope": "user",
                "origin": "package"}  # fmt: skip
    path = source.path
    if source.origin in ("project", "global"):
        scope = "project" if source.origin == "project" else "user"
        return {"path": str(path), "source": "auto", "scope": scope, "origin": "top-level",
                "baseDir": str(path.parent.parent)}  # fmt: skip
    if source.origin == "settings":
        return {"path": str(path), "source": "local", "scope": "user", "origin": "top-level"}
    return {"path": str(path), "source": "cli", "scope": "temporary", "origin": "top-level",
            "baseDir": str(path.parent if path.suffix else path)}  # fmt: skip
