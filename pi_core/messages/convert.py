"""Turning the agent-side roles (bash, custom, summaries) into user messages an LLM reads."""

from __future__ import annotations

from pi_core.ai.message_cache import PrefixCache
from pi_core.messages.agent import (
    AgentMessage,
    BashExecutionMessage,
    BranchSummaryMessage,
    CompactionSummaryMessage,
    CustomMessage,
)
from pi_core.messages.content import TextContent
from pi_core.messages.llm import AssistantMessage, LLMMessage, ToolResultMessage, UserMessage

COMPACTION_SUMMARY_PREFIX = (
    "Earlier messages of this conversation were replaced by this summary to save space:"
    "\n\n<summary>\n"
)
COMPACTION_SUMMARY_SUFFIX = "\n</summary>"
BRANCH_SUMMARY_PREFIX = (
    "Before coming back here, the conversation went down another branch; what happened there, "
    "in brief:\n\n<summary>\n"
)
BRANCH_SUMMARY_SUFFIX = "</summary>"


def bash_execution_text(message: BashExecutionMessage) -> str:
    """Return how a user's shell command reads to the LLM (pi's wording)."""
    text = f"Ran `{message.command}`\n"
    text += f"```\n{message.output}\n```" if message.output else "(no output)"
    if message.cancelled:
        text += "\n\n(command cancelled)"
    elif message.exit_code not in (None, 0):
        text += f"\n\nCommand exited with code {message.exit_code}"
    if message.truncated and message.full_output_path:
        text += f"\n\n[Output truncated. Full output: {message.full_output_path}]"
    return text


def _user(text: str, timestamp: int) -> UserMessage:
    return UserMessage(content=[TextContent(text=text)], timestamp=timestamp)


_PREFIX: PrefixCache[list[LLMMessage]] = PrefixCache(size=2)
"""The previous call's messages and what they became: a call converts only the new ones (and
the user messages made for agent-side roles stay the same objects, so providers' caches hit)."""


def convert_to_llm(messages: list[AgentMessage]) -> list[LLMMessage]:
    """Convert a transcript for the LLM: agent-side roles become user messages, `!!` bash drops."""
    start, saved = _PREFIX.resume(None, messages)
    converted: list[LLMMessage] = list(saved) if saved is not None else []
    for message in messages[start:]:
        if isinstance(message, UserMessage | AssistantMessage | ToolResultMessage):
            converted.append(message)
        elif isinstance(message, BashExecutionMessage):
            if not message.exclude_from_context:
                converted.append(_user(bash_execution_text(message), message.timestamp))
        elif isinstance(message, CustomMessage):
            content = message.content
            blocks = [TextContent(text=content)] if isinstance(content, str) else list(content)
            converted.append(UserMessage(content=blocks, timestamp=message.timestamp))
        elif isinstance(message, BranchSummaryMessage):
            text = BRANCH_SUMMARY_PREFIX + message.summary + BRANCH_SUMMARY_SUFFIX
            converted.append(_user(text, message.timestamp))
        elif isinstance(message, CompactionSummaryMessage):
            text = COMPACTION_SUMMARY_PREFIX + message.summary + COMPACTION_SUMMARY_SUFFIX
            converted.append(_user(text, message.timestamp))
    _PREFIX.save(None, list(messages), list(converted))
    return converted
