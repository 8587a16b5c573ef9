"""Local server discovery: the address list, and what counts as a server that answered."""

from __future__ import annotations

import asyncio
import socket

from pi_core.ai.local_servers import (
    DEFAULT_SERVERS,
    FoundServer,
    LocalServer,
    probe,
    servers_to_probe,
    unclaimed,
)
from pi_core.testing import FakeLLMServer, FakeResponse


def test_the_defaults_without_the_variable_and_none_when_off() -> None:
    assert servers_to_probe({}) == list(DEFAULT_SERVERS)
    assert [s.name for s in DEFAULT_SERVERS] == ["ollama", "lmstudio", "llama.cpp", "vllm"]
    for off in ("off", "OFF", "0", "none", ""):
        assert servers_to_probe({"PI_LOCAL_SERVERS": off}) == []


def test_named_and_bare_addresses() -> None:
    value = "mine=http://10.0.0.5:9/v1/, http://127.0.0.1:11434/v1,http://h:1/v1,http://h:2/v1"
    assert servers_to_probe({"PI_LOCAL_SERVERS": value}) == [
        LocalServer("mine", "http://10.0.0.5:9/v1"),
        LocalServer("ollama", "http://127.0.0.1:11434/v1"),  # named after the default port
        LocalServer("local", "http://h:1/v1"),
        LocalServer("local-2", "http://h:2/v1"),
    ]


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_only_servers_that_list_models_count_and_a_closed_port_is_skipped() -> None:
    with FakeLLMServer() as good, FakeLLMServer() as broken, FakeLLMServer() as empty:
        good.queue(FakeResponse.json_body({"data": [{"id": "a"}, {"id": "b"}, {"x": 1}]}))
        broken.queue(FakeResponse.json_body({"error": "no"}, status=500))
        empty.queue(FakeResponse.json_body({"data": []}))
        servers = [
            LocalServer("closed", f"http://127.0.0.1:{_closed_port()}/v1"),
            LocalServer("broken", f"{broken.base_url}/v1"),
            LocalServer("empty", f"{empty.base_url}/v1"),
            LocalServer("good", f"{good.base_url}/v1"),
        ]
        found = asyncio.run(probe(servers))
    assert [(f.server.name, f.model_ids) for f in found] == [("good", ["a", "b"])]
    assert good.requests[0].path == "/v1/models"


def test_a_found_server_never_takes_the_name_of_an_existing_provider() -> None:
    found = [FoundServer(LocalServer("openai", "http://h:1/v1"), ["m"]),
             FoundServer(LocalServer("ollama", "http://h:2/v1"), ["n"])]  # fmt: skip
    renamed = unclaimed(found, {"openai", "anthropic"})
    assert [f.server.name for f in renamed] == ["openai-local", "ollama"]
