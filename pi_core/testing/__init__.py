"""Test helpers shipped with the core: a loopback fake LLM server and a scripted provider."""

from pi_core.testing.fake_llm import FakeLLMServer, FakeResponse, RecordedRequest
from pi_core.testing.gate import PipeGate
from pi_core.testing.scripted import (
    ScriptedCall,
    ScriptedProvider,
    ScriptedResponse,
    call,
    reply,
    scripted_model,
)
from pi_core.testing.wire import chat_error, chat_models_json, chat_stream

__all__ = [
    "FakeLLMServer",
    "FakeResponse",
    "PipeGate",
    "RecordedRequest",
    "ScriptedCall",
    "ScriptedProvider",
    "ScriptedResponse",
    "call",
    "chat_error",
    "chat_models_json",
    "chat_stream",
    "reply",
    "scripted_model",
]
