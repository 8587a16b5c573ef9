"""The `images.*` settings a tool reads for the images it returns."""

from __future__ import annotations

from pi_core.resources.settings import SettingsManager


def image_auto_resize(cwd: str) -> bool:
    """Return `images.autoResize` (default true) from the agent dir's and `cwd`'s settings."""
    return SettingsManager.create(cwd).get_image_auto_resize()
