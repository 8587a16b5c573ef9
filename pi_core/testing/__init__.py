"""Test helpers shipped with the core: a loopback fake LLM server, a scripted provider,
`execute_tool_call`, which runs one tool call through the agent loop's own tool path, and
`console_script`, which finds `pi` next to the running interpreter."""

from pi_core.testing.fake_llm import FakeLLMServer, FakeResponse, RecordedRequest
from pi_core.testing.gate import PipeGate
from pi_core.testing.oauth_server import AuthRequest, FakeAuthServer
from pi_core.testing.scripted import (
    ScriptedCall,
    ScriptedProvider,
    ScriptedResponse,
    call,
    reply,
    scripted_model,
)
from pi_core.testing.scripts import console_script, path_with_scripts, scripts_dir
from pi_core.testing.tools import ToolOutcome, execute_tool_call
from pi_core.testing.wire import chat_error, chat_models_json, chat_stream

__all__ = [
    "AuthRequest",
    "FakeAuthServer",
    "FakeLLMServer",
    "FakeResponse",
    "PipeGate",
    "RecordedRequest",
    "ScriptedCall",
    "ScriptedProvider",
    "ScriptedResponse",
    "ToolOutcome",
    "call",
    "chat_error",
    "chat_models_json",
    "chat_stream",
    "console_script",
    "execute_tool_call",
    "path_with_scripts",
    "reply",
    "scripted_model",
    "scripts_dir",
]
