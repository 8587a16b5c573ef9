"""Token accounting: pi's chars/4 estimate per role, reported usage, the compaction threshold."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from pi_core.compaction import (
    CompactionSettings,
    calculate_context_tokens,
    estimate_context_tokens,
    estimate_tokens,
    get_last_assistant_usage,
    get_latest_compaction_entry,
    should_compact,
)
from pi_core.messages import (
    AgentMessage,
    AssistantMessage,
    BashExecutionMessage,
    BranchSummaryMessage,
    CompactionSummaryMessage,
    CustomMessage,
    ImageContent,
    TextContent,
    ThinkingContent,
    ToolCall,
    ToolResultMessage,
    Usage,
    UserMessage,
)
from pi_core.resources.settings import CompactionSettings as SettingsFileCompaction

if TYPE_CHECKING:
    from tests.compaction.conftest import Chain

IMAGE = ImageContent(data="AAAA", mime_type="image/png")


def test_user_text_is_four_characters_a_token_rounded_up() -> None:
    assert estimate_tokens(UserMessage(content="x" * 9)) == 3
    assert (
        estimate_tokens(UserMessage(content=[TextContent(text="abcd"), TextContent(text="e")])) == 2
    )
    assert estimate_tokens(UserMessage(content="")) == 0


def test_images_count_1200_tokens_in_tool_results_and_custom_messages_but_not_user_messages() -> (
    None
):
    result = ToolResultMessage(
        tool_call_id="c", tool_name="read", content=[TextContent(text="abcd"), IMAGE, IMAGE]
    )
    assert estimate_tokens(result) == 1 + 2 * 1_200
    assert estimate_tokens(CustomMessage(custom_type="x", content=[IMAGE])) == 1_200
    assert estimate_tokens(CustomMessage(custom_type="x", content="abcdabcd")) == 2
    # pi counts only the text of user messages
    assert estimate_tokens(UserMessage(content=[TextContent(text="abcd"), IMAGE])) == 1


def test_assistant_counts_text_thinking_and_tool_name_plus_json_arguments() -> None:
    message = AssistantMessage(
        content=[
            TextContent(text="abc"),
            ThinkingContent(thinking="de"),
            ToolCall(id="1", name="read", arguments={"path": "a.py", "limit": 5}),
        ]
    )
    arguments = '{"path":"a.py","limit":5}'
    assert estimate_tokens(message) == -(-(3 + 2 + 4 + len(arguments)) // 4)


def test_agent_side_roles() -> None:
    assert estimate_tokens(BashExecutionMessage(command="ls", output="a\nb\n")) == 2
    assert estimate_tokens(BranchSummaryMessage(summary="x" * 8, from_id="e")) == 2
    assert estimate_tokens(CompactionSummaryMessage(summary="x" * 5, tokens_before=9)) == 2


def test_characters_are_counted_as_javascript_does() -> None:
    # an emoji is two UTF-16 code units in JavaScript; é is one
    assert estimate_tokens(UserMessage(content="😀😀")) == 1
    assert estimate_tokens(UserMessage(content="😀😀é")) == 2
    message = AssistantMessage(content=[ToolCall(id="1", name="w", arguments={"t": "é😀\n"})])
    assert estimate_tokens(message) == -(-(1 + len('{"t":"é') + 2 + len('\\n"}')) // 4)


def test_context_tokens_prefer_total_tokens_then_the_sum() -> None:
    assert calculate_context_tokens(Usage(input=1, output=2, total_tokens=50)) == 50
    assert calculate_context_tokens(Usage(input=1, output=2, cache_read=3, cache_write=4)) == 10


def test_estimate_uses_the_last_valid_usage_plus_the_messages_after_it() -> None:
    messages: list[AgentMessage] = [
        UserMessage(content="x" * 400),
        AssistantMessage(usage=Usage(total_tokens=500)),
        UserMessage(content="x" * 40),
        AssistantMessage(usage=Usage(total_tokens=9_000), stop_reason="aborted"),
        AssistantMessage(usage=Usage(total_tokens=9_000), stop_reason="error"),
        UserMessage(content="x" * 80),
    ]
    estimate = estimate_context_tokens(messages)
    assert estimate.last_usage_index == 1
    assert estimate.usage_tokens == 500
    assert estimate.trailing_tokens == 10 + 0 + 0 + 20
    assert estimate.tokens == 530


def test_estimate_without_usage_sums_every_message() -> None:
    estimate = estimate_context_tokens([UserMessage(content="x" * 8), UserMessage(content="x")])
    assert tuple(estimate) == (3, 0, 3, None)
    assert tuple(estimate_context_tokens([])) == (0, 0, 0, None)


@pytest.mark.parametrize(
    ("tokens", "expected"), [(100_000 - 16_384, False), (100_000 - 16_383, True)]
)
def test_compaction_is_due_above_window_minus_reserve(tokens: int, expected: bool) -> None:
    assert should_compact(tokens, 100_000, CompactionSettings()) is expected
    assert should_compact(tokens, 100_000, SettingsFileCompaction()) is expected
    assert should_compact(10**9, 100_000, CompactionSettings(enabled=False)) is False


def test_latest_compaction_and_last_usage(chain: Chain) -> None:
    assert get_latest_compaction_entry(chain.entries) is None
    assert get_last_assistant_usage(chain.entries) is None
    chain.user()
    chain.assistant(total=77)
    first = chain.compaction("e0")
    chain.assistant(total=88, stop_reason="aborted")
    second = chain.compaction("e1")
    chain.user()
    latest = get_latest_compaction_entry(chain.entries)
    assert latest is not None and latest.id == second != first
    usage = get_last_assistant_usage(chain.entries)
    assert usage is not None and usage.total_tokens == 77
