"""The size limit on MCP tool results, as Claude Code applies it (`MAX_MCP_OUTPUT_TOKENS`).

A result larger than the limit does not reach the model whole: text is saved to a file and the
model is told where it is; a result with images keeps as much as fits, with a notice.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from typing import Any

from pi_plugin_mcp._pi import ImageContent, TextContent, ToolResult

DEFAULT_MAX_TOKENS = 25_000
CHARS_PER_TOKEN = 4
IMAGE_TOKENS = 1_600  # what Claude Code counts for one image
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


def max_output_tokens() -> int:
    """Return the limit: `$MAX_MCP_OUTPUT_TOKENS` when it is a positive integer, else 25,000."""
    raw = os.environ.get("MAX_MCP_OUTPUT_TOKENS", "").strip()
    if raw.isdigit() and int(raw) > 0:
        return int(raw)
    return DEFAULT_MAX_TOKENS


def estimated_tokens(result: ToolResult) -> int:
    """Estimate a result's size in tokens: four characters of text a token, 1,600 an image."""
    total = 0
    for block in result.content:
        if isinstance(block, TextContent):
            total += len(block.text) // CHARS_PER_TOKEN
        elif isinstance(block, ImageContent):
            total += IMAGE_TOKENS
    return total


def limit_result(result: ToolResult, server: str, tool: str) -> ToolResult:
    """Return the result unchanged when it fits the limit; else a small stand-in for it."""
    limit = max_output_tokens()
    if estimated_tokens(result) <= limit:
        return _without_large_structure(result, limit)
    if any(isinstance(block, ImageContent) for block in result.content):
        return _truncated(result, limit)
    return _saved(result, server, tool, limit)


def _saved(result: ToolResult, server: str, tool: str, limit: int) -> ToolResult:
    text, kind = _full_text(result)
    lines = text.count("\n") + (0 if text.endswith("\n") else 1)
    size = f"{len(text):,} characters in {lines:,} line{'s' if lines != 1 else ''}"
    prefix = f"pi-mcp-{_UNSAFE.sub('_', server)}-{_UNSAFE.sub('_', tool)}-"
    suffix = ".json" if kind == "JSON" else ".txt"
    try:
        handle, path = tempfile.mkstemp(prefix=prefix, suffix=suffix)
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
    except OSError as error:
        return ToolResult.text(
            f"Error: the result ({size}) is larger than the MCP output limit of {limit:,} "
            f"tokens, and saving it to a file failed: {error}. If the server can page or filter "
            "its output, ask it for a smaller part.",
            {"truncated": True},
        )
    return ToolResult.text(
        f"Error: the result ({size}) is larger than the MCP output limit of {limit:,} tokens. "
        f"Output too large for the context; the full output is saved in {path} ({kind}).\n"
        "Read it in parts (an offset and a limit of lines, or a slice of characters), or search "
        "it for what you need, rather than all at once. Before you summarise it, say how much of "
        "it you have read.",
        {"truncated": True, "fullOutputPath": path, "originalChars": len(text)},
    )


def _without_large_structure(result: ToolResult, limit: int) -> ToolResult:
    """Drop structured content over the limit from the details (the session file keeps them);
    the model sees the content, which fits."""
    details = result.details
    if not isinstance(details, dict) or details.get("structuredContent") is None:
        return result
    size = len(json.dumps(details["structuredContent"]))
    if size <= limit * CHARS_PER_TOKEN:
        return result
    kept = {key: value for key, value in details.items() if key != "structuredContent"}
    return ToolResult(content=result.content, details={**kept, "structuredContentChars": size})


def _full_text(result: ToolResult) -> tuple[str, str]:
    """The result's text as saved: its text blocks, or its structured content as JSON."""
    texts = [block.text for block in result.content if isinstance(block, TextContent)]
    if texts:
        return "\n".join(texts), "plain text"
    details: Any = result.details or {}
    return json.dumps(details.get("structuredContent"), indent=2), "JSON"


def _truncated(result: ToolResult, limit: int) -> ToolResult:
    budget = limit * CHARS_PER_TOKEN
    kept: list[Any] = []
    dropped = 0
    for block in result.content:
        if isinstance(block, TextContent):
            if budget <= 0:
                continue
            kept.append(TextContent(text=block.text[:budget]))
            budget -= len(kept[-1].text)
        elif isinstance(block, ImageContent):
            cost = IMAGE_TOKENS * CHARS_PER_TOKEN
            if cost <= budget:
                kept.append(block)
                budget -= cost
            else:
                dropped += 1
        else:
            kept.append(block)
    images = f" {dropped:,} image{'s' if dropped != 1 else ''} left out." if dropped else ""
    kept.append(
        TextContent(
            text=f"\n\n[OUTPUT TRUNCATED: the result exceeded the MCP output limit of {limit:,} "
            f"tokens.{images}]\nIf the server can page or filter its output, ask it for a "
            "smaller part; otherwise tell the user the output you saw is incomplete."
        )
    )
    return ToolResult(content=kept, details={"truncated": True})
