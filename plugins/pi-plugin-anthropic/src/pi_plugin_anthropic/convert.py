"""Turning pi's context into an Anthropic Messages request body."""

from __future__ import annotations

import os
import re
from typing import Any

from pi_core.messages import (
    AssistantMessage,
    ImageContent,
    TextContent,
    ThinkingContent,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from pi_core.providers import (
    EncodedParts,
    LLMContext,
    MessageCache,
    Model,
    PrefixCache,
    StreamOptions,
    json_bytes,
    transform_messages,
)
from pi_plugin_anthropic.claude_code_tools import to_claude_code
from pi_plugin_anthropic.oauth_identity import is_oauth_token, oauth_system
from pi_plugin_anthropic.tools import anthropic_tool

THINKING_BUDGETS = {"minimal": 1024, "low": 2048, "medium": 8192, "high": 16384}
EFFORTS = {"minimal": "low", "low": "low", "medium": "medium", "high": "high", "xhigh": "high"}
ADAPTIVE_MODELS = ("opus-4-6", "opus-4.6", "opus-4-7", "opus-4.7", "sonnet-4-6", "sonnet-4.6")
MIN_OUTPUT_TOKENS = 1024
CACHE = {"type": "ephemeral"}


def _effort(model: Model, level: str) -> str:
    """The adaptive effort for a level: the model's `thinkingLevelMap` name, else pi's default."""
    mapped = (model.thinking_level_map or {}).get(level)
    return mapped if isinstance(mapped, str) else EFFORTS.get(level, "high")


def _thinking(model: Model, options: StreamOptions, max_tokens: int) -> dict[str, Any]:
    """Adaptive thinking with an effort on 4.6+ models, a token budget on older ones (as pi)."""
    level = options.reasoning or "medium"
    if any(marker in model.id for marker in ADAPTIVE_MODELS):
        return {
            "thinking": {"type": "adaptive", "display": "summarized"},
            "output_config": {"effort": _effort(model, level)},
        }
    budgets = {**THINKING_BUDGETS, **(options.thinking_budgets or {})}
    budget = budgets.get("high" if level == "xhigh" else level, THINKING_BUDGETS["medium"])
    total = min(max_tokens + budget, model.max_tokens) if model.max_tokens else max_tokens + budget
    if total <= budget:
        budget = max(0, total - MIN_OUTPUT_TOKENS)
    return {
        "max_tokens": total,
        "thinking": {"type": "enabled", "budget_tokens": budget, "display": "summarized"},
    }


def _user_blocks(content: list[Any]) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = []
    for block in content:
        if isinstance(block, TextContent):
            blocks.append({"type": "text", "text": block.text})
        elif isinstance(block, ImageContent):
            source = {"type": "base64", "media_type": block.mime_type, "data": block.data}
            blocks.append({"type": "image", "source": source})
    return blocks


def _user_content(message: UserMessage) -> str | list[dict[str, Any]] | None:
    """A user message's content as pi sends it: a string stays one, blank text is left out."""
    if isinstance(message.content, str):
        return message.content if message.content.strip() else None
    blocks = [b for b in _user_blocks(message.content) if b["type"] != "text" or b["text"].strip()]
    return blocks or None


def _tool_result_content(content: list[Any]) -> str | list[dict[str, Any]]:
    """A tool result's content as pi sends it: its texts joined as one string, or blocks when it
    holds an image (with a placeholder text if it has none)."""
    if not any(isinstance(block, ImageContent) for block in content):
        return "\n".join(block.text for block in content if isinstance(block, TextContent))
    blocks = _user_blocks(content)
    if not any(block["type"] == "text" for block in blocks):
        blocks.insert(0, {"type": "text", "text": "(see attached image)"})
    return blocks


def _assistant_blocks(message: AssistantMessage, oauth: bool) -> list[dict[str, Any]]:
    same_provider = message.api == "anthropic-messages"
    blocks: list[dict[str, Any]] = []
    for block in message.content:
        if isinstance(block, TextContent) and block.text.strip():
            blocks.append({"type": "text", "text": block.text})
        elif isinstance(block, ThinkingContent):
            if block.redacted and block.thinking_signature and same_provider:
                blocks.append({"type": "redacted_thinking", "data": block.thinking_signature})
            elif block.thinking_signature and same_provider and block.thinking.strip():
                blocks.append(
                    {"type": "thinking", "thinking": block.thinking,
                     "signature": block.thinking_signature}
                )  # fmt: skip
            elif block.thinking.strip():  # unsigned reasoning (another provider's): as text
                blocks.append({"type": "text", "text": block.thinking})
        elif isinstance(block, ToolCall):
            name = to_claude_code(block.name) if oauth else block.name
            blocks.append(
                {"type": "tool_use", "id": block.id, "name": name, "input": block.arguments}
            )
    return blocks


def _tool_result(message: ToolResultMessage) -> dict[str, Any]:
    content = _tool_result_content(message.content)
    return {
        "type": "tool_result",
        "tool_use_id": message.tool_call_id,
        "content": content,
        "is_error": message.is_error,
    }


_BLOCKS: MessageCache[tuple[Any, tuple[tuple[Any, bytes], ...]]] = MessageCache()
"""Each message's blocks (a tool result: its one block) and each block's JSON text, read-only:
request bodies share them; by whether tool names are Claude Code's (a subscription token)."""


def _blocks_of(message: Any, oauth: bool) -> Any:
    if isinstance(message, UserMessage):
        return _user_content(message)
    if isinstance(message, AssistantMessage):
        return _assistant_blocks(message, oauth)
    if isinstance(message, ToolResultMessage):
        return _tool_result(message)
    return None


def _blocks_and_texts(message: Any, oauth: bool) -> tuple[Any, tuple[tuple[Any, bytes], ...]]:
    converted = _blocks_of(message, oauth)
    if isinstance(converted, str):  # a user message's plain text: its JSON string
        return converted, ((converted, json_bytes(converted)),)
    blocks = converted if isinstance(converted, list) else [converted] if converted else []
    return converted, tuple((block, json_bytes(block)) for block in blocks)


def normalize_tool_call_id(call_id: str, model: Model, source: AssistantMessage) -> str:
    """Another model's tool-call id as the Messages API takes it: at most 64 safe characters."""
    return re.sub(r"[^a-zA-Z0-9_-]", "_", call_id)[:64]


class _Turns:
    """API messages being built: one per user or assistant message, consecutive tool results
    sharing one user message (as the API requires), each with its blocks' JSON texts."""

    __slots__ = ("messages", "oauth", "texts")

    def __init__(self, oauth: bool) -> None:
        self.oauth = oauth
        self.messages: list[dict[str, Any]] = []
        self.texts: list[list[bytes]] = []

    def add(self, message: Any) -> bool:
        """Add one context message; return whether it closed the turns before it (an assistant
        message was added: nothing later joins an earlier API message)."""
        oauth = self.oauth
        converted, texts = _BLOCKS.get(message, oauth, lambda m: _blocks_and_texts(m, oauth))
        encoded = [text for _, text in texts]
        if isinstance(message, UserMessage):
            if converted:
                content = converted if isinstance(converted, str) else list(converted)
                self._append("user", content, encoded)
        elif isinstance(message, AssistantMessage):
            if converted:
                self._append("assistant", list(converted), encoded)
                return True
        elif isinstance(message, ToolResultMessage):
            last = self.messages[-1] if self.messages else None
            if last and last["role"] == "user" and _ends_with_tool_result(last["content"]):
                last["content"].append(converted)
                self.texts[-1].extend(encoded)
            else:
                self._append("user", [converted], encoded)
        return False

    def _append(self, role: str, blocks: str | list[dict[str, Any]], texts: list[bytes]) -> None:
        self.messages.append({"role": role, "content": blocks})
        self.texts.append(texts)

    def encoded(self, start: int, end: int) -> list[bytes]:
        """The JSON text of the API messages from `start` to `end`."""
        return [
            _message_json(message["role"], texts)
            for message, texts in zip(self.messages[start:end], self.texts[start:end], strict=True)
        ]


def _message_json(role: str, texts: list[bytes]) -> bytes:
    """The JSON text of `{"role": role, "content": blocks}`, from its blocks' texts (one JSON
    string: the content is that string)."""
    if len(texts) == 1 and texts[0].startswith(b'"'):
        return b'{"role":"' + role.encode() + b'","content":' + texts[0] + b"}"
    return b'{"role":"' + role.encode() + b'","content":[' + b",".join(texts) + b"]}"


def _ends_with_tool_result(content: str | list[dict[str, Any]]) -> bool:
    return isinstance(content, list) and content[-1]["type"] == "tool_result"


_Saved = tuple[list[dict[str, Any]], list[bytes]]
_PREFIXES: PrefixCache[_Saved] = PrefixCache()
"""The previous request's finished API messages (up to its last assistant message: nothing after
it can change them) and each one's JSON text, by model."""
_CACHEABLE = ("text", "image", "tool_result")


def cache_mark(model: Model) -> dict[str, Any]:
    """pi's cache mark: an hour's with `PI_CACHE_RETENTION=long` where the model allows it
    (`compat.supportsLongCacheRetention`), else the default five minutes."""
    retention = os.environ.get("PI_CACHE_RETENTION")
    if retention == "long" and (model.compat or {}).get("supportsLongCacheRetention", True):
        return {"type": "ephemeral", "ttl": "1h"}
    return CACHE


def _mark_last(messages: list[dict[str, Any]], encoded: list[bytes], mark: dict[str, Any]) -> None:
    """Mark the last message for caching if it is the user's, as pi does (its last block, if
    text, image or tool result; a plain string becomes a marked text block)."""
    if not messages or messages[-1]["role"] != "user":
        return
    content = messages[-1]["content"]
    if isinstance(content, str):
        marked: Any = [{"type": "text", "text": content, "cache_control": mark}]
    elif content and content[-1]["type"] in _CACHEABLE:
        marked = [*content[:-1], {**content[-1], "cache_control": mark}]
    else:
        return
    messages[-1] = {"role": "user", "content": marked}
    encoded[-1] = json_bytes(messages[-1])


def build_messages(
    model: Model, context: LLMContext, parts: EncodedParts | None = None, oauth: bool = False
) -> list[dict[str, Any]]:
    """Convert messages; consecutive tool results share one user message, as the API requires.
    The last user message's last block is marked for prompt caching. Messages up to the previous
    request's last assistant message are taken as they were (with their JSON text, which `parts`,
    if given, gets for the whole list), so a long history is not converted again. With `oauth`
    (a subscription token) tool calls carry Claude Code's tool names."""
    transformed = transform_messages(context.messages, model, normalize_tool_call_id)
    key = (model.provider, model.api, model.id, oauth)
    start, saved = _PREFIXES.resume(key, transformed)
    finished = list(saved[0]) if saved is not None else []
    finished_json = list(saved[1]) if saved is not None else []
    turns, closed_at, closed_count = _Turns(oauth), start, 0
    for position, message in enumerate(transformed[start:], start):
        if turns.add(message):
            closed_at, closed_count = position + 1, len(turns.messages)
    # what the new messages made up to their last assistant message is final: keep it for the next
    # request (the user messages after it may still gain tool results, or the cache mark)
    finished += turns.messages[:closed_count]
    finished_json += turns.encoded(0, closed_count)
    _PREFIXES.save(key, transformed[:closed_at], (finished, finished_json))
    messages = finished + turns.messages[closed_count:]
    encoded = finished_json + turns.encoded(closed_count, len(turns.messages))
    _mark_last(messages, encoded, cache_mark(model))
    if parts is not None and encoded:
        pieces = [b","] * (2 * len(encoded) - 1)
        pieces[::2] = encoded  # each message's text, commas between: copied once, by encode_body
        parts.add(messages, [b"[", *pieces, b"]"])
    return messages


def build_payload(
    model: Model,
    context: LLMContext,
    options: StreamOptions,
    parts: EncodedParts | None = None,
) -> dict[str, Any]:
    """Return the request body: system (cached), messages, tools, token limit, thinking
    (`parts` as for `build_messages`). A subscription token sends Claude Code's identity and
    tool names, as pi does."""
    oauth = is_oauth_token(options.api_key)
    payload: dict[str, Any] = {
        "model": model.id,
        "messages": build_messages(model, context, parts, oauth),
        "max_tokens": options.max_tokens or min(model.max_tokens or 32_000, 32_000),
        "stream": True,
    }
    mark = cache_mark(model)
    if oauth:
        payload["system"] = oauth_system(context.system_prompt, mark)
    elif context.system_prompt:
        system = {"type": "text", "text": context.system_prompt}
        payload["system"] = [{**system, "cache_control": mark}]
    if context.tools:
        eager = (model.compat or {}).get("supportsEagerToolInputStreaming", True)
        payload["tools"] = [
            anthropic_tool(
                tool,
                eager,
                mark if index == len(context.tools) - 1 else None,
                to_claude_code(tool.name) if oauth else tool.name,
            )
            for index, tool in enumerate(context.tools)
        ]
    if model.reasoning and options.reasoning:
        payload.update(_thinking(model, options, payload["max_tokens"]))
    else:
        if model.reasoning:
            payload["thinking"] = {"type": "disabled"}
        if options.temperature is not None:
            payload["temperature"] = options.temperature
    return payload
