"""Tool calls as HTML, one renderer per built-in tool: bash output, read preview, edit diff."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pi_core import deep
from pi_core.export.markdown import escape, highlight_code, lexer_for_path
from pi_core.export.tree import RawEntry, string, text_of

_INVALID = '<span class="tool-error">[invalid arg]</span>'


def render_tool_call(call: dict[str, Any], result: RawEntry | None, home: str = "") -> str:
    """A tool call with its result (a toolResult message, or None while pending)."""
    name = string(call.get("name"), "?")
    raw_args = call.get("arguments")
    args: dict[str, Any] = raw_args if isinstance(raw_args, dict) else {}
    status = "pending" if result is None else ("error" if result.get("isError") else "success")
    renderer = _RENDERERS.get(name)
    body = renderer(args, result, home) if renderer else _generic(name, args, result)
    return f'<div class="tool-execution {status}">{body}</div>'


def _header(name: str, path_html: str, extra: str = "") -> str:
    return (
        f'<div class="tool-header"><span class="tool-name">{escape(name)}</span> '
        f'<span class="tool-path">{path_html}</span>{extra}</div>'
    )


def _path_html(value: Any, home: str, default: str = "") -> str:
    if value is None:
        value = default
    if not isinstance(value, str):
        return _INVALID
    if home and value.startswith(home + "/"):
        value = "~" + value[len(home) :]
    return escape(value)


def _result_text(result: RawEntry | None) -> str:
    return text_of(result.get("content")) if result is not None else ""


def result_images(result: RawEntry | None) -> str:
    """The images of a tool result, inline."""
    content = result.get("content") if result is not None else None
    if not isinstance(content, list):
        return ""
    images = [image_html(block, "tool-image") for block in content if isinstance(block, dict)]
    shown = "".join(images)
    return f'<div class="tool-images">{shown}</div>' if shown else ""


def image_html(block: dict[str, Any], css_class: str) -> str:
    """An image content block as an inline `data:` image ("" when it is not an image)."""
    if block.get("type") != "image":
        return ""
    mime = string(block.get("mimeType"), "image/png").lower()
    data = string(block.get("data"))
    if mime not in ("image/png", "image/jpeg", "image/gif", "image/webp") or not _is_base64(data):
        return '<div class="tool-error">[image not shown: not an embedded png/jpeg/gif/webp]</div>'
    return f'<img class="{css_class}" src="data:{mime};base64,{data}" alt="">'


def _is_base64(data: str) -> bool:
    return bool(data) and data.rstrip("=").replace("+", "").replace("/", "").isalnum()


def expandable_output(text: str, preview_lines: int, path: str | None = None) -> str:
    """Output showing its first lines; a click (or the O key) shows the rest."""
    text = text.replace("\t", "   ")
    lexer = lexer_for_path(path) if path else None
    code = highlight_code(text, lexer)
    remaining = text.count("\n") + 1 - preview_lines
    if remaining <= 0:
        return f'<div class="tool-output"><pre class="hl">{code}</pre></div>'
    return (
        f'<div class="tool-output expandable preview-{preview_lines}"><pre class="hl">{code}</pre>'
        f'<div class="expand-hint">... ({remaining} more lines)</div></div>'
    )


def _bash(args: dict[str, Any], result: RawEntry | None, home: str) -> str:
    command = args.get("command")
    shown = _INVALID if not isinstance(command, str) else escape(command or "...")
    html = f'<div class="tool-command">$ {shown}</div>'
    output = _result_text(result).strip()
    return html + (expandable_output(output, 5) if output else "")


def _read(args: dict[str, Any], result: RawEntry | None, home: str) -> str:
    path = args.get("file_path", args.get("path"))
    path_html = _path_html(path, home)
    offset, limit = args.get("offset"), args.get("limit")
    if isinstance(path, str) and (isinstance(offset, int) or isinstance(limit, int)):
        start = offset if isinstance(offset, int) else 1
        end = f"-{start + limit - 1}" if isinstance(limit, int) else ""
        path_html += f'<span class="line-numbers">:{start}{end}</span>'
    html = _header("read", path_html) + result_images(result)
    output = _result_text(result)
    if output:
        html += expandable_output(output, 10, path if isinstance(path, str) else None)
    return html


def _write(args: dict[str, Any], result: RawEntry | None, home: str) -> str:
    path = args.get("file_path", args.get("path"))
    content = args.get("content")
    extra = ""
    if isinstance(content, str) and content.count("\n") >= 10:
        extra = f' <span class="line-count">({content.count(chr(10)) + 1} lines)</span>'
    html = _header("write", _path_html(path, home), extra)
    if not isinstance(content, str):
        html += '<div class="tool-error">[invalid content arg - expected string]</div>'
    elif content:
        html += expandable_output(content, 10, path if isinstance(path, str) else None)
    output = _result_text(result).strip()
    if output:
        html += f'<div class="tool-output"><pre>{escape(output)}</pre></div>'
    return html


def _edit(args: dict[str, Any], result: RawEntry | None, home: str) -> str:
    html = _header("edit", _path_html(args.get("file_path", args.get("path")), home))
    details = result.get("details") if result is not None else None
    diff = details.get("diff") if isinstance(details, dict) else None
    if isinstance(diff, str) and diff:
        rows = []
        for line in diff.split("\n"):
            kind = (
                "added"
                if line.startswith("+")
                else "removed"
                if line.startswith("-")
                else "context"
            )
            rows.append(f'<div class="diff-{kind}">{escape(line.replace(chr(9), "   "))}</div>')
        return html + '<div class="tool-diff">' + "".join(rows) + "</div>"
    output = _result_text(result).strip()
    if output:
        html += f'<div class="tool-output"><pre>{escape(output)}</pre></div>'
    return html


def _ls(args: dict[str, Any], result: RawEntry | None, home: str) -> str:
    limit = args.get("limit")
    extra = (
        f' <span class="line-count">(limit {escape(str(limit))})</span>'
        if limit is not None
        else ""
    )
    html = _header("ls", _path_html(args.get("path"), home, "."), extra)
    output = _result_text(result).strip()
    return html + (expandable_output(output, 20) if output else "")


def _generic(name: str, args: dict[str, Any], result: RawEntry | None) -> str:
    html = _header(name, "")
    if args:
        shown = deep.dumps(args, indent=2, ensure_ascii=False, default=str)
        html += expandable_output(shown, 10, "args.json")
    html += result_images(result)
    output = _result_text(result)
    if output:
        html += expandable_output(output, 10)
    return html


_RENDERERS: dict[str, Callable[[dict[str, Any], RawEntry | None, str], str]] = {
    "bash": _bash,
    "read": _read,
    "write": _write,
    "edit": _edit,
    "ls": _ls,
}
