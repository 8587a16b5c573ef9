"""Azure OpenAI and the Codex backend against the loopback fake: the request each sends, the
stream's answer, errors, context overflow, a cut stream and an abort."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from pi_plugin_openai.azure import stream_azure_responses
from pi_plugin_openai.codex import stream_codex_responses
from pi_plugin_openai.responses import stream_responses
from pi_runs import ACCOUNT_ID, fake_jwt
from responses_fake import responses_events, responses_stream

from pi_core.abort import AbortController
from pi_core.ai.errors import classify_error
from pi_core.ai.model import Model, ModelCost
from pi_core.ai.protocol import LLMContext, StreamOptions, ToolSpec
from pi_core.messages import AssistantMessageEvent, UserMessage
from pi_core.testing import FakeLLMServer, FakeResponse

Stream = Callable[[Model, LLMContext, StreamOptions], AsyncIterator[AssistantMessageEvent]]
PRICES = ModelCost(input=2.5, output=15, cache_read=0.25)


def azure_model(server: FakeLLMServer | None, **fields: Any) -> Model:
    base = f"{server.base_url}/openai/v1" if server else ""
    values = {"id": "gpt-5.4", "api": "azure-openai-responses",
              "provider": "azure-openai-responses", "base_url": base, "reasoning": True,
              "thinking_level_map": {"off": None, "xhigh": "xhigh"}, "cost": PRICES,
              "max_tokens": 128_000, **fields}  # fmt: skip
    return Model(**values)


def codex_model(server: FakeLLMServer | None, **fields: Any) -> Model:
    base = server.base_url if server else "https://chatgpt.com/backend-api"
    values = {"id": "gpt-5.5", "api": "openai-codex-responses", "provider": "openai-codex",
              "base_url": base, "reasoning": True, "cost": PRICES,
              "thinking_level_map": {"xhigh": "xhigh", "minimal": "low"}, "max_tokens": 128_000,
              **fields}  # fmt: skip
    return Model(**values)


APIS: dict[str, tuple[Stream, Callable[..., Model], str]] = {
    "azure": (stream_azure_responses, azure_model, "test-key"),
    "codex": (stream_codex_responses, codex_model, fake_jwt()),
}


@pytest.fixture(autouse=True)
def no_azure_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The environment's Azure settings would win over the fake's URL."""
    for name in ("AZURE_OPENAI_BASE_URL", "AZURE_OPENAI_RESOURCE_NAME", "AZURE_OPENAI_API_VERSION",
                 "AZURE_OPENAI_DEPLOYMENT_NAME_MAP"):  # fmt: skip
        monkeypatch.delenv(name, raising=False)


async def collect(
    api: str, server: FakeLLMServer | None, options: dict[str, Any] | None = None, **context: Any
) -> list[AssistantMessageEvent]:
    stream, make_model, key = APIS[api]
    values = {"api_key": key, "max_retries": 0, **(options or {})}
    ctx = LLMContext(**{"system_prompt": "be brief", "messages": [UserMessage(content="hi")],
                        **context})  # fmt: skip
    return [e async for e in stream(make_model(server), ctx, StreamOptions(**values))]


# --- Azure: where the request goes ------------------------------------------------------------


async def test_azure_request_names_the_deployment_and_version_with_the_key_in_api_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("AZURE_OPENAI_API_VERSION", "2025-04-01-preview")
    monkeypatch.setenv("AZURE_OPENAI_DEPLOYMENT_NAME_MAP", "gpt-4.1=old, gpt-5.4 = my-deploy")
    with FakeLLMServer() as server:
        server.queue(responses_stream("Hello there"))
        events = await collect("azure", server, {"session_id": "s-1", "reasoning": "high"})
    request = server.requests[0]
    assert request.path == "/openai/v1/responses?api-version=2025-04-01-preview"
    assert request.headers["api-key"] == "test-key" and "authorization" not in request.headers
    assert "session_id" not in request.headers and "x-client-request-id" not in request.headers
    body = request.json()
    assert list(body) == ["model", "input", "stream", "prompt_cache_key", "max_output_tokens",
                          "reasoning", "include"]  # fmt: skip
    assert body["model"] == "my-deploy" and body["prompt_cache_key"] == "s-1"
    assert body["reasoning"] == {"effort": "high", "summary": "auto"}
    final = events[-1]
    assert final.type == "done" and final.message.content[0].text == "Hello there"
    assert final.message.api == "azure-openai-responses"
    usage = final.message.usage
    assert (usage.input, usage.cache_read, usage.output) == (20, 10, 7)
    expected = (20 * 2.5 + 10 * 0.25 + 7 * 15) / 1e6
    assert usage.cost.total == pytest.approx(expected)


def test_azure_base_url_from_the_environment_first(monkeypatch: pytest.MonkeyPatch) -> None:
    from pi_plugin_openai.azure_config import base_url, normalize_base_url

    model = azure_model(None, base_url="http://127.0.0.1:9/custom")
    assert base_url(model) == "http://127.0.0.1:9/custom"
    monkeypatch.setenv("AZURE_OPENAI_RESOURCE_NAME", "acme")
    assert base_url(model) == "https://acme.openai.azure.com/openai/v1"
    monkeypatch.setenv("AZURE_OPENAI_BASE_URL", " https://acme.cognitiveservices.azure.com/ ")
    assert base_url(model) == "https://acme.cognitiveservices.azure.com/openai/v1"
    assert normalize_base_url("https://x.openai.azure.com/openai/") == (
        "https://x.openai.azure.com/openai/v1"
    )
    assert normalize_base_url("https://proxy.example/openai/") == "https://proxy.example/openai"
    with pytest.raises(ValueError, match="Invalid Azure OpenAI base URL"):
        normalize_base_url("acme")


async def test_azure_without_a_base_url_fails_with_pis_advice() -> None:
    events = await collect("azure", None)
    final = events[-1]
    assert final.type == "error"
    assert final.error.error_message.startswith("Azure OpenAI base URL is required.")


# --- Codex: identity and the backend's stream ------------------------------------------------


async def test_codex_request_carries_the_account_from_the_token() -> None:
    tools = [ToolSpec("read", "Read a file", {"type": "object"})]
    with FakeLLMServer() as server:
        server.queue(responses_stream("Hi"))
        options = {"session_id": "s-2", "reasoning": "minimal", "max_tokens": 5}
        events = await collect("codex", server, options, tools=tools)
    request = server.requests[0]
    assert request.path == "/codex/responses"
    headers = request.headers
    assert headers["authorization"] == f"Bearer {fake_jwt()}"
    assert headers["chatgpt-account-id"] == ACCOUNT_ID
    assert headers["originator"] == "pi" and headers["user-agent"].startswith("pi (")
    assert headers["openai-beta"] == "responses=experimental"
    assert headers["accept"] == "text/event-stream"
    assert headers["session_id"] == headers["x-client-request-id"] == "s-2"
    body = request.json()
    assert body["instructions"] == "be brief"
    assert body["input"] == [{"role": "user", "content": [{"type": "input_text", "text": "hi"}]}]
    assert body["store"] is False and "max_output_tokens" not in body
    assert body["include"] == ["reasoning.encrypted_content"]
    assert body["reasoning"] == {"effort": "low", "summary": "auto"}  # the model's map
    assert body["tools"][0]["strict"] is None
    assert events[-1].type == "done" and events[-1].message.content[0].text == "Hi"


def test_codex_url_and_account_id() -> None:
    from pi_plugin_openai.codex import codex_url
    from pi_plugin_openai.codex_auth import CodexTokenError, account_id

    assert codex_url(None) == "https://chatgpt.com/backend-api/codex/responses"
    assert codex_url("http://h/x/") == "http://h/x/codex/responses"
    assert codex_url("http://h/codex") == "http://h/codex/responses"
    assert codex_url("http://h/codex/responses/") == "http://h/codex/responses"
    assert account_id(fake_jwt("acct-9")) == "acct-9"
    for bad in ("not-a-jwt", fake_jwt("").replace("acct", ""), "a.!!!.c"):
        with pytest.raises(CodexTokenError, match="Failed to extract accountId from token"):
            account_id(bad)


async def test_codex_token_without_an_account_fails_before_sending() -> None:
    with FakeLLMServer() as server:
        events = await collect("codex", server, {"api_key": "opaque-token"})
    assert events[-1].type == "error"
    assert events[-1].error.error_message == "Failed to extract accountId from token"
    assert server.requests == []


async def test_codex_response_done_ends_the_response_and_what_follows_is_ignored() -> None:
    events = responses_events("Done.", final="response.done", status="weird")
    events += responses_events("ignored")[1:-1]  # a whole message item after the end
    with FakeLLMServer() as server:
        server.queue(FakeResponse.sse(events))
        final = (await collect("codex", server))[-1]
    assert final.type == "done" and final.message.stop_reason == "stop"
    assert [b.text for b in final.message.content] == ["Done."]
    assert final.message.response_id == "resp_1"


@pytest.mark.parametrize(
    ("last", "message"),
    [
        ({"type": "error", "code": "server_is_overloaded", "message": "Overloaded"},
         "Codex error: Overloaded"),
        ({"type": "error", "code": "bad_thing"}, "Codex error: bad_thing"),
        ({"type": "response.failed", "response": {"error": {"message": "It broke"}}}, "It broke"),
        ({"type": "response.failed", "response": {}}, "Codex response failed"),
    ],
    ids=["error-message", "error-code", "failed", "failed-bare"],
)  # fmt: skip
async def test_codex_stream_errors_keep_partial_text(last: dict[str, Any], message: str) -> None:
    events = [*responses_events("Partial answer")[:-2], last]
    with FakeLLMServer() as server:
        server.queue(FakeResponse.sse(events))
        final = (await collect("codex", server))[-1]
    assert final.type == "error" and final.error.error_message == message
    assert final.error.content[0].text == "Partial answer"


async def test_codex_usage_limit_reads_as_pi_and_is_not_retried_by_the_session() -> None:
    import time

    resets_at = int(time.time()) + 42 * 60 + 10
    error = {"code": "usage_limit_reached", "message": "The usage limit has been reached",
             "plan_type": "PLUS", "resets_at": resets_at}  # fmt: skip
    with FakeLLMServer() as server:
        server.queue(FakeResponse.json_body({"error": error}, status=429))
        final = (await collect("codex", server))[-1]
    message = "You have hit your ChatGPT usage limit (plus plan). Try again in ~42 min."
    assert final.type == "error" and final.error.error_message == message
    assert classify_error(final.error) == "fatal"


async def test_codex_retries_three_times_by_default() -> None:
    busy = {"error": {"message": "Service unavailable"}}
    with FakeLLMServer() as server:
        retry_now = {"retry-after-ms": "0"}
        server.queue(*[FakeResponse.json_body(busy, status=503, headers=retry_now)] * 3)
        server.queue(responses_stream("Finally"))
        stream, make_model, key = APIS["codex"]
        context = LLMContext(messages=[UserMessage(content="hi")])
        options = StreamOptions(api_key=key)
        events = [e async for e in stream(make_model(server), context, options)]
    assert len(server.requests) == 4
    assert events[-1].type == "done" and events[-1].message.content[0].text == "Finally"


async def test_codex_streams_a_recorded_openai_response_as_the_responses_api_does() -> None:
    """The backend's events are the Responses API's: a recording gives the same message."""
    recording = (
        Path(__file__).parent / "fixtures/replays/openai__test_responses_tool_use_streaming__0.sse"
    )
    messages = []
    for stream, model in ((stream_codex_responses, codex_model), (stream_responses, codex_model)):
        with FakeLLMServer() as server:
            server.queue(FakeResponse.replay(recording))
            context = LLMContext(messages=[UserMessage(content="hi")])
            options = StreamOptions(api_key=fake_jwt(), max_retries=0)
            events = [
                e async for e in stream(model(server, base_url=server.base_url), context, options)
            ]
        assert events[-1].type == "done"
        messages.append(events[-1].message.model_dump(exclude={"timestamp", "api"}))
    assert messages[0] == messages[1]
    assert any(block["type"] == "toolCall" for block in messages[0]["content"])


# --- both: HTTP errors, overflow, a cut stream, an abort --------------------------------------


@pytest.mark.parametrize("api", sorted(APIS))
async def test_http_errors_classify_as_pi(api: str) -> None:
    overflow = "Your input exceeds the context window of this model."
    with FakeLLMServer() as server:
        server.queue(
            FakeResponse.json_body({"error": {"message": "Rate limit reached"}}, status=429,
                                   headers={"retry-after": "20"}),
            FakeResponse.json_body({"error": {"message": overflow}}, status=400),
            FakeResponse.json_body({"error": {"message": "Incorrect API key"}}, status=401),
        )  # fmt: skip
        finals = [(await collect(api, server))[-1] for _ in range(3)]
    assert [f.type for f in finals] == ["error"] * 3
    kinds = [classify_error(f.error) for f in finals]
    if api == "azure":
        assert finals[0].error.error_message == "429 Rate limit reached (retry after 20 s)"
        assert kinds == ["retryable", "context_overflow", "fatal"]
    else:  # pi words every 429 from the backend as a usage limit, which it does not retry
        assert finals[0].error.error_message == "You have hit your ChatGPT usage limit."
        assert kinds == ["fatal", "context_overflow", "fatal"]
    assert finals[2].error.error_message.endswith("Incorrect API key")


@pytest.mark.parametrize("api", sorted(APIS))
async def test_cut_stream_keeps_partial_text(api: str) -> None:
    with FakeLLMServer() as server:
        server.queue(FakeResponse.sse(responses_events("Hello world!"), cut_after_chunks=4))
        final = (await collect(api, server))[-1]
    assert final.type == "error" and final.error.content[0].text == "Hello wo"
    assert classify_error(final.error) == "retryable"


@pytest.mark.parametrize("api", sorted(APIS))
async def test_abort_mid_stream(api: str) -> None:
    controller = AbortController()
    stream, make_model, key = APIS[api]
    with FakeLLMServer() as server:
        answer = FakeResponse.sse(responses_events("one two three"), pause_after_chunks=3)
        server.queue(answer)
        context = LLMContext(messages=[UserMessage(content="hi")])
        options = StreamOptions(api_key=key, signal=controller.signal, max_retries=0)
        events = []
        async for event in stream(make_model(server), context, options):
            events.append(event)
            if event.type == "text_delta":  # the first delta reached us: the rest is held back
                controller.abort()
    final = events[-1]
    assert final.type == "error" and final.error.stop_reason == "aborted"
    assert final.error.content[0].text == "one "


def test_without_this_plugin_the_core_names_it_for_both_apis() -> None:
    from pi_core.ai.api_plugins import api_cell

    for api in ("azure-openai-responses", "openai-codex-responses"):
        assert api_cell(api, streamable=False) == f"{api} (needs pi-plugin-openai)"


def test_azure_keeps_the_item_ids_of_tool_calls_as_pi_does() -> None:
    """Azure is one of pi's providers whose `call_id|item_id` tool-call ids keep the item id."""
    from pi_plugin_openai.azure import build_payload

    from pi_core.messages import AssistantMessage, TextContent, ToolCall, ToolResultMessage

    openai = {"api": "openai-responses", "provider": "openai", "model": "gpt-5.4"}
    messages = [
        UserMessage(content="q"),
        AssistantMessage(**openai, stop_reason="toolUse",
                         content=[ToolCall(id="call_1|fc_abc", name="read", arguments={})]),
        ToolResultMessage(tool_call_id="call_1|fc_abc", tool_name="read",
                          content=[TextContent(text="A")]),
    ]  # fmt: skip
    items = build_payload(azure_model(None), LLMContext(messages=messages), StreamOptions())
    call = items["input"][1]
    assert (call["call_id"], call["id"]) == ("call_1", "fc_1qaoofs1vxahbg")  # pi's id for it


@pytest.mark.parametrize(
    ("text", "digest"),
    [("fc_abc", "1qaoofs1vxahbg"), ("", "k4n83c7h0j2b"),
     ("msg_" + "0123456789abcdefghijklmnopqrstuvwxyz" * 2, "9qla0oue4xpw"),
     ("héllo 😀 wörld", "zpm4hl1o2ak9i"), ("toolu_01A09q90qw90lq917835lq9", "16u9r0o1roxgrb")],
)  # fmt: skip
def test_short_ids_are_pis(text: str, digest: str) -> None:
    """Hashed ids (another provider's call items, long message ids) are the ones pi-ai's
    `shortHash` gives (these digests were computed by it), so a resumed pi session matches."""
    from pi_core.providers import short_hash

    assert short_hash(text) == digest


async def test_codex_stops_reading_at_the_end_even_if_the_connection_stays_open() -> None:
    import asyncio

    events = responses_events("Done.", final="response.done")
    answer = FakeResponse.sse(events)
    answer.chunks.append(b": the backend keeps the connection open\n\n")
    answer.pause_after_chunks = len(events)  # everything sent, then the connection is held
    with FakeLLMServer() as server:
        server.queue(answer)
        async with asyncio.timeout(20):  # a guard against hanging, not a measurement
            final = (await collect("codex", server))[-1]
        # the server holds the connection once everything is sent (it may get there after the
        # client has already stopped reading)
        await answer.until_paused(10)
    assert final.type == "done" and final.message.content[0].text == "Done."
