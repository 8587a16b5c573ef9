"""Each converted message's JSON in a Chat Completions body: the bytes `json` writes."""

from __future__ import annotations

import shutil
from pathlib import Path

from pi_plugin_openai.convert import arguments_json, build_messages, normalize_tool_call_id

from pi_core.ai.message_cache import EncodedParts, encode_body, json_bytes, json_text
from pi_core.ai.model import Model
from pi_core.ai.protocol import LLMContext
from pi_core.ai.transform import transform_messages
from pi_core.messages import AssistantMessage, ToolCall, UserMessage
from pi_core.session.manager import SessionManager

LARGE = Path(__file__).parents[3] / "tests" / "fixtures" / "sessions" / "large-session.jsonl"
MODEL = Model(id="fake-model", api="openai-completions", provider="fake", base_url="http://x")


def _body(messages: list[object]) -> tuple[bytes, bytes]:
    """The body spliced from the messages' cached JSON, and the same list encoded whole."""
    parts = EncodedParts()
    context = LLMContext(system_prompt="s", messages=messages)  # type: ignore[arg-type]
    converted = build_messages(MODEL, context, parts)
    return encode_body({"messages": converted}, parts), json_bytes({"messages": converted})


def test_another_models_session_encodes_as_json_does(tmp_path: Path) -> None:
    copy = tmp_path / "large.jsonl"
    shutil.copyfile(LARGE, copy)
    messages = SessionManager.open(copy).build_session_context().messages
    assert len(transform_messages(messages, MODEL, normalize_tool_call_id)) > 800
    spliced, whole = _body(list(messages))
    assert spliced == whole


def test_a_float_in_reasoning_details_is_written_as_json_writes_it() -> None:
    detail = '{"type":"reasoning.encrypted","data":"x","score":1e-07,"ratio":0.00001}'
    call = ToolCall(id="call_1", name="read", arguments={"path": "a"}, thought_signature=detail)
    assistant = AssistantMessage(
        content=[call], api=MODEL.api, provider=MODEL.provider, model=MODEL.id
    )
    assistant.stop_reason = "toolUse"
    spliced, whole = _body([UserMessage(content="go"), assistant])
    assert spliced == whole
    assert b'"score":1e-07,"ratio":1e-05' in spliced


def test_tool_call_arguments_are_written_as_json_writes_them() -> None:
    for arguments in (
        {"path": "src/é.py", "command": 'echo "\x1b[1m"\n\t\\ \u2028 \U0001f600'},
        {"limit": 10, "ratio": 1e-07, "flags": [True, None]},
        {"lone": "x\ud800"},
        {},
    ):
        assert arguments_json(arguments) == json_text(arguments)
