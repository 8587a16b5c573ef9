"""The transcript format and the structure of the requests, checked piece by piece."""

from __future__ import annotations

from pi_plugin_compaction.branch import branch_instructions
from pi_plugin_compaction.compact import history_prompt, turn_prefix_prompt
from pi_plugin_compaction.prompts import BRANCH_PROMPT, SUMMARY_PROMPT, UPDATE_PROMPT
from pi_plugin_compaction.serialize import serialize_conversation, truncate_for_summary

from pi_core.messages import (
    AssistantMessage,
    BashExecutionMessage,
    ImageContent,
    TextContent,
    ThinkingContent,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)

SECTIONS = [
    "## Goal",
    "## Constraints & Preferences",
    "## Progress",
    "### Done",
    "### In Progress",
    "### Blocked",
    "## Key Decisions",
    "## Next Steps",
]


def test_each_role_reads_as_a_labelled_paragraph() -> None:
    messages = [
        UserMessage(content=[TextContent(text="Hi"), ImageContent(data="AA", mime_type="x")]),
        AssistantMessage(
            content=[
                ThinkingContent(thinking="hmm"),
                TextContent(text="Looking"),
                ToolCall(id="1", name="read", arguments={"path": "a é.py", "limit": 5}),
                ToolCall(id="2", name="ls", arguments={}),
            ]
        ),
        ToolResultMessage(tool_call_id="1", tool_name="read", content=[TextContent(text="ok")]),
        BashExecutionMessage(command="ls", output="a", exit_code=0),
        BashExecutionMessage(
            command="env", output="SECRET", exit_code=0, exclude_from_context=True
        ),
    ]

    assert serialize_conversation(messages) == (
        "[User]: Hi\n\n"
        "[Assistant thinking]: hmm\n\n"
        "[Assistant]: Looking\n\n"
        '[Assistant tool calls]: read(path="a é.py", limit=5); ls()\n\n'
        "[Tool result]: ok\n\n"
        "[User]: Ran `ls`\n```\na\n```"
    )


def test_long_tool_results_are_cut_with_a_note() -> None:
    assert truncate_for_summary("x" * 2000) == "x" * 2000
    assert (
        truncate_for_summary("x" * 2500) == "x" * 2000 + "\n\n[... 500 more characters truncated]"
    )
    # JavaScript counts UTF-16 units: an emoji is two
    assert truncate_for_summary("😀" * 1001).endswith("[... 2 more characters truncated]")


def test_a_new_summary_and_an_update_have_the_sections_and_their_tags() -> None:
    messages = [UserMessage(content="Do it")]
    new = history_prompt(messages)
    update = history_prompt(messages, "Old summary", "mind X")

    assert new == f"<conversation>\n[User]: Do it\n</conversation>\n\n{SUMMARY_PROMPT}"
    assert update == (
        "<conversation>\n[User]: Do it\n</conversation>\n\n"
        "<previous-summary>\nOld summary\n</previous-summary>\n\n"
        f"{UPDATE_PROMPT}\n\nAdditional focus: mind X"
    )
    for prompt in (SUMMARY_PROMPT, UPDATE_PROMPT):
        positions = [prompt.index(section) for section in [*SECTIONS, "## Critical Context"]]
        assert positions == sorted(positions)


def test_the_turn_prefix_and_branch_prompts() -> None:
    prefix = turn_prefix_prompt([UserMessage(content="Start")])
    assert prefix.startswith("<conversation>\n[User]: Start\n</conversation>\n\n")
    for section in ("## Original Request", "## Early Progress", "## Context for Suffix"):
        assert section in prefix
    assert all(section in BRANCH_PROMPT for section in SECTIONS)
    assert "## Critical Context" not in BRANCH_PROMPT
    assert branch_instructions(None, None) == BRANCH_PROMPT
    assert (
        branch_instructions("Be short", False) == BRANCH_PROMPT + "\n\nAdditional focus: Be short"
    )
    assert branch_instructions("Be short", True) == "Be short"
