"""What to tell a user who has no model yet: how to get one, in the REPL and on the command line."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pi_core.ai.model_registry import ModelRegistry

LOCAL_SERVERS = "Ollama, LM Studio, llama.cpp's server or vLLM"


def docs_path(name: str) -> str:
    """Where a page of the docs is: the file beside the package when present, else its name."""
    page = Path(__file__).resolve().parents[2] / "docs" / name
    return str(page) if page.is_file() else f"docs/{name} of pi-harness"


def key_variables(registry: ModelRegistry) -> list[str]:
    """One environment variable per provider plugin that holds an API key (`…_API_KEY` first)."""
    names = []
    for variables in registry.key_variables().values():
        keys = [v for v in variables if v.endswith("_API_KEY")]
        names.append((keys or variables)[0])
    return names


def _keys_hint(registry: ModelRegistry) -> str:
    names = key_variables(registry)
    return f"set {' or '.join(names)}" if names else "install a provider plugin and set its key"


def repl_no_models(registry: ModelRegistry, agent_dir: Path, local_search: bool) -> str:
    """The REPL header's lines when no model is available."""
    local = f"Looking for a local model server ({LOCAL_SERVERS})… " if local_search else ""
    return (
        "No models available yet. Type /login to store an API key for a provider (one of its "
        f"models is then selected), or {_keys_hint(registry)} before starting pi, or add a "
        f"provider to {agent_dir / 'models.json'}; /model picks among the models you have.\n"
        f"{local}See {docs_path('providers.md')}"
    )


def prompt_no_model(agent_dir: Path) -> str:
    """The error a prompt gets when no model is selected."""
    return (
        "No model selected. In the REPL, /login stores an API key and selects a model of that "
        "provider, and /model picks one; on the command line pass --model provider/id. Models "
        f"come from API keys (auth.json, environment) and {agent_dir / 'models.json'}; "
        f"see {docs_path('providers.md')}"
    )


def cli_no_model(registry: ModelRegistry, agent_dir: Path, probed: bool) -> str:
    """What `pi -p` prints when no model is available: what to do, one way per line."""
    local = (
        f"  - start {LOCAL_SERVERS} on its default port (looked for just now, none answered;"
        " PI_LOCAL_SERVERS names other addresses)"
        if probed
        else f"  - start {LOCAL_SERVERS} and let pi find it (the search is turned off now:"
        " PI_LOCAL_SERVERS or discoverLocalServers in settings.json)"
    )
    return "\n".join(
        [
            "Error: no model available: pi has no API key for any provider and no model server.",
            "To get one, do any of these:",
            f"  - {_keys_hint(registry)} in the environment",
            f"  - run `pi` and type /login to store a key in {agent_dir / 'auth.json'}",
            f"  - add a provider with its models to {agent_dir / 'models.json'}",
            local,
            "Then pick a model with --model provider/id (pi --list-models shows them).",
            f"See {docs_path('providers.md')}",
        ]
    )
