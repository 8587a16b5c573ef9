"""Importing one plugin source into the object pluggy registers."""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from types import ModuleType
from typing import Any

from pi_core.plugins.sources import PluginSource


def module_name(source: PluginSource) -> str:
    """The name a plugin file or package is imported under (one per resolved path)."""
    digest = hashlib.sha1(str(source.path).encode()).hexdigest()[:8]
    safe = "".join(ch if ch.isalnum() else "_" for ch in source.name)
    return f"pi_extension_{safe}_{digest}"


def _import_path(source: PluginSource) -> ModuleType:
    assert source.path is not None
    name = module_name(source)
    if source.kind == "package":
        spec = importlib.util.spec_from_file_location(
            name, source.path / "__init__.py", submodule_search_locations=[str(source.path)]
        )
    else:
        spec = importlib.util.spec_from_file_location(name, source.path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {source.path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # pydantic and dataclasses look their module up here
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


def import_plugin(source: PluginSource) -> Any:
    """Import the source and return its plugin object (a module, or what an entry point names)."""
    if source.entry_point is not None:
        return source.entry_point.load()
    return _import_path(source)
