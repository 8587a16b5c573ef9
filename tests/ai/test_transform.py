"""transform_messages: what each model is sent, and that an unchanged history is not copied."""

from __future__ import annotations

from pi_core.ai.model import Model
from pi_core.ai.transform import NO_RESULT_TEXT, transform_messages
from pi_core.messages.content import ImageContent, TextContent, ThinkingContent, ToolCall
from pi_core.messages.llm import AssistantMessage, ToolResultMessage, UserMessage

TEXT_MODEL = Model(id="m", api="openai-completions", provider="p")
IMAGE_MODEL = Model(id="m", api="openai-completions", provider="p", input=["text", "image"])
IMAGE = ImageContent(data="aGk=", mime_type="image/png")


def _rename(call_id: str, model: Model, source: AssistantMessage) -> str:
    return call_id.replace("|", "_")


def _history() -> list[ToolResultMessage | AssistantMessage | UserMessage]:
    foreign = AssistantMessage(
        api="anthropic-messages",
        provider="anthropic",
        model="claude",
        content=[
            ThinkingContent(thinking="plan"),
            ToolCall(id="a|b", name="read", arguments={"path": "x"}),
        ],
        stop_reason="toolUse",
    )
    own = AssistantMessage(
        api="openai-completions",
        provider="p",
        model="m",
        content=[ToolCall(id="c1", name="ls", arguments={})],
        stop_reason="toolUse",
    )
    return [
        UserMessage(content=[TextContent(text="look"), IMAGE]),
        foreign,
        ToolResultMessage(tool_call_id="a|b", tool_name="read", content=[TextContent(text="x")]),
        UserMessage(content=[TextContent(text="plain")]),
        own,
        ToolResultMessage(
            tool_call_id="c1", tool_name="ls", content=[TextContent(text="t"), IMAGE]
        ),
        UserMessage(content="next"),
    ]


def test_text_model_gets_placeholders_renamed_ids_and_thinking_as_text() -> None:
    history = _history()
    sent = transform_messages(list(history), TEXT_MODEL, _rename)
    first = sent[0]
    assert isinstance(first, UserMessage) and not isinstance(first.content, str)
    assert [type(b).__name__ for b in first.content] == ["TextContent", "TextContent"]
    assert first.content[1] == TextContent(text="(image omitted: model does not support images)")
    foreign = sent[1]
    assert isinstance(foreign, AssistantMessage)
    assert foreign.content[0] == TextContent(text="plan")
    call = foreign.content[1]
    assert isinstance(call, ToolCall) and call.id == "a_b"
    result = sent[2]
    assert isinstance(result, ToolResultMessage) and result.tool_call_id == "a_b"
    tool_image = sent[5]
    assert isinstance(tool_image, ToolResultMessage)
    assert tool_image.content[1] == TextContent(
        text="(tool image omitted: model does not support images)"
    )
    # the originals are untouched
    assert history[2].tool_call_id == "a|b"  # type: ignore[union-attr]
    assert IMAGE in history[0].content  # type: ignore[operator]


def test_messages_needing_no_change_are_passed_as_they_are() -> None:
    history = _history()
    sent = transform_messages(list(history), TEXT_MODEL, _rename)
    for index in (3, 4, 6):  # text-only user, this model's own turn, a string prompt
        assert sent[index] is history[index]
    with_images = transform_messages(list(history), IMAGE_MODEL, _rename)
    assert with_images[0] is history[0] and with_images[5] is history[5]


def test_a_second_request_gets_the_same_transformed_objects() -> None:
    history = _history()
    first = transform_messages(list(history), TEXT_MODEL, _rename)
    second = transform_messages(list(history), TEXT_MODEL, _rename)
    assert len(first) == len(second) == len(history)
    assert all(a is b for a, b in zip(first, second, strict=True))
    # another model (here: one taking images) gets its own form, not the cached one
    other = transform_messages(list(history), IMAGE_MODEL, _rename)
    assert other[0] is history[0] and other[0] is not first[0]
    assert isinstance(other[2], ToolResultMessage) and other[2].tool_call_id == "a_b"


def test_a_call_left_without_result_is_answered_each_time() -> None:
    own = AssistantMessage(
        api="openai-completions",
        provider="p",
        model="m",
        content=[ToolCall(id="c9", name="ls", arguments={})],
        stop_reason="toolUse",
    )
    for _ in range(2):
        sent = transform_messages([UserMessage(content="q"), own], TEXT_MODEL)
        answer = sent[-1]
        assert isinstance(answer, ToolResultMessage) and answer.is_error
        assert answer.tool_call_id == "c9" and answer.content == [TextContent(text=NO_RESULT_TEXT)]


def _wire(messages: list[object]) -> list[dict[str, object]]:
    dumped = [m.model_dump(exclude={"timestamp"}) for m in messages]  # type: ignore[attr-defined]
    return dumped


def test_a_growing_history_transforms_as_if_from_scratch() -> None:
    """Each request resumes from the previous one's prefix; the result must not show it."""
    steps = [
        *_history(),
        AssistantMessage(
            api="openai-completions",
            provider="p",
            model="m",
            content=[ToolCall(id="c2", name="ls", arguments={})],
            stop_reason="toolUse",
        ),  # left without a result, then a failed turn, then another model's call
        AssistantMessage(api="openai-completions", provider="p", model="m", stop_reason="error"),
        UserMessage(content="again"),
        AssistantMessage(
            api="anthropic-messages",
            provider="anthropic",
            model="claude",
            content=[ToolCall(id="x|y", name="ls", arguments={})],
            stop_reason="toolUse",
        ),
        ToolResultMessage(tool_call_id="x|y", tool_name="ls", content=[TextContent(text="r")]),
        UserMessage(content="later"),  # a stray result after it: renamed all the same
        ToolResultMessage(tool_call_id="a|b", tool_name="read", content=[TextContent(text="s")]),
    ]
    for model in (TEXT_MODEL, IMAGE_MODEL):
        # from scratch first: copies are new objects, so nothing is resumed or found in a cache
        fresh = [
            _wire(transform_messages([m.model_copy() for m in steps[:count]], model, _rename))
            for count in range(1, len(steps) + 1)
        ]
        history: list[ToolResultMessage | AssistantMessage | UserMessage] = []
        for step, expected in zip(steps, fresh, strict=True):
            history.append(step)
            assert _wire(transform_messages(list(history), model, _rename)) == expected
    # a history that changed in the middle (a compaction, a branch switch) starts over
    changed = [UserMessage(content="summary"), *history[4:]]
    fresh = transform_messages([m.model_copy() for m in changed], TEXT_MODEL, _rename)
    assert _wire(transform_messages(changed, TEXT_MODEL, _rename)) == _wire(fresh)
