"""Which plugin streams which wire API, for the messages about a model nobody can stream yet."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pi_core.ai.model import Model

API_PLUGINS: dict[str, str] = {
    "anthropic-messages": "pi-plugin-anthropic",
    "bedrock-converse-stream": "pi-plugin-bedrock",
    "google-generative-ai": "pi-plugin-google",
    "google-vertex": "pi-plugin-google",
    "openai-completions": "pi-plugin-openai",
    "openai-responses": "pi-plugin-openai",
    "azure-openai-responses": "pi-plugin-openai",
    "openai-codex-responses": "pi-plugin-openai",
    "mistral-conversations": "pi-plugin-mistral",
}
"""The first-party plugin for each API it ships; pi's other APIs have no plugin yet."""


def api_cell(api: str, streamable: bool) -> str:
    """`--list-models --all`'s API column: the API, marked when no installed plugin streams it."""
    if streamable:
        return api
    plugin = API_PLUGINS.get(api)
    return f"{api} (needs {plugin})" if plugin else f"{api} (no plugin yet)"


def missing_stream_message(model: Model, installed: list[str]) -> str:
    """The error for prompting a model whose API no installed plugin streams, naming the plugin."""
    plugin = API_PLUGINS.get(model.api)
    advice = (
        f"Install {plugin} to use it."
        if plugin
        else f"No plugin for {model.api} ships yet; one that registers a stream for "
        f"{model.api!r} makes it usable."
    )
    return (
        f"Model {model.key} needs a plugin for the {model.api} API, and none is installed "
        f"(installed APIs: {', '.join(installed) or 'none'}). {advice}"
    )
