"""The message models other models embed are built once, when `pi_core.messages` is imported, so
an event that holds a message reuses their validators instead of generating them again."""

from __future__ import annotations

import subprocess
import sys

CHECK = """
import pi_core.messages as m
shared = [m.TextContent, m.ThinkingContent, m.ImageContent, m.ToolCall, m.UserMessage,
          m.AssistantMessage, m.ToolResultMessage, m.BashExecutionMessage, m.CustomMessage,
          m.BranchSummaryMessage, m.CompactionSummaryMessage]
print(sorted(c.__name__ for c in shared if not c.__pydantic_complete__))
from pi_core.events import MessageEndEvent
print(MessageEndEvent.__pydantic_complete__)
event = MessageEndEvent(message={"role": "user", "content": [{"type": "text", "text": "hi"}],
                                 "timestamp": 1})
print(type(event.message).__name__, event.to_wire()["message"]["content"][0]["text"])
"""


def test_embedded_message_models_are_built_on_import_and_events_stay_deferred() -> None:
    result = subprocess.run(
        [sys.executable, "-c", CHECK], capture_output=True, text=True, check=True
    )
    assert result.stdout.splitlines() == ["[]", "False", "UserMessage hi"]
