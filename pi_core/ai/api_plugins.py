"""Which plugin streams which wire API, for the messages about a model nobody can stream yet."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pi_core.ai.model import Model

API_PLUGINS: dict[str, str] = {
    "anthropic-messages": "pi-plugin-anthropic",
    "openai-completions": "pi-plugin-openai",
    "openai-responses": "pi-plugin-openai",
}
"""The first-party plugin for each API it ships; pi's other APIs have no plugin yet."""


def missing_plugin(api: str) -> str:
    """How `--list-models --all` marks a model whose API no installed plugin streams."""
    plugin = API_PLUGINS.get(api)
    return f"needs {plugin}" if plugin else f"no {api} plugin"


def missing_stream_message(model: Model, installed: list[str]) -> str:
    """The error for selecting or prompting a model whose API no installed plugin streams."""
    plugin = API_PLUGINS.get(model.api)
    advice = (
        f"install {plugin}"
        if plugin
        else f"no plugin for {model.api!r} is available yet; install one that registers a "
        f"stream for {model.api!r}"
    )
    return (
        f"Model {model.key} uses API {model.api!r}, which no installed plugin streams "
        f"(installed: {', '.join(installed) or 'none'}): {advice}."
    )
