"""Test helpers shipped with the core: a loopback fake LLM server."""

from pi_core.testing.fake_llm import FakeLLMServer, FakeResponse, RecordedRequest

__all__ = ["FakeLLMServer", "FakeResponse", "RecordedRequest"]
