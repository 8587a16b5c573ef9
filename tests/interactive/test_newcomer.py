"""A new user's first minutes in the REPL: no key, the header says what to do; /login stores a
key and selects a model, and the next prompt goes through. With a local OpenAI-compatible
server (a fake on a port the test chooses), its models are found and the first is selected."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from pi_core.testing import FakeLLMServer, FakeResponse, RecordedRequest, chat_stream
from tests.interactive.conftest import Screen

NO_KEYS = {"OPENAI_API_KEY": "", "ANTHROPIC_API_KEY": "", "ANTHROPIC_OAUTH_TOKEN": ""}


def no_configured_model(screen: Screen, models: dict[str, object] | None = None) -> None:
    """An agent folder without settings and without any model that has a key."""
    (screen.agent_dir / "settings.json").unlink()
    if models is None:
        (screen.agent_dir / "models.json").unlink()
    else:
        (screen.agent_dir / "models.json").write_text(json.dumps(models))


def responses_stream(text: str) -> FakeResponse:
    """A streamed Responses API answer (the `openai` provider's catalog models speak it)."""
    item = {"id": "msg_1", "type": "message", "role": "assistant", "content": []}
    done = {**item, "content": [{"type": "output_text", "text": text, "annotations": []}]}
    usage = {"input_tokens": 3, "output_tokens": 1, "total_tokens": 4}
    return FakeResponse.sse([
        {"type": "response.created", "response": {"id": "r", "status": "in_progress"}},
        {"type": "response.output_item.added", "output_index": 0, "item": item},
        {"type": "response.output_text.delta", "item_id": "msg_1", "delta": text},
        {"type": "response.output_item.done", "output_index": 0, "item": done},
        {"type": "response.completed",
         "response": {"id": "r", "status": "completed", "output": [done], "usage": usage}},
    ])  # fmt: skip


def test_a_newcomer_is_told_about_login_and_after_it_chats(screen: Screen) -> None:
    # The `openai` provider's requests go to the fake; it has no key yet. A provider entry of
    # models.json changes a built-in provider's base URL, not its models' API (as in pi).
    endpoint = {"baseUrl": screen.server.base_url}
    no_configured_model(screen, {"providers": {"openai": endpoint}})
    screen.server.queue(responses_stream("Welcome aboard."))
    screen.start(env={**NO_KEYS, "PI_LOCAL_SERVERS": "off"}, width=180)
    shown = screen.wait_for("No models available")
    assert "/login" in shown
    assert str(screen.agent_dir / "models.json") in "".join(shown.split())  # wrapped or not
    screen.wait_for("no model: /login")  # the footer

    screen.type("hello")
    screen.keys("Enter")
    error = screen.wait_for("No model selected")
    assert "/login" in error.split("No model selected", 1)[1]
    assert "/model" in error.split("No model selected", 1)[1]
    assert str(screen.agent_dir / "models.json") in "".join(error.split())
    assert screen.server.requests == []
    screen.type("/model")
    screen.keys("Enter")
    listed = screen.wait_for("No models available: /login stores an API key")
    assert str(screen.agent_dir / "models.json") in "".join(listed.split())

    screen.type("/login")
    screen.keys("Enter")
    screen.wait_for("Use an API key")
    screen.keys("Down", "Enter")
    screen.wait_for("Log in to (API key)")
    screen.type("openai")
    screen.wait_for("→ openai")
    screen.keys("Enter")
    screen.wait_for("API key for openai")
    screen.type("sk-newcomer")
    screen.keys("Enter")
    screen.wait_for("Selected openai/gpt-5.4")
    screen.wait_for("(openai) gpt-5.4")  # the footer
    settings = json.loads((screen.agent_dir / "settings.json").read_text())
    assert (settings["defaultProvider"], settings["defaultModel"]) == ("openai", "gpt-5.4")

    screen.type("hi again")
    screen.keys("Enter")
    screen.wait_for("Welcome aboard.")
    [request] = screen.server.requests
    assert request.headers["authorization"] == "Bearer sk-newcomer"
    assert request.json()["model"] == "gpt-5.4"


@pytest.fixture
def local_server() -> Iterator[FakeLLMServer]:
    """A fake OpenAI-compatible server that lists two models at GET /v1/models."""
    listing = {"object": "list", "data": [{"id": "tiny-coder"}, {"id": "tiny-chat"}]}

    def models(request: RecordedRequest) -> FakeResponse | None:
        return FakeResponse.json_body(listing) if request.method == "GET" else None

    with FakeLLMServer() as server:
        server.route(models)
        yield server


def test_a_local_server_is_found_and_its_first_model_selected(
    screen: Screen, local_server: FakeLLMServer
) -> None:
    no_configured_model(screen)
    local_server.queue(chat_stream("Local and ready."))
    address = f"{local_server.base_url}/v1"
    screen.start(env={**NO_KEYS, "PI_LOCAL_SERVERS": f"lmstudio={address}"}, width=180)
    shown = screen.wait_for("Selected lmstudio/tiny-coder")
    assert f"lmstudio at {address} (2 models)" in shown
    screen.wait_for("(lmstudio) tiny-coder")  # the footer

    screen.type("/model")
    screen.keys("Enter")
    screen.wait_for("lmstudio/tiny-chat")  # every model it serves is offered
    screen.keys("Escape")
    screen.wait_for(lambda s: "Select model" not in s)

    screen.type("hi")
    screen.keys("Enter")
    screen.wait_for("Local and ready.")
    chat = local_server.requests[-1]
    assert chat.path == "/v1/chat/completions" and chat.json()["model"] == "tiny-coder"
    assert screen.server.requests == []


def test_with_no_local_server_answering_the_repl_says_so(screen: Screen) -> None:
    no_configured_model(screen)
    with FakeLLMServer() as gone:
        address = f"{gone.base_url}/v1"
    screen.start(env={**NO_KEYS, "PI_LOCAL_SERVERS": address}, width=180)
    screen.wait_for(lambda s: "Lookingforalocalmodelserver" in "".join(s.split()))  # header
    screen.wait_for("No local model server answered")
    screen.wait_for("no model: /login")
