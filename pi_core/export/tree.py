"""The session as a tree for the page: entries by id, labels, the leaf, and the sidebar's rows."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

RawEntry = dict[str, Any]

# Entry kinds the sidebar filters know (the page's script hides them by kind).
SETTINGS_KINDS = frozenset({"label", "custom", "model", "thinking", "info"})
_ROW_TEXT_LIMIT = 120


def text_of(value: Any) -> str:
    """The text of a message content (a string, or the `text` blocks of a list)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "\n".join(
            block["text"]
            for block in value
            if isinstance(block, dict)
            and block.get("type") == "text"
            and isinstance(block.get("text"), str)
        )
    return ""


def string(value: Any, default: str = "") -> str:
    """A field that should be a string (anything else becomes `default`)."""
    return value if isinstance(value, str) else default


@dataclass
class SessionTree:
    """Every entry of one session file, every branch, and where its leaf is."""

    header: RawEntry
    entries: list[RawEntry]
    leaf_id: str | None
    labels: dict[str, str] = field(default_factory=dict)
    by_id: dict[str, RawEntry] = field(default_factory=dict)
    children: dict[str | None, list[str]] = field(default_factory=dict)
    # Sidebar kind and text by id, computed earlier (entries are then light records).
    row_texts: dict[str, tuple[str, str]] = field(default_factory=dict)

    @classmethod
    def build(
        cls,
        raw: list[RawEntry],
        leaf_id: str | None = None,
        row_texts: dict[str, tuple[str, str]] | None = None,
    ) -> SessionTree:
        """Index a header and its entries; the leaf defaults to the last entry."""
        header = raw[0] if raw and raw[0].get("type") == "session" else {}
        entries = [e for e in raw if e is not header and isinstance(e.get("id"), str)]
        tree = cls(header=header, entries=entries, leaf_id=None, row_texts=row_texts or {})
        for entry in entries:
            tree.by_id[entry["id"]] = entry
            if entry.get("type") == "label" and isinstance(entry.get("targetId"), str):
                label = entry.get("label")
                if isinstance(label, str) and label:
                    tree.labels[entry["targetId"]] = label
                else:
                    tree.labels.pop(entry["targetId"], None)
        for entry in entries:
            parent = entry.get("parentId")
            if not isinstance(parent, str) or parent not in tree.by_id or parent == entry["id"]:
                parent = None
            tree.children.setdefault(parent, []).append(entry["id"])
        for ids in tree.children.values():
            if len(ids) > 1:  # most entries have one child
                ids.sort(key=lambda i: string(tree.by_id[i].get("timestamp")))
        if leaf_id in tree.by_id:
            tree.leaf_id = leaf_id
        elif entries:
            tree.leaf_id = entries[-1]["id"]
        return tree

    def parent_of(self, entry_id: str) -> str | None:
        """The parent id as the tree links it (None for a root or a dangling parent)."""
        parent = self.by_id[entry_id].get("parentId")
        return parent if isinstance(parent, str) and parent in self.by_id else None

    def path_to(self, entry_id: str | None) -> list[str]:
        """The ids from the root to `entry_id` (cycles are cut)."""
        path: list[str] = []
        seen: set[str] = set()
        current = entry_id
        while current is not None and current in self.by_id and current not in seen:
            seen.add(current)
            path.append(current)
            current = self.parent_of(current)
        path.reverse()
        return path

    def rows(self) -> list[dict[str, Any]]:
        """The sidebar's rows in display order: depth-first, the active branch first."""
        return list(self.iter_rows())

    def iter_rows(self) -> Iterator[dict[str, Any]]:
        """`rows()` one at a time."""
        # An entry holds the leaf below it exactly when it is on the path to the leaf.
        active = set(self.path_to(self.leaf_id))

        def ordered(ids: list[str]) -> list[str]:
            if len(ids) < 2:  # most entries: one child, nothing to order
                return ids
            return sorted(ids, key=lambda i: i not in active)

        roots = ordered(self.children.get(None, []))
        many_roots = len(roots) > 1
        # (id, indent, just branched, connector: None / "├" / "└")
        stack: list[tuple[str, int, bool, str | None]] = [
            (
                r,
                1 if many_roots else 0,
                many_roots,
                ("└" if i == len(roots) - 1 else "├") if many_roots else None,
            )
            for i, r in reversed(list(enumerate(roots)))
        ]
        visited: set[str] = set()
        children = self.children
        while stack:
            entry_id, indent, just_branched, connector = stack.pop()
            if entry_id in visited:
                continue
            visited.add(entry_id)
            yield self._row(entry_id, indent, connector)
            kids = children.get(entry_id)
            if not kids:
                continue
            kids = ordered(kids)
            branching = len(kids) > 1
            child_indent = indent + 1 if branching or (just_branched and indent > 0) else indent
            for i in reversed(range(len(kids))):
                mark = ("└" if i == len(kids) - 1 else "├") if branching else None
                stack.append((kids[i], child_indent, branching, mark))

    def _row(self, entry_id: str, indent: int, connector: str | None) -> dict[str, Any]:
        entry = self.by_id[entry_id]
        kind, text = self.row_texts.get(entry_id) or row_kind_and_text(entry)
        row: dict[str, Any] = {
            "id": entry_id,
            "parent": self.parent_of(entry_id),
            "depth": indent,
            "kind": kind,
            "text": text[:_ROW_TEXT_LIMIT],
        }
        if connector:
            row["branch"] = connector
        label = self.labels.get(entry_id)
        if label:
            row["label"] = label
        kids = self.children.get(entry_id, [])
        if len(kids) > 1:
            row["newest"] = kids[-1]  # where a click on this entry goes: the newest child
        return row


def row_kind_and_text(entry: RawEntry) -> tuple[str, str]:
    """The sidebar kind of an entry and its one-line text."""
    kind = entry.get("type")
    if kind == "message" and isinstance(entry.get("message"), dict):
        return _message_row(entry["message"])
    if kind == "compaction":
        return "compaction", f"[compaction: {_number(entry.get('tokensBefore'))} tokens]"
    if kind == "branch_summary":
        return "branch", "[branch summary] " + _one_line(string(entry.get("summary")))
    if kind == "model_change":
        model = f"{string(entry.get('provider'))}/{string(entry.get('modelId'))}"
        return "model", f"[model: {model}]"
    if kind == "thinking_level_change":
        return "thinking", f"[thinking: {string(entry.get('thinkingLevel'))}]"
    if kind == "label":
        return "label", f"[label: {string(entry.get('label'), '(cleared)')}]"
    if kind == "custom":
        return "custom", f"[custom: {string(entry.get('customType'))}]"
    if kind == "custom_message":
        return "custom-message", f"[{string(entry.get('customType'))}] " + _one_line(
            text_of(entry.get("content"))
        )
    if kind == "session_info":
        return "info", f"[name: {string(entry.get('name'))}]"
    return "other", f"[{string(kind, 'entry')}]"


def _message_row(message: RawEntry) -> tuple[str, str]:
    role = message.get("role")
    if role == "user":
        return "user", "user: " + _one_line(text_of(message.get("content")))
    if role == "assistant":
        content = message.get("content")
        text = _one_line(text_of(content))
        stop = message.get("stopReason")
        if text:
            return "assistant", "assistant: " + text
        calls = (
            [b for b in content if isinstance(b, dict) and b.get("type") == "toolCall"]
            if isinstance(content, list)
            else []
        )
        if stop in ("error", "aborted"):
            return "assistant", f"assistant: ({stop})"
        names = ", ".join(string(c.get("name"), "?") for c in calls)
        return "tool-call", f"[{names or 'no text'}]"
    if role == "toolResult":
        name = string(message.get("toolName"), "tool")
        return "tool", f"[{name}] " + _one_line(text_of(message.get("content")))
    if role == "bashExecution":
        return "bash", "$ " + _one_line(string(message.get("command")))
    return "custom-message", f"[{string(role, 'message')}] " + _one_line(
        text_of(message.get("content"))
    )


def _one_line(text: str) -> str:
    return " ".join(text[: _ROW_TEXT_LIMIT * 2].split())[:_ROW_TEXT_LIMIT]


def _number(value: Any) -> str:
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else "?"
