"""One session entry as an HTML fragment: messages, tool calls, compaction and branch summaries."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from pi_core import deep
from pi_core.export.markdown import escape, render_markdown
from pi_core.export.tools import expandable_output, image_html, render_tool_call
from pi_core.export.tree import RawEntry, string, text_of

_SKILL = re.compile(
    r'^<skill name="([^"]+)" location="([^"]+)">\n([\s\S]*?)\n</skill>(?:\n\n([\s\S]+))?$'
)


class EntryRenderer:
    """Renders entries; tool results are shown with the call that asked for them."""

    def __init__(
        self,
        entries: list[RawEntry],
        home: str = "",
        find_result: Callable[[str], RawEntry | None] | None = None,
    ) -> None:
        self.home = home
        self.results: dict[str, RawEntry] = {}
        self._find_result = find_result or self.results.get
        for entry in entries if find_result is None else ():
            message = entry.get("message")
            if entry.get("type") == "message" and isinstance(message, dict):
                call_id = message.get("toolCallId")
                if message.get("role") == "toolResult" and isinstance(call_id, str):
                    self.results.setdefault(call_id, message)

    def render(self, entry: RawEntry) -> str:
        """The entry's HTML ("" for entries the conversation view does not show)."""
        kind = entry.get("type")
        body, css = "", ""
        if kind == "message" and isinstance(entry.get("message"), dict):
            body, css = self._message(entry["message"])
        elif kind == "model_change":
            model = f"{string(entry.get('provider'))}/{string(entry.get('modelId'))}"
            body, css = (
                f'Switched to model: <span class="model-name">{escape(model)}</span>',
                "model-change",
            )
        elif kind == "thinking_level_change":
            level = string(entry.get("thinkingLevel"))
            body, css = f"Thinking level: {escape(level)}", "model-change"
        elif kind == "compaction":
            body, css = _compaction(entry), "compaction"
        elif kind == "branch_summary":
            summary = render_markdown(string(entry.get("summary")))
            body = f'<div class="block-title">Branch Summary</div>{_markdown_div(summary)}'
            css = "branch-summary"
        elif kind == "custom_message" and entry.get("display", True) is not False:
            body, css = (
                _custom(string(entry.get("customType")), entry.get("content")),
                "custom-message",
            )
        if not body:
            return ""
        entry_id = string(entry.get("id"))
        stamp = _timestamp(entry.get("timestamp"))
        href = escape(quote(entry_id, safe=""))
        link = f'<a class="permalink" href="#{href}" title="Link to this message">#</a>'
        return (
            f'<div class="entry {css}" id="entry-{escape(entry_id)}">'
            f'<div class="entry-meta">{stamp}{link}</div>{body}</div>'
        )

    def _message(self, message: RawEntry) -> tuple[str, str]:
        role = message.get("role")
        if role == "user":
            return _user(message.get("content")), "user-message"
        if role == "assistant":
            return self._assistant(message), "assistant-message"
        if role == "bashExecution":
            return _bash_execution(message), "bash-execution"
        if role in ("toolResult",):
            return "", ""
        if role in ("custom", "hookMessage"):
            if message.get("display") is False:
                return "", ""
            return _custom(
                string(message.get("customType")), message.get("content")
            ), "custom-message"
        if role in ("branchSummary", "compactionSummary"):
            return (
                f'<div class="markdown">{render_markdown(string(message.get("summary")))}</div>',
                "branch-summary",
            )
        return _custom(string(role, "message"), message.get("content")), "custom-message"

    def _assistant(self, message: RawEntry) -> str:
        content = message.get("content")
        blocks = [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []
        parts: list[str] = []
        for block in blocks:
            kind = block.get("type")
            text = string(block.get("text"))
            thinking = string(block.get("thinking"))
            if kind == "text" and text.strip():
                parts.append(f'<div class="markdown">{render_markdown(text)}</div>')
            elif kind == "thinking" and thinking.strip():
                parts.append(
                    f'<div class="thinking"><div class="thinking-text">{escape(thinking)}</div>'
                    '<div class="thinking-collapsed">Thinking ...</div></div>'
                )
            elif kind == "image":
                parts.append(image_html(block, "message-image"))
        for block in blocks:
            if block.get("type") == "toolCall":
                result = self._find_result(string(block.get("id")))
                parts.append(render_tool_call(block, result, self.home))
        stop = message.get("stopReason")
        if stop == "aborted":
            parts.append('<div class="error-text">Aborted</div>')
        elif stop == "error":
            error = string(message.get("errorMessage"), "Unknown error")
            parts.append(f'<div class="error-text">Error: {escape(error)}</div>')
        return "".join(parts)


def _user(content: Any) -> str:
    text = text_of(content)
    images = ""
    if isinstance(content, list):
        images = "".join(image_html(b, "message-image") for b in content if isinstance(b, dict))
    images_html = f'<div class="message-images">{images}</div>' if images else ""
    skill = _SKILL.match(text)
    if skill:
        name, _, body, rest = skill.groups()
        html = (
            f'<details class="skill"><summary>[skill] {escape(name)}</summary>'
            f'<div class="markdown">{render_markdown(body)}</div></details>'
        )
        text = (rest or "").strip()
        return (
            html
            + images_html
            + (f'<div class="markdown">{render_markdown(text)}</div>' if text else "")
        )
    markdown = f'<div class="markdown">{render_markdown(text)}</div>' if text.strip() else ""
    return images_html + markdown


def _bash_execution(message: RawEntry) -> str:
    exit_code = message.get("exitCode")
    html = f'<div class="tool-command">$ {escape(string(message.get("command")))}</div>'
    output = string(message.get("output"))
    if output:
        html += expandable_output(output, 10)
    if message.get("cancelled"):
        html += '<div class="warning-text">(cancelled)</div>'
    elif exit_code not in (0, None):
        html += f'<div class="error-text">(exit {escape(str(exit_code))})</div>'
    return html


def _compaction(entry: RawEntry) -> str:
    tokens = entry.get("tokensBefore")
    count = f"{tokens:,}" if isinstance(tokens, int) and not isinstance(tokens, bool) else "?"
    summary = render_markdown(string(entry.get("summary")))
    return (
        f'<details class="compaction-block"><summary>[compaction] Compacted from {count} tokens'
        f'</summary><div class="markdown">{summary}</div></details>'
    )


def _custom(custom_type: str, content: Any) -> str:
    if isinstance(content, (str, list)):
        text = text_of(content)
    else:
        text = deep.dumps(content, ensure_ascii=False, default=str)
    return (
        f'<div class="block-title">[{escape(custom_type)}]</div>'
        f'<div class="markdown">{render_markdown(text)}</div>'
    )


def _markdown_div(rendered: str) -> str:
    return f'<div class="markdown">{rendered}</div>'


def _timestamp(value: Any) -> str:
    if isinstance(value, str) and value:
        shown = value.replace("T", " ")[:19]
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        from datetime import UTC, datetime

        try:
            shown = datetime.fromtimestamp(value / 1000, UTC).strftime("%Y-%m-%d %H:%M:%S")
        except (OverflowError, OSError, ValueError):
            return ""
    else:
        return ""
    return f'<span class="timestamp">{escape(shown)}</span>'
