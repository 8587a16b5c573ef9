"""Pure translations between pi's and ACP's vocabularies: prompts, tool kinds, stop reasons."""

from __future__ import annotations

import os
from typing import Any

from acp.schema import (
    AudioContentBlock,
    EmbeddedResourceContentBlock,
    ImageContentBlock,
    ResourceContentBlock,
    StopReason,
    TextContentBlock,
    TextResourceContents,
    ToolCallLocation,
    ToolKind,
)

from pi_core.messages import ImageContent

PromptBlock = (
    TextContentBlock
    | ImageContentBlock
    | AudioContentBlock
    | ResourceContentBlock
    | EmbeddedResourceContentBlock
)

_KINDS: dict[str, ToolKind] = {
    "read": "read",
    "ls": "read",
    "write": "edit",
    "edit": "edit",
    "bash": "execute",
    "grep": "search",
    "find": "search",
    "web_fetch": "fetch",
    "webfetch": "fetch",
}


def prompt_to_pi(blocks: list[PromptBlock]) -> tuple[str, list[ImageContent]]:
    """Turn ACP prompt blocks into pi's prompt text and images (resources become text)."""
    parts: list[str] = []
    images: list[ImageContent] = []
    for block in blocks:
        if isinstance(block, TextContentBlock):
            parts.append(block.text)
        elif isinstance(block, ImageContentBlock):
            images.append(ImageContent(data=block.data, mime_type=block.mime_type))
        elif isinstance(block, ResourceContentBlock):
            parts.append(f"[@{block.name}]({block.uri})")
        elif isinstance(block, EmbeddedResourceContentBlock):
            resource = block.resource
            if isinstance(resource, TextResourceContents):
                parts.append(f'<context ref="{resource.uri}">\n{resource.text}\n</context>')
            else:
                parts.append(f"[binary resource {resource.uri}]")
    return "\n".join(parts), images


def tool_kind(name: str) -> ToolKind:
    """The ACP kind of a pi tool, from its name (`other` when unknown)."""
    return _KINDS.get(name.lower(), "other")


def _path(args: dict[str, Any], cwd: str) -> str | None:
    raw = args.get("path") or args.get("file_path")
    if not isinstance(raw, str) or not raw:
        return None
    return raw if os.path.isabs(raw) else os.path.normpath(os.path.join(cwd, raw))


def tool_title(name: str, args: Any) -> str:
    """A short human title for a tool call: `write notes.txt`, `bash: ls -la`."""
    args = args if isinstance(args, dict) else {}
    if name == "bash" and isinstance(args.get("command"), str):
        return f"bash: {args['command'].splitlines()[0] if args['command'] else ''}"
    target = args.get("path") or args.get("pattern") or args.get("file_path")
    return f"{name} {target}" if isinstance(target, str) and target else name


def tool_locations(args: Any, cwd: str) -> list[ToolCallLocation]:
    """The files a tool call touches, as absolute paths (line numbers when it says so)."""
    if not isinstance(args, dict):
        return []
    path = _path(args, cwd)
    if path is None:
        return []
    offset = args.get("offset")
    line = offset if isinstance(offset, int) and offset >= 0 else None
    return [ToolCallLocation(path=path, line=line)]


def stop_reason(pi_reason: str | None, cancelled: bool) -> StopReason:
    """ACP's stopReason for a turn that ended with pi's assistant stop reason."""
    if cancelled or pi_reason == "aborted":
        return "cancelled"
    if pi_reason == "length":
        return "max_tokens"
    return "end_turn"
