"""Find a local OpenAI-compatible server (Ollama, LM Studio, llama.cpp, vLLM) and offer its models.

Used only when no model is available from keys or models.json: each server's `GET /models` is
asked at once, with a short timeout, and every server that answers becomes a provider of the
`openai-completions` API with the models it listed.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from pi_core.ai.model import Model
    from pi_core.ai.model_registry import ModelRegistry

ENV = "PI_LOCAL_SERVERS"
OFF = frozenset({"", "0", "off", "no", "none", "false"})
CONNECT_SECONDS = 0.3
ANSWER_SECONDS = 1.5
MAX_AT_ONCE = 8
# Sent as the key: local servers ignore it, and pi's key lookup needs a value for the provider.
PLACEHOLDER_KEY = "pi-local-server"


@dataclass(frozen=True)
class LocalServer:
    """A provider name and the base URL of its OpenAI-compatible API (ending in `/v1`)."""

    name: str
    base_url: str


@dataclass(frozen=True)
class FoundServer:
    """A server that answered, with the ids of the models it serves."""

    server: LocalServer
    model_ids: list[str]


DEFAULT_SERVERS = (
    LocalServer("ollama", "http://127.0.0.1:11434/v1"),
    LocalServer("lmstudio", "http://127.0.0.1:1234/v1"),
    LocalServer("llama.cpp", "http://127.0.0.1:8080/v1"),
    LocalServer("vllm", "http://127.0.0.1:8000/v1"),
)


def servers_to_probe(environ: Mapping[str, str] | None = None) -> list[LocalServer]:
    """The servers to ask: `PI_LOCAL_SERVERS` (`[name=]url,…`; `off` for none) or the defaults."""
    env = os.environ if environ is None else environ
    value = env.get(ENV)
    if value is None:
        return list(DEFAULT_SERVERS)
    if value.strip().lower() in OFF:
        return []
    servers: list[LocalServer] = []
    for item in (part.strip() for part in value.split(",")):
        if not item:
            continue
        name, equals, url = item.partition("=")
        if not equals or "://" in name:
            name, url = _name_for(item), item
        taken = {s.name for s in servers}
        unique, count = name.strip(), 2
        while unique in taken:
            unique, count = f"{name.strip()}-{count}", count + 1
        servers.append(LocalServer(unique, url.strip().rstrip("/")))
    return servers


def _name_for(url: str) -> str:
    port = urlsplit(url).port
    for server in DEFAULT_SERVERS:
        if urlsplit(server.base_url).port == port:
            return server.name
    return "local"


async def probe(servers: list[LocalServer]) -> list[FoundServer]:
    """Ask every server for its models at once; return those that answered, in the given order."""
    if not servers:
        return []
    import pi_core.ai.http  # noqa: F401, I001  (first: it imports httpx without its CLI)
    import httpx

    limit = asyncio.Semaphore(MAX_AT_ONCE)
    timeout = httpx.Timeout(ANSWER_SECONDS, connect=CONNECT_SECONDS)
    # trust_env=False: a proxy from the environment must not carry a loopback probe away.
    async with httpx.AsyncClient(timeout=timeout, trust_env=False) as client:

        async def ask(server: LocalServer) -> FoundServer | None:
            async with limit:
                try:
                    response = await client.get(f"{server.base_url}/models")
                    ids = _model_ids(response.json()) if response.status_code == 200 else []
                except (httpx.HTTPError, ValueError, OSError):
                    return None
            return FoundServer(server, ids) if ids else None

        answers = await asyncio.gather(*(ask(server) for server in servers))
    return [found for found in answers if found is not None]


def _model_ids(body: Any) -> list[str]:
    entries = body.get("data") if isinstance(body, dict) else None
    if not isinstance(entries, list):
        return []
    ids = [entry.get("id") for entry in entries if isinstance(entry, dict)]
    return [model_id for model_id in ids if isinstance(model_id, str) and model_id]


def unclaimed(found: list[FoundServer], taken: set[str]) -> list[FoundServer]:
    """The found servers, renamed `<name>-local` where a provider of that name already exists
    (a plugin's or models.json's provider is never replaced)."""
    renamed = []
    for each in found:
        name = each.server.name
        if name in taken:
            name = f"{name}-local"
        renamed.append(FoundServer(LocalServer(name, each.server.base_url), each.model_ids))
    return renamed


def register_found(registry: ModelRegistry, found: list[FoundServer]) -> list[Model]:
    """Add each found server as an `openai-completions` provider; return its models, in order."""
    from pi_core.ai.model import ProviderConfig, ProviderModelConfig

    for each in found:
        registry.register_provider(
            each.server.name,
            ProviderConfig(
                base_url=each.server.base_url,
                api="openai-completions",
                api_key=PLACEHOLDER_KEY,
                models=[ProviderModelConfig(id=i, name=i) for i in each.model_ids],
            ),
        )
    names = [each.server.name for each in found]
    return [m for name in names for m in registry.provider_models(name)]


def describe(found: list[FoundServer]) -> str:
    """One line naming the servers found and how many models each serves."""
    parts = []
    for each in found:
        count = len(each.model_ids)
        parts.append(
            f"{each.server.name} at {each.server.base_url} ({count} model{'s' * (count != 1)})"
        )
    return "Found a local model server: " + "; ".join(parts)
