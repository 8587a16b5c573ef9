"""The rows of `/tree`: one session file's entries as an indented tree, filtered and folded."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pi_core.messages.llm import content_text
from pi_core.modes.interactive.selectors.picker import Row, matches_tokens

FILTERS = ("default", "no-tools", "user-only", "labeled-only", "all")
_BOOKKEEPING = {"label", "custom", "model_change", "thinking_level_change", "session_info"}
_KEY_ARGUMENTS = ("path", "file_path", "command", "pattern", "url", "query")


@dataclass
class FlatNode:
    """A tree node in display order, with its drawing prefix."""

    node: Any
    prefix: str
    on_path: bool
    parent: str | None
    children: list[str] = field(default_factory=list)


def flatten(roots: list[Any], active: set[str]) -> list[FlatNode]:
    """Depth-first order; indentation grows only where the tree branches."""
    flat: list[FlatNode] = []
    stack: list[tuple[Any, str, str | None, str]] = [
        (root, "", None, _connector(i, len(roots))) for i, root in reversed(list(enumerate(roots)))
    ]
    while stack:
        node, indent, parent, connector = stack.pop()
        entry = node.entry
        flat.append(FlatNode(node, indent + connector, entry.id in active, parent,
                             [child.entry.id for child in node.children]))  # fmt: skip
        children = node.children
        branching = len(children) > 1
        child_indent = indent + (_continuation(connector) if connector else "")
        for index in reversed(range(len(children))):
            child_connector = _connector(index, len(children)) if branching else ""
            stack.append((children[index], child_indent, entry.id, child_connector))
    return flat


def _connector(index: int, count: int) -> str:
    if count <= 1:
        return ""
    return "└─ " if index == count - 1 else "├─ "


def _continuation(connector: str) -> str:
    return "   " if connector.startswith("└") else "│  "


def describe(entry: Any, tool_calls: dict[str, tuple[str, dict[str, Any]]]) -> tuple[str, str]:
    """(text, style class) of one entry, as pi's tree shows it."""
    kind = entry.type
    if kind == "message":
        message = entry.message
        role = message.role
        if role == "user":
            return f"user: {_flat(content_text(message.content))}", "class:tree.user"
        if role == "assistant":
            text = _flat(content_text(message.content))
            for block in message.content if isinstance(message.content, list) else []:
                if getattr(block, "type", "") == "toolCall":
                    tool_calls[block.id] = (block.name, block.arguments)
            if not text and message.stop_reason not in ("stop", "toolUse"):
                text = f"({message.stop_reason})"
            return f"assistant: {text}", "class:tree.assistant"
        if role == "toolResult":
            name, arguments = tool_calls.get(message.tool_call_id, (message.tool_name, {}))
            detail = next((str(arguments[k]) for k in _KEY_ARGUMENTS if k in arguments), "")
            return (f"[{name}: {_flat(detail)}]" if detail else f"[{name}]"), "class:tree.tool"
        if role == "bashExecution":
            return f"[bash]: {_flat(message.command)}", "class:tree.tool"
        if role == "custom":
            return f"[{message.custom_type}]: {_flat(content_text(message.content))}", ""
        return f"[{role}]", ""
    if kind == "compaction":
        return f"[compaction: {round(entry.tokens_before / 1000)}k tokens]", "class:tree.meta"
    if kind == "branch_summary":
        return f"[branch summary]: {_flat(entry.summary)}", "class:tree.meta"
    if kind == "model_change":
        return f"[model: {entry.model_id}]", "class:tree.meta"
    if kind == "thinking_level_change":
        return f"[thinking: {entry.thinking_level}]", "class:tree.meta"
    if kind == "custom":
        return f"[custom: {entry.custom_type}]", "class:tree.meta"
    if kind == "custom_message":
        return f"[{entry.custom_type}]: {_flat(content_text(entry.content))}", ""
    if kind == "label":
        return f"[label: {entry.label or '(cleared)'}]", "class:tree.meta"
    if kind == "session_info":
        return f"[title: {entry.name or ''}]", "class:tree.meta"
    return f"[{kind}]", ""


def _flat(text: str) -> str:
    return " ".join(text.split())[:200]


def passes(entry: Any, label: str | None, mode: str, leaf: str | None) -> bool:
    """Whether an entry shows under a filter mode (the current leaf always shows)."""
    if entry.id == leaf:
        return True
    message = getattr(entry, "message", None)
    if (
        message is not None
        and message.role == "assistant"
        and mode != "all"
        and not content_text(message.content).strip()
        and message.stop_reason in ("stop", "toolUse")
    ):
        return False  # only tool calls: the tool results stand for it
    if mode == "user-only":
        return message is not None and message.role == "user"
    if mode == "labeled-only":
        return label is not None
    if mode == "all":
        return True
    if entry.type in _BOOKKEEPING:
        return False
    if mode == "no-tools":
        return not (message is not None and message.role == "toolResult")
    return True


@dataclass
class TreeState:
    """What the tree view shows: the filter, the folded nodes and the label-time toggle."""

    flat: list[FlatNode]
    leaf: str | None
    mode: str = "default"
    folded: set[str] = field(default_factory=set)
    show_label_times: bool = False

    def rows(self, query: str) -> list[Row]:
        """Visible rows for a search query."""
        tool_calls: dict[str, tuple[str, dict[str, Any]]] = {}
        hidden_under: set[str] = set()
        rows: list[Row] = []
        for flat in self.flat:
            entry = flat.node.entry
            text, style = describe(entry, tool_calls)
            if flat.parent in hidden_under or flat.parent in self.folded:
                hidden_under.add(entry.id)
                continue
            label = flat.node.label
            if not passes(entry, label, self.mode, self.leaf):
                continue
            if label:
                stamp = f" {flat.node.label_timestamp}" if self.show_label_times else ""
                text = f"⚑ {label}{stamp}  {text}"
            if query and not matches_tokens(query, text):
                continue
            marker = "• " if flat.on_path else "  "
            fold = f" [+{len(flat.children)}]" if entry.id in self.folded else ""
            current = "  ← current" if entry.id == self.leaf else ""
            style = f"{style} class:tree.active" if flat.on_path else style
            rows.append(Row(entry.id, f"{marker}{flat.prefix}{text}{fold}{current}", style))
        return rows

    def node(self, entry_id: str) -> FlatNode | None:
        """The flat node of an entry."""
        return next((f for f in self.flat if f.node.entry.id == entry_id), None)
