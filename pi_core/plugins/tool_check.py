"""A tool handed over by a plugin, checked before anything offers it to the LLM."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel


def check_tool(tool: Any) -> None:
    """Raise TypeError unless `tool` has a name, a description, a pydantic parameters model and
    an `execute`; a tool without a label is labelled with its name."""
    missing = [a for a in ("name", "description", "parameters") if not getattr(tool, a, None)]
    if missing:
        raise TypeError(f"tool {tool!r} is missing {', '.join(missing)}")
    if not (isinstance(tool.parameters, type) and issubclass(tool.parameters, BaseModel)):
        raise TypeError(f"tool {tool.name!r}: parameters must be a pydantic model class")
    if not callable(getattr(tool, "execute", None)):
        raise TypeError(f"tool {tool.name!r} has no execute()")
    if not getattr(tool, "label", None):
        tool.label = tool.name
