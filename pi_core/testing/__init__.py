"""Test helpers shipped with the core: a loopback fake LLM server and a scripted provider."""

from pi_core.testing.fake_llm import FakeLLMServer, FakeResponse, RecordedRequest
from pi_core.testing.scripted import (
    ScriptedCall,
    ScriptedProvider,
    ScriptedResponse,
    call,
    reply,
    scripted_model,
)

__all__ = [
    "FakeLLMServer",
    "FakeResponse",
    "RecordedRequest",
    "ScriptedCall",
    "ScriptedProvider",
    "ScriptedResponse",
    "call",
    "reply",
    "scripted_model",
]
