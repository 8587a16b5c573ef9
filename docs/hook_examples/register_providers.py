"""A local OpenAI-compatible server (Ollama, llama.cpp, vLLM…) as provider `local`."""

from collections.abc import Callable

from pi_core import hookimpl
from pi_core.providers import ProviderConfig, ProviderModelConfig


@hookimpl
def register_providers(register: Callable[..., None]) -> None:
    register(
        "local",
        ProviderConfig(
            base_url="http://127.0.0.1:11434/v1",
            api="openai-completions",
            api_key="none",
            models=[ProviderModelConfig(id="qwen2.5-coder", context_window=32_768)],
        ),
    )
