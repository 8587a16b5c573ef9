"""What the resource loader tells users: warnings, errors, name collisions, and where things came
from."""

from __future__ import annotations

from typing import Literal

from pi_core.messages.base import WireModel

DiagnosticType = Literal["warning", "error", "collision"]
ResourceType = Literal["skill", "prompt", "theme"]
Scope = Literal["user", "project", "temporary"]
Origin = Literal["top-level", "package"]


class ResourceCollision(WireModel):
    """Two resources of one kind with one name: the first found wins."""

    resource_type: ResourceType
    name: str
    winner_path: str
    loser_path: str


class ResourceDiagnostic(WireModel):
    """A problem found while loading resources; the resource may still have loaded."""

    type: DiagnosticType
    message: str
    path: str | None = None
    collision: ResourceCollision | None = None

    def describe(self) -> str:
        """Return one line for users: `path: message` (collisions name the winner)."""
        text = f"{self.path}: {self.message}" if self.path else self.message
        if self.collision is not None:
            text += f" (kept {self.collision.winner_path})"
        return text


class SourceInfo(WireModel):
    """Where a resource came from.

    `source` is "local" (a settings path), "auto" (a discovered folder), "cli" (a flag),
    "plugin:<name>" (a plugin's resources_discover) or "package:<distribution>" (a `pi.resources`
    entry point).
    """

    path: str
    source: str
    scope: Scope
    origin: Origin = "top-level"
    base_dir: str | None = None


def collision(
    resource_type: ResourceType, name: str, winner: str, loser: str, label: str | None = None
) -> ResourceDiagnostic:
    """Build the diagnostic for a name collision, in pi's words."""
    return ResourceDiagnostic(
        type="collision",
        message=f'name "{label or name}" collision',
        path=loser,
        collision=ResourceCollision(
            resource_type=resource_type, name=name, winner_path=winner, loser_path=loser
        ),
    )
