"""Distinct pi names for MCP tools whose sanitised names collide (`a.b` and `a_b`, long names)."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

from pi_plugin_mcp.config import MAX_NAME, tool_name


@dataclass(frozen=True)
class Collision:
    """A tool renamed because its sanitised name was already taken."""

    server: str
    original: str
    other: str
    wanted: str
    name: str

    def message(self) -> str:
        """Describe the rename for the user, once."""
        return (
            f"MCP server {self.server!r}: tools {self.other!r} and {self.original!r} are both "
            f"named {self.wanted!r} after sanitising; {self.original!r} is offered as {self.name!r}"
        )


def unique_names(
    server: str, tools: Iterable[str], taken: Collection[str] = ()
) -> tuple[dict[str, str], list[Collision]]:
    """Map each MCP tool name to a distinct pi name; a later duplicate gets `_2`, `_3`, … (the
    base cut so the whole stays within the 64-character limit). `taken` holds other servers'
    names, which are never reused."""
    names: dict[str, str] = {}
    owner: dict[str, str] = {}
    collisions: list[Collision] = []
    for tool in tools:
        if tool in names:
            continue
        name = tool_name(server, tool)
        if name in owner or name in taken:
            other = owner.get(name, name)
            wanted, name = name, _suffixed(name, set(owner) | set(taken))
            collisions.append(Collision(server, tool, other, wanted, name))
        names[tool] = name
        owner[name] = tool
    return names, collisions


def _suffixed(name: str, used: set[str]) -> str:
    counter = 2
    while True:
        suffix = f"_{counter}"
        candidate = name[: MAX_NAME - len(suffix)] + suffix
        if candidate not in used:
            return candidate
        counter += 1
