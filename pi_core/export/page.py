"""Assembling the page: stats, system prompt, tools, entry templates, data, CSS and script."""

from __future__ import annotations

import base64
import hashlib
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.resources import files
from typing import Any, BinaryIO

from pi_core import deep
from pi_core.export.embed import restorable, script_lines
from pi_core.export.entries import EntryRenderer
from pi_core.export.markdown import escape, highlight_css, reset_budgets
from pi_core.export.scan import ScannedSession
from pi_core.export.tree import SessionTree, string

# Bytes of session lines (newest first) whose entries are rendered here; the page renders the rest
# (about the newest 1,750 entries of `benchmarks/export.py`'s session).
ENTRY_BUDGET = 1_000_000
_ROWS_PER_CHUNK = 4096


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
    scanned: ScannedSession
    # The session file as "↓ JSONL" gives it back, byte for byte.
    original: bytes
    file_name: str
    system_prompt: str | None = None
    tools: list[ToolInfo] | None = None
    home: str = ""


def script_json(value: Any) -> str:
    """JSON safe inside a `<script>` element: no `<`, `>` or `&` can end or open a tag."""
    text = deep.dumps(value, ensure_ascii=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


@lru_cache(maxsize=1)
def _asset(name: str) -> str:
    return files("pi_core.export").joinpath("assets", name).read_text(encoding="utf-8")


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


def page_rendered_from(page: PageInput) -> int:
    """The index in `tree.entries` from which entries are rendered here; older ones, by the page.

    Newest first, entries are rendered here while their lines fit in ENTRY_BUDGET bytes (the
    newest always is); the page's script renders the rest from their lines when they are shown.
    """
    entries, scanned = page.tree.entries, page.scanned
    left = ENTRY_BUDGET
    index = len(entries)
    while index > 0 and left > 0:
        index -= 1
        left -= scanned.line_size(entries[index]["line"])
    return index


def sidebar_json(page: PageInput, first_here: int) -> Iterator[str]:
    """The sidebar's data as script JSON, in parts: rows (with their line when the page renders
    them), a few thousand at a time, so that they are never all held as dicts or as text."""
    tree = page.tree
    data: dict[str, Any] = {"leafId": tree.leaf_id, "rows": [], "fileName": page.file_name}
    here: set[str] | None = None
    if first_here > 0:
        here = {entry["id"] for entry in tree.entries[first_here:]}
        data["results"] = page.scanned.results
        data["home"] = page.home
    head, tail = script_json(data).split('"rows":[]', 1)
    yield head + '"rows":['
    batch: list[dict[str, Any]] = []
    separator = ""
    for row in tree.iter_rows():
        if here is not None and row["id"] not in here:
            row["line"] = tree.by_id[row["id"]]["line"]
        batch.append(row)
        if len(batch) == _ROWS_PER_CHUNK:
            yield separator + script_json(batch)[1:-1]
            batch, separator = [], ","
    if batch:
        yield separator + script_json(batch)[1:-1]
    yield "]" + tail


_PLACEHOLDER = re.compile(r"\{\{([A-Z_]+)\}\}")


def write_page(page: PageInput, out: BinaryIO) -> None:
    """Write the whole self-contained HTML document to `out`, part by part."""
    tree, scanned = page.tree, page.scanned
    # "↓ JSONL" restores the file from the embedded lines, or else unpacks a gzipped copy (zlib
    # lets go of the GIL: it is packed on a second core while the entries render).
    from_lines = scanned.data is page.original and restorable(page.original)
    packing = None if from_lines else _Packing(page.original)
    if packing is not None:
        packing.start()
    first_here = page_rendered_from(page)
    script = _asset("markdown.js") + _asset("entries.js") + _asset("export.js")
    script_hash = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    policy = (
        "default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
        f"script-src 'sha256-{script_hash}'; base-uri 'none'; form-action 'none'"
    )

    def entries() -> Iterator[str]:
        renderer = EntryRenderer([], page.home, scanned.result)
        reset_budgets()
        # Newest first: when a budget runs out, the oldest entries are the ones shown as written.
        try:
            templates = [
                f'<template data-id="{escape(entry["id"])}">'
                f"{renderer.render(scanned.entry(entry['line']))}</template>"
                for entry in reversed(tree.entries[first_here:])
            ]
        finally:
            reset_budgets()  # also drops the export's cache of rendered fragments
        templates.reverse()
        yield "\n".join(templates)

    def lines() -> Iterator[bytes]:
        if first_here > 0 or from_lines:
            yield from script_lines(scanned.data)

    parts: dict[str, Callable[[], Iterator[str | bytes]]] = {
        "POLICY": lambda: iter((policy,)),
        "TITLE": lambda: iter((escape(f"Session {string(tree.header.get('id'))}".strip()),)),
        "CSS": lambda: iter((_asset("export.css"), "\n", highlight_css())),
        "SESSION_ID": lambda: iter((escape(string(tree.header.get("id"), "unknown")),)),
        "STATS": lambda: iter((_stats_html(tree, scanned.stats.as_dict()),)),
        "SYSTEM_PROMPT": lambda: iter((_system_prompt_html(page.system_prompt),)),
        "TOOLS": lambda: iter((_tools_html(page.tools),)),
        "ENTRIES": entries,
        "LINES": lines,
        "TREE": lambda: sidebar_json(page, first_here),
        "JSONL": lambda: iter(() if packing is None else (packing.result(),)),
        "JS": lambda: iter((script,)),
    }
    template = _asset("page.html")
    position = 0
    # Text that came from the session is written out, never searched for placeholders again.
    for match in _PLACEHOLDER.finditer(template):
        out.write(template[position : match.start()].encode())
        for part in parts[match.group(1)]():
            out.write(part if isinstance(part, bytes) else part.encode("utf-8", "replace"))
        position = match.end()
    out.write(template[position:].encode())
