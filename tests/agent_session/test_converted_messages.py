"""Messages are converted to the provider's form once and reused, and nothing can corrupt that."""

from __future__ import annotations

from typing import Any

from pi_core.ai.message_cache import MessageCache
from pi_core.messages.llm import UserMessage
from pi_core.testing import chat_stream
from tests.agent_session.conftest import Harness, plugin


def test_a_message_is_converted_once_per_variant() -> None:
    cache: MessageCache[str] = MessageCache()
    calls: list[str] = []
    message = UserMessage(content="hello")

    def convert(m: Any) -> str:
        calls.append(m.content)
        return f"converted {m.content}"

    assert cache.get(message, "a", convert) == "converted hello"
    assert cache.get(message, "a", convert) == "converted hello"
    assert calls == ["hello"]
    assert cache.get(message, "b", convert) == "converted hello"
    assert calls == ["hello", "hello"]


def test_an_entry_goes_when_its_message_does() -> None:
    cache: MessageCache[str] = MessageCache()
    message = UserMessage(content="short-lived")
    cache.get(message, None, lambda m: "x")
    assert len(cache) == 1
    del message
    assert len(cache) == 0


def test_a_new_message_is_never_given_another_ones_form() -> None:
    cache: MessageCache[str] = MessageCache()
    forms = [cache.get(UserMessage(content=str(n)), None, lambda m: m.content) for n in range(50)]
    assert forms == [str(n) for n in range(50)]


async def test_a_payload_hook_that_edits_in_place_changes_only_its_own_request(
    harness: Harness,
) -> None:
    calls: list[int] = []

    def edit_first_request(event: Any) -> None:
        calls.append(1)
        if len(calls) == 1:
            for message in event.payload["messages"]:
                if message["role"] == "user":
                    message["content"] = [{"type": "text", "text": "EDITED"}]

    harness.server.queue(chat_stream("One."), chat_stream("Two."))
    session = await harness.session(plugin(before_provider_request=edit_first_request))
    await session.prompt("first question")
    await session.prompt("second question")

    user_texts = [
        [m["content"][0]["text"] for m in harness.request(index)["messages"] if m["role"] == "user"]
        for index in (0, 1)
    ]
    assert user_texts == [["EDITED"], ["first question", "second question"]]
    texts = [m.content[0].text for m in session.agent.state.messages if isinstance(m, UserMessage)]
    assert texts == ["first question", "second question"]


async def test_requests_without_hooks_carry_the_whole_history(harness: Harness) -> None:
    answers = [f"Answer {n}." for n in range(4)]
    harness.server.queue(*(chat_stream(text) for text in answers))
    session = await harness.session()
    for n in range(4):
        await session.prompt(f"question {n}")

    last = harness.request(3)["messages"]
    conversation = [(m["role"], m["content"]) for m in last if m["role"] != "system"]
    expected: list[tuple[str, Any]] = []
    for n in range(4):
        expected.append(("user", [{"type": "text", "text": f"question {n}"}]))
        if n < 3:
            expected.append(("assistant", answers[n]))
    assert conversation == expected
