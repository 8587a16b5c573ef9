"""Provider plugins load their stream code on the first request, not when pi loads them."""

from __future__ import annotations

import importlib
import subprocess
import sys
from typing import Any

import pytest

# (plugin, API kind in its STREAMS, module holding the stream code, function name)
STREAMS = [
    ("pi_plugin_google", "google-generative-ai", "pi_plugin_google.stream", "stream_gemini"),
    ("pi_plugin_google", "google-vertex", "pi_plugin_google.stream", "stream_vertex"),
    ("pi_plugin_bedrock", "bedrock-converse-stream", "pi_plugin_bedrock.stream", "stream_converse"),
    ("pi_plugin_mistral", "mistral-conversations", "pi_plugin_mistral.stream", "stream_mistral"),
    ("pi_plugin_anthropic", "anthropic-messages", "pi_plugin_anthropic.stream", "stream_messages"),
    ("pi_plugin_openai", "openai-responses", "pi_plugin_openai.responses", "stream_responses"),
    (
        "pi_plugin_openai",
        "azure-openai-responses",
        "pi_plugin_openai.azure",
        "stream_azure_responses",
    ),
    (
        "pi_plugin_openai",
        "openai-codex-responses",
        "pi_plugin_openai.codex",
        "stream_codex_responses",
    ),
]


def test_loading_the_provider_plugins_imports_no_stream_code() -> None:
    plugins = sorted({plugin for plugin, *_ in STREAMS})
    modules = sorted({module for _, _, module, _ in STREAMS})
    code = (
        "import importlib, sys\n"
        f"for name in {plugins!r}:\n"
        "    importlib.import_module(name)\n"
        f"print([name for name in {modules!r} if name in sys.modules])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "[]", done.stderr


@pytest.mark.parametrize(("plugin", "api", "module", "name"), STREAMS)
def test_a_stream_call_runs_the_stream_code(
    plugin: str, api: str, module: str, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[Any, ...]] = []
    marker = object()

    def fake(*args: Any) -> object:
        calls.append(args)
        return marker

    monkeypatch.setattr(importlib.import_module(module), name, fake)
    stream = importlib.import_module(plugin).STREAMS[api]
    assert stream("model", "context", "options") is marker
    assert calls == [("model", "context", "options")]


def test_a_target_without_a_function_name_is_refused_when_registered() -> None:
    from pi_core.providers import stream_on_first_use

    with pytest.raises(ValueError, match="module:function"):
        stream_on_first_use("pi_plugin_google.stream")


def test_a_stream_registered_for_first_use_imports_nothing_until_called() -> None:
    code = (
        "import sys\n"
        "from pi_core.providers import stream_on_first_use\n"
        "stream = stream_on_first_use('json.tool:main')\n"
        "print(stream.__name__, 'json.tool' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.split() == ["main", "False"], done.stderr
