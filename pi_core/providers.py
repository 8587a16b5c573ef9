"""The provider API: what a plugin needs to stream an LLM's answer into pi.

A provider plugin registers a `ProviderConfig` (hook `register_providers`) and a `StreamFunction`
per API kind (hook `register_stream_functions`). The stream function receives a `Model`, an
`LLMContext` and `StreamOptions`, and yields `AssistantMessageEvent`s, most easily produced by an
`AssistantMessageBuilder`. An HTTP API streams most simply through `run_stream`: the plugin
gives a `WireAPI` (payload, request, decoding, a `WireTranslator`) and the skeleton does the rest
(payload hook, start, retries, abort, errors, done). The HTTP layer (`open_stream`,
`sse_events`, ...) lives in `pi_core.ai.http`, a public module imported inside the stream
function so that start-up never loads httpx. See docs/providers.md.
"""

from pi_core.ai.builder import AssistantMessageBuilder, parse_tool_arguments
from pi_core.ai.errors import ErrorKind, classify_error, is_context_overflow, with_retry_after
from pi_core.ai.message_cache import (
    EncodedParts,
    MessageCache,
    PrefixCache,
    encode_body,
    floatless_json_bytes,
    floatless_json_text,
    json_bytes,
    json_text,
)
from pi_core.ai.model import (
    InputKind,
    Model,
    ModelCost,
    ProviderConfig,
    ProviderModelConfig,
    ThinkingLevel,
)
from pi_core.ai.protocol import LLMContext, StreamFunction, StreamOptions, ToolSpec
from pi_core.ai.short_hash import short_hash
from pi_core.ai.stream_on_first_use import stream_on_first_use
from pi_core.ai.thinking_levels import clamp_thinking_level, supported_thinking_levels
from pi_core.ai.transform import NormalizeToolCallId, same_model, transform_messages
from pi_core.ai.wire_stream import (
    WireAPI,
    WireRequest,
    WireTranslator,
    describe_error,
    run_stream,
    sse_json,
)
from pi_core.messages.llm import LLMMessage
from pi_core.messages.stream import (
    AssistantMessageEvent,
    StreamDone,
    StreamError,
    StreamStart,
    TextDelta,
    TextEnd,
    TextStart,
    ThinkingDelta,
    ThinkingEnd,
    ThinkingStart,
    ToolCallDelta,
    ToolCallEnd,
    ToolCallStart,
)
from pi_core.thinking import THINKING_LEVELS

__all__ = [
    "THINKING_LEVELS",
    "AssistantMessageBuilder",
    "AssistantMessageEvent",
    "EncodedParts",
    "ErrorKind",
    "InputKind",
    "LLMContext",
    "LLMMessage",
    "MessageCache",
    "Model",
    "ModelCost",
    "NormalizeToolCallId",
    "PrefixCache",
    "ProviderConfig",
    "ProviderModelConfig",
    "StreamDone",
    "StreamError",
    "StreamFunction",
    "StreamOptions",
    "StreamStart",
    "TextDelta",
    "TextEnd",
    "TextStart",
    "ThinkingDelta",
    "ThinkingEnd",
    "ThinkingLevel",
    "ThinkingStart",
    "ToolCallDelta",
    "ToolCallEnd",
    "ToolCallStart",
    "ToolSpec",
    "WireAPI",
    "WireRequest",
    "WireTranslator",
    "clamp_thinking_level",
    "classify_error",
    "describe_error",
    "encode_body",
    "floatless_json_bytes",
    "floatless_json_text",
    "is_context_overflow",
    "json_bytes",
    "json_text",
    "parse_tool_arguments",
    "run_stream",
    "same_model",
    "short_hash",
    "sse_json",
    "stream_on_first_use",
    "supported_thinking_levels",
    "transform_messages",
    "with_retry_after",
]
