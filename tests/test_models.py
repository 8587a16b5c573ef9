"""Messages and events read and write pi's camelCase JSON, and keep unknown fields."""

from __future__ import annotations

from pi_core import AssistantMessage, ToolCall, make_tool_call_event, make_tool_result_event
from pi_core.compaction import CompactionPreparation
from pi_core.events import (
    BashToolCallEvent,
    CustomToolCallEvent,
    CustomToolResultEvent,
    ReadToolResultEvent,
    SessionBeforeCompactEvent,
)
from pi_core.messages import parse_agent_message
from pi_core.tools import BashToolInput, ReadToolInput


def test_assistant_message_round_trips_camel_case() -> None:
    wire = {
        "role": "assistant",
        "content": [
            {"type": "thinking", "thinking": "hmm", "thinkingSignature": "sig"},
            {"type": "toolCall", "id": "t1", "name": "read", "arguments": {"path": "a"}},
        ],
        "api": "anthropic-messages",
        "provider": "anthropic",
        "model": "claude",
        "usage": {
            "input": 1,
            "output": 2,
            "cacheRead": 3,
            "cacheWrite": 4,
            "totalTokens": 10,
            "cost": {"input": 0.5, "output": 1, "cacheRead": 0, "cacheWrite": 0, "total": 1.5},
        },
        "stopReason": "toolUse",
        "timestamp": 1700000000000,
        "futureField": {"kept": True},
    }
    message = parse_agent_message(wire)
    assert isinstance(message, AssistantMessage)
    assert message.usage.cache_read == 3 and message.stop_reason == "toolUse"
    assert isinstance(message.content[1], ToolCall)
    assert message.to_wire() == wire


def test_agent_roles_parse() -> None:
    bash = parse_agent_message(
        {"role": "bashExecution", "command": "ls", "output": "x", "exitCode": 0,
         "cancelled": False, "truncated": False, "timestamp": 1}
    )  # fmt: skip
    assert bash.role == "bashExecution" and bash.exit_code == 0
    custom = parse_agent_message(
        {"role": "custom", "customType": "note", "content": "c", "display": False, "timestamp": 1}
    )
    assert custom.custom_type == "note"


def test_tool_call_variants() -> None:
    event = make_tool_call_event("bash", "c1", BashToolInput(command="ls"))
    assert isinstance(event, BashToolCallEvent)
    assert event.to_wire() == {
        "type": "tool_call",
        "toolCallId": "c1",
        "toolName": "bash",
        "input": {"command": "ls"},
    }
    # a tool named like a built-in but with other parameters is treated as custom
    mismatch = make_tool_call_event("bash", "c2", ReadToolInput(path="x"))
    assert isinstance(mismatch, CustomToolCallEvent)


def test_tool_result_variants() -> None:
    read = make_tool_result_event("read", "c1", {}, [], {"truncation": None}, False)
    assert isinstance(read, ReadToolResultEvent)
    odd = make_tool_result_event("read", "c1", {}, [], {"unexpected": 1}, False)
    assert isinstance(odd, ReadToolResultEvent)  # unknown keys are kept, not rejected
    custom = make_tool_result_event("mine", "c1", {}, [], 42, True)
    assert isinstance(custom, CustomToolResultEvent) and custom.details == 42


def test_abort_signal_is_not_serialized() -> None:
    event = SessionBeforeCompactEvent(preparation=CompactionPreparation(first_kept_entry_id="a"))
    wire = event.to_wire()
    assert "signal" not in wire and wire["preparation"]["firstKeptEntryId"] == "a"


def test_public_api_names_resolve_lazily() -> None:
    import subprocess
    import sys

    import pi_core

    for name in pi_core.__all__:
        assert getattr(pi_core, name) is not None, name
    # importing the package alone pulls in neither pydantic nor pluggy
    probe = "import sys, pi_core; print('pydantic' in sys.modules, 'pluggy' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.stdout.split() == ["False", "False"]
