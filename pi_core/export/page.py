"""Assembling the page: stats, system prompt, tools, entry templates, data, CSS and script."""

from __future__ import annotations

import base64
import hashlib
import re
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.resources import files
from typing import Any

from pi_core import deep
from pi_core.export.entries import EntryRenderer
from pi_core.export.forked import Forked
from pi_core.export.markdown import escape, highlight_css, reset_budgets
from pi_core.export.tree import RawEntry, SessionTree, string

# Sessions with this many entries compute the sidebar in a forked child (a fork costs ~10 ms).
FORK_FROM_ENTRIES = 20_000


@dataclass
class ToolInfo:
    """A tool as listed in the page: name, description and JSON-schema parameters."""

    name: str
    description: str
    parameters: dict[str, Any] = field(default_factory=dict)


@dataclass
class PageInput:
    """Everything the page shows."""

    tree: SessionTree
    jsonl: bytes
    file_name: str
    system_prompt: str | None = None
    tools: list[ToolInfo] | None = None
    home: str = ""
    # A forked child may compute part of the page (`pi --export`: a process with no other work).
    may_fork: bool = False


def script_json(value: Any) -> str:
    """JSON safe inside a `<script>` element: no `<`, `>` or `&` can end or open a tag."""
    text = deep.dumps(value, ensure_ascii=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


@lru_cache(maxsize=1)
def _asset(name: str) -> str:
    return files("pi_core.export").joinpath("assets", name).read_text(encoding="utf-8")


def compute_stats(entries: list[RawEntry]) -> dict[str, Any]:
    """Message counts, tool calls, tokens, cost and models over every entry (every branch)."""
    counts = dict.fromkeys(
        (
            "user",
            "assistant",
            "toolResults",
            "custom",
            "compactions",
            "branchSummaries",
            "toolCalls",
        ),
        0,
    )
    tokens = dict.fromkeys(("input", "output", "cacheRead", "cacheWrite"), 0)
    cost = 0.0
    models: dict[str, None] = {}
    for entry in entries:
        kind = entry.get("type")
        message = entry.get("message") if kind == "message" else None
        if isinstance(message, dict):
            role = message.get("role")
            if role == "user":
                counts["user"] += 1
            elif role == "toolResult":
                counts["toolResults"] += 1
            elif role == "assistant":
                counts["assistant"] += 1
                model = string(message.get("model"))
                if model:
                    provider = string(message.get("provider"))
                    models[f"{provider}/{model}" if provider else model] = None
                usage = message.get("usage")
                if isinstance(usage, dict):
                    for key in tokens:
                        tokens[key] += _int(usage.get(key))
                    spent = usage.get("cost")
                    if isinstance(spent, dict):
                        cost += sum(_float(spent.get(k)) for k in tokens)
                content = message.get("content")
                if isinstance(content, list):
                    counts["toolCalls"] += sum(
                        1 for b in content if isinstance(b, dict) and b.get("type") == "toolCall"
                    )
        elif kind == "compaction":
            counts["compactions"] += 1
        elif kind == "branch_summary":
            counts["branchSummaries"] += 1
        elif kind == "custom_message":
            counts["custom"] += 1
    return {"counts": counts, "tokens": tokens, "cost": cost, "models": list(models)}


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _float(value: Any) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0


def _tokens(count: int) -> str:
    if count < 1000:
        return str(count)
    if count < 1_000_000:
        return f"{count / 1000:.1f}k"
    return f"{count / 1_000_000:.1f}M"


def _stats_html(tree: SessionTree, stats: dict[str, Any]) -> str:
    counts, tokens = stats["counts"], stats["tokens"]
    names = (
        ("user", "user"),
        ("assistant", "assistant"),
        ("toolResults", "tool results"),
        ("custom", "custom"),
        ("compactions", "compactions"),
        ("branchSummaries", "branch summaries"),
    )
    messages = ", ".join(f"{counts[k]} {label}" for k, label in names if counts[k]) or "0"
    marks = (("input", "↑"), ("output", "↓"), ("cacheRead", "R"), ("cacheWrite", "W"))
    token_text = " ".join(f"{m}{_tokens(tokens[k])}" for k, m in marks if tokens[k]) or "0"
    date = string(tree.header.get("timestamp")).replace("T", " ")[:19] or "unknown"
    info = (
        ("Date", date),
        ("Models", ", ".join(stats["models"]) or "unknown"),
        ("Messages", messages),
        ("Tool Calls", str(counts["toolCalls"])),
        ("Tokens", token_text),
        ("Cost", f"${stats['cost']:.3f}"),
    )
    return "".join(
        f'<div class="info-item"><span class="info-label">{label}:</span> '
        f'<span class="info-value">{escape(value)}</span></div>'
        for label, value in info
    )


def _system_prompt_html(prompt: str | None) -> str:
    if not prompt:
        return ""
    lines = prompt.split("\n")
    hint = f" ({len(lines)} lines)" if len(lines) > 1 else ""
    return (
        f'<details class="system-prompt"><summary>System Prompt{hint}</summary>'
        f'<pre class="system-prompt-full">{escape(prompt)}</pre></details>'
    )


def _tools_html(tools: list[ToolInfo] | None) -> str:
    if not tools:
        return ""
    items = []
    for tool in tools:
        properties = tool.parameters.get("properties")
        required = tool.parameters.get("required")
        required_names = set(required) if isinstance(required, list) else set()
        params = ""
        if isinstance(properties, dict):
            for name, prop in properties.items():
                prop = prop if isinstance(prop, dict) else {}
                kind = escape(string(prop.get("type"), "any"))
                need = "required" if name in required_names else "optional"
                desc = string(prop.get("description"))
                params += (
                    '<div class="tool-param">'
                    f'<span class="tool-param-name">{escape(str(name))}</span> '
                    f'<span class="tool-param-type">{kind}</span> '
                    f'<span class="tool-param-{need}">{need}</span>'
                    + (f'<div class="tool-param-desc">{escape(desc)}</div>' if desc else "")
                    + "</div>"
                )
        head = (
            f'<span class="tool-item-name">{escape(tool.name)}</span> - '
            f'<span class="tool-item-desc">{escape(tool.description)}</span>'
        )
        items.append(
            f'<details class="tool-item"><summary>{head}</summary>{params}</details>'
            if params
            else f'<div class="tool-item">{head}</div>'
        )
    return (
        f'<details class="tools-list"><summary>Available Tools ({len(tools)})</summary>'
        f"{''.join(items)}</details>"
    )


def _packed(data: bytes) -> str:
    """The original JSONL, gzipped and base64-encoded (the page unpacks it on download)."""
    import gzip

    return base64.b64encode(gzip.compress(data, compresslevel=6, mtime=0)).decode()


class _Packing(threading.Thread):
    """`_packed(data)` on its own thread."""

    def __init__(self, data: bytes) -> None:
        super().__init__(name="export-pack", daemon=True)
        self._data = data
        self._packed: str | None = None
        self._error: BaseException | None = None

    def run(self) -> None:
        try:
            self._packed = _packed(self._data)
        except BaseException as error:  # handed to the caller by result()
            self._error = error

    def result(self) -> str:
        """The packed JSONL (waits for the thread; raises what it raised)."""
        self.join()
        if self._error is not None:
            raise self._error
        assert self._packed is not None
        return self._packed


def _sidebar_and_stats(page: PageInput) -> str:
    """The sidebar's data as script JSON (ASCII, no NUL) and the stats' HTML, after a NUL."""
    tree = page.tree
    data = {"leafId": tree.leaf_id, "rows": tree.rows(), "fileName": page.file_name}
    return script_json(data) + "\0" + _stats_html(tree, compute_stats(tree.entries))


_PLACEHOLDER = re.compile(r"\{\{([A-Z_]+)\}\}")


def render_page(page: PageInput) -> str:
    """The whole self-contained HTML document."""
    tree = page.tree
    # zlib lets go of the GIL: the JSONL is packed on a second core while the entries render.
    packing = _Packing(page.jsonl)
    packing.start()
    # The sidebar's rows and the stats do not depend on the entries' HTML: a large session gets
    # them from a forked child, on the other core, while this process renders.
    sidebar = Forked(
        lambda: _sidebar_and_stats(page),
        fork=page.may_fork and len(tree.entries) >= FORK_FROM_ENTRIES,
    )
    renderer = EntryRenderer(tree.entries, page.home)
    reset_budgets()
    # Newest first: when a budget runs out, the oldest entries are the ones shown as written.
    try:
        templates = [
            f'<template data-id="{escape(entry["id"])}">{renderer.render(entry)}</template>'
            for entry in reversed(tree.entries)
        ]
    finally:
        reset_budgets()  # also drops the export's cache of rendered fragments
    templates.reverse()
    tree_json, stats_html = sidebar.result().split("\0", 1)
    script = _asset("markdown.js") + _asset("export.js")
    script_hash = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    policy = (
        "default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
        f"script-src 'sha256-{script_hash}'; base-uri 'none'; form-action 'none'"
    )
    parts = {
        "POLICY": policy,
        "TITLE": escape(f"Session {string(tree.header.get('id'))}".strip()),
        "CSS": _asset("export.css") + "\n" + highlight_css(),
        "SESSION_ID": escape(string(tree.header.get("id"), "unknown")),
        "STATS": stats_html,
        "SYSTEM_PROMPT": _system_prompt_html(page.system_prompt),
        "TOOLS": _tools_html(page.tools),
        "ENTRIES": "\n".join(templates),
        "TREE": tree_json,
        "JSONL": packing.result(),
        "JS": script,
    }
    # One pass: text that came from the session is never searched for placeholders again.
    return _PLACEHOLDER.sub(lambda match: parts[match.group(1)], _asset("page.html"))
