"""The session store: an append-only JSONL tree with a movable leaf, compatible with pi's files."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path
from typing import Any

from pydantic import ConfigDict, TypeAdapter

from pi_core.messages.agent import AgentMessage
from pi_core.messages.base import WireModel
from pi_core.session.context import (
    SessionContext,
    build_session_context,
    copy_context,
    parse_messages,
    path_to_root,
)
from pi_core.session.entries import CURRENT_SESSION_VERSION, SessionEntry, SessionHeader
from pi_core.session.ids import file_timestamp, iso_now, new_entry_id, new_session_id
from pi_core.session.jsonl import (
    Appender,
    RawEntry,
    ReadResult,
    SessionFileError,
    encode_line,
    gc_paused,
    read_session_file,
    rewrite_file,
)
from pi_core.session.migrate import migrate_entries
from pi_core.session.paths import default_session_dir, find_most_recent_session, make_private_dir

logger = logging.getLogger("pi.session")
_entry_adapter: TypeAdapter[SessionEntry] = TypeAdapter(
    SessionEntry, config=ConfigDict(defer_build=True)
)
_SUMMARY_ROLES = ("compactionSummary", "branchSummary")


class TreeNode:
    """An entry with its children (oldest first) and its label, for tree views."""

    __slots__ = ("children", "entry", "label", "label_timestamp")

    def __init__(self, entry: SessionEntry, label: str | None, label_timestamp: str | None) -> None:
        self.entry = entry
        self.children: list[TreeNode] = []
        self.label = label
        self.label_timestamp = label_timestamp


class SessionManager:
    """A conversation as a tree of entries in one JSONL file (or in memory).

    Appending adds a child of the leaf and moves the leaf to it. `branch()` only moves the leaf.
    Nothing is written before the first assistant message; then everything pending is written at
    once, and every later entry is appended as it comes.
    """

    def __init__(
        self,
        cwd: str,
        session_dir: Path | None,
        session_file: Path | None,
        persist: bool,
        _preloaded: ReadResult | None = None,
    ) -> None:
        self.cwd = cwd
        self.session_dir = session_dir
        self.persist = persist
        self.session_id = ""
        self.session_file: Path | None = None
        self.warnings: list[str] = []
        self._entries: list[RawEntry] = []
        self._by_id: dict[str, RawEntry] = {}
        self._labels: dict[str, tuple[str, str]] = {}
        self._typed: dict[str, SessionEntry] = {}
        self._messages: dict[str, AgentMessage] = {}
        self._context: tuple[tuple[str | None, int], SessionContext] | None = None
        self._leaf_id: str | None = None
        self._chain = True  # each entry's parent is the one before it: the path is the file
        self._has_assistant = False
        self._written = 0  # how many of self._entries are on disk
        self._appender: Appender | None = None
        if persist and session_dir is not None:
            make_private_dir(session_dir)
        if session_file is not None:
            self.set_session_file(session_file, _preloaded)
        else:
            self.new_session()

    # --- constructors ---------------------------------------------------------------------

    @classmethod
    def create(cls, cwd: str, session_dir: Path | None = None) -> SessionManager:
        """Start a new persisted session for `cwd`."""
        return cls(cwd, session_dir or default_session_dir(cwd), None, True)

    @classmethod
    def open(
        cls, path: str | Path, session_dir: Path | None = None, cwd: str | None = None
    ) -> SessionManager:
        """Open a session file (migrating it if old); a missing file starts a session there."""
        path = Path(path).expanduser().resolve()
        loaded = read_session_file(path) if path.exists() else None
        header_cwd = loaded.entries[0].get("cwd") if loaded and loaded.entries else None
        folder = session_dir or path.parent
        return cls(cwd or header_cwd or str(Path.cwd()), folder, path, True, loaded)

    @classmethod
    def continue_recent(cls, cwd: str, session_dir: Path | None = None) -> SessionManager:
        """Open the most recently modified session of `cwd`, or start a new one."""
        folder = session_dir or default_session_dir(cwd)
        return cls(cwd, folder, find_most_recent_session(folder), True)

    @classmethod
    def in_memory(cls, cwd: str = ".") -> SessionManager:
        """A session that is never written to disk (the SDK, tests)."""
        return cls(cwd, None, None, False)

    @classmethod
    def fork_from(
        cls, source: str | Path, target_cwd: str, session_dir: Path | None = None
    ) -> SessionManager:
        """Copy a session (from any project) into a new file of `target_cwd`."""
        source = Path(source).resolve()
        entries = read_session_file(source).entries
        if not entries:
            raise SessionFileError(f"cannot fork: {source} is empty")
        folder = session_dir or default_session_dir(target_cwd)
        header = _header(new_session_id(), target_cwd, str(source))
        target = folder / f"{file_timestamp(header['timestamp'])}_{header['id']}.jsonl"
        rewrite_file(target, [header, *(e for e in entries if e.get("type") != "session")])
        return cls(target_cwd, folder, target, True)

    # --- switching files ------------------------------------------------------------------

    def new_session(
        self, parent_session: str | None = None, session_id: str | None = None
    ) -> Path | None:
        """Start an empty session (nothing is written until the first assistant message)."""
        self._close()
        header = _header(session_id or new_session_id(), self.cwd, parent_session)
        self.session_id = header["id"]
        self._reset([header], written=0)
        if self.persist and self.session_dir is not None:
            name = f"{file_timestamp(header['timestamp'])}_{self.session_id}.jsonl"
            self.session_file = self.session_dir / name
        return self.session_file

    def switch_to(self, path: str | Path) -> None:
        """Open another session file as pi's switch does: its folder becomes the one new, forked
        and cloned sessions are written to; a missing file becomes a new session at that path."""
        self.set_session_file(path)
        if self.persist and self.session_file is not None:
            self.session_dir = Path(self.session_file).parent

    def set_session_file(self, path: str | Path, _preloaded: ReadResult | None = None) -> None:
        """Load a session file; a missing or empty one becomes a new session at that path."""
        self._close()
        path = Path(path).expanduser().resolve()
        self._forget_models()  # the models of the session left go before the next file is read
        result = _preloaded or (read_session_file(path) if path.exists() else None)
        if result is None or not result.entries:
            self.new_session()
            self.session_file = path
            return
        self.warnings = list(result.warnings)
        for warning in result.warnings:
            logger.warning(warning)
        entries = result.entries
        self.session_file = path
        self.session_id = entries[0]["id"]
        if migrate_entries(entries) and self.persist:
            if result.skipped_lines:
                backup = path.with_name(path.name + ".bak")
                shutil.copy2(path, backup)
                self.warnings.append(f"unreadable lines kept in {backup} before migrating")
            rewrite_file(path, entries)
        self._reset(entries, written=len(entries))

    # --- appending ------------------------------------------------------------------------

    def append_message(self, message: AgentMessage | RawEntry) -> str:
        """Append a message; compaction and branch summaries have their own entry types."""
        raw = message.to_wire() if isinstance(message, WireModel) else dict(message)
        if raw.get("role") in _SUMMARY_ROLES:
            raise ValueError(f"{raw['role']} messages are stored as their own entry types")
        entry = self._append({"type": "message", "message": raw})
        if not isinstance(message, dict):
            self._messages[entry] = message
        return entry

    def append_thinking_level_change(self, thinking_level: str) -> str:
        """Record a thinking-level change."""
        return self._append({"type": "thinking_level_change", "thinkingLevel": thinking_level})

    def append_model_change(self, provider: str, model_id: str) -> str:
        """Record a model change."""
        return self._append({"type": "model_change", "provider": provider, "modelId": model_id})

    def append_compaction(
        self,
        summary: str,
        first_kept_entry_id: str,
        tokens_before: int,
        details: Any = None,
        from_hook: bool | None = None,
    ) -> str:
        """Record a compaction: history before `first_kept_entry_id` is replaced by `summary`."""
        return self._append(
            {
                "type": "compaction",
                "summary": summary,
                "firstKeptEntryId": first_kept_entry_id,
                "tokensBefore": tokens_before,
                "details": details,
                "fromHook": from_hook,
            }
        )

    def append_custom_entry(self, custom_type: str, data: Any = None) -> str:
        """Store plugin state (never part of the LLM context)."""
        return self._append({"type": "custom", "customType": custom_type, "data": data}, first=True)

    def append_session_info(self, name: str) -> str:
        """Set the session's display name (an empty name clears it)."""
        return self._append({"type": "session_info", "name": name.strip()})

    def append_custom_message_entry(
        self, custom_type: str, content: Any, display: bool, details: Any = None
    ) -> str:
        """Add a plugin message that does go into the LLM context."""
        if isinstance(content, list):
            content = [c.to_wire() if isinstance(c, WireModel) else c for c in content]
        return self._append(
            {
                "type": "custom_message",
                "customType": custom_type,
                "content": content,
                "display": display,
                "details": details,
            },
            first=True,
        )

    def append_label_change(self, target_id: str, label: str | None) -> str:
        """Set (or with None / "" clear) the label of an entry."""
        if target_id not in self._by_id:
            raise KeyError(f"Entry {target_id} not found")
        entry_id = self._append({"type": "label", "targetId": target_id, "label": label or None})
        self._apply_label(self._by_id[entry_id])
        return entry_id

    # --- the tree -------------------------------------------------------------------------

    def get_leaf_id(self) -> str | None:
        """Return the id of the current leaf (None before the first entry)."""
        return self._leaf_id

    def get_leaf_entry(self) -> SessionEntry | None:
        """Return the current leaf entry."""
        return self.get_entry(self._leaf_id) if self._leaf_id else None

    def get_entry(self, entry_id: str) -> SessionEntry | None:
        """Return an entry by id."""
        raw = self._by_id.get(entry_id)
        return self._typed_entry(raw) if raw is not None else None

    def branch_has_entry_type(self, entry_type: str) -> bool:
        """Return whether the path from the root to the leaf holds an entry of this type (read
        from the entries' JSON: no typed entry is built, unlike `get_branch`)."""
        return any(entry.get("type") == entry_type for entry in self._path_to(self._leaf_id))

    def get_children(self, parent_id: str | None) -> list[SessionEntry]:
        """Return the direct children of an entry (None: the roots)."""
        return [
            self._typed_entry(e) for e in self._by_id.values() if e.get("parentId") == parent_id
        ]

    def get_label(self, entry_id: str) -> str | None:
        """Return an entry's label."""
        label = self._labels.get(entry_id)
        return label[0] if label else None

    def get_branch(self, from_id: str | None = None) -> list[SessionEntry]:
        """Return the entries from the root to `from_id` (default: the leaf)."""
        return [self._typed_entry(e) for e in self._path_to(from_id or self._leaf_id)]

    def get_tree(self) -> list[TreeNode]:
        """Return the whole tree: roots, each with children sorted oldest first."""
        nodes: dict[str, TreeNode] = {}
        for raw in self._by_id.values():
            label = self._labels.get(raw["id"])
            nodes[raw["id"]] = TreeNode(
                self._typed_entry(raw), label[0] if label else None, label[1] if label else None
            )
        roots: list[TreeNode] = []
        for raw in self._by_id.values():
            parent = nodes.get(raw.get("parentId") or "")
            if parent is None or raw.get("parentId") == raw["id"]:
                roots.append(nodes[raw["id"]])
            else:
                parent.children.append(nodes[raw["id"]])
        for node in nodes.values():
            node.children.sort(key=lambda child: child.entry.timestamp)
        return roots

    def branch(self, entry_id: str) -> None:
        """Move the leaf to an earlier entry; the next append starts a new branch there."""
        if entry_id not in self._by_id:
            raise KeyError(f"Entry {entry_id} not found")
        self._leaf_id = entry_id

    def reset_leaf(self) -> None:
        """Move the leaf before the first entry; the next append is a new root."""
        self._leaf_id = None

    def branch_with_summary(
        self,
        entry_id: str | None,
        summary: str,
        details: Any = None,
        from_hook: bool | None = None,
    ) -> str:
        """Branch at `entry_id` and record a summary of the path left behind."""
        if entry_id is not None and entry_id not in self._by_id:
            raise KeyError(f"Entry {entry_id} not found")
        self._leaf_id = entry_id
        return self._append(
            {
                "type": "branch_summary",
                "fromId": entry_id or "root",
                "summary": summary,
                "details": details,
                "fromHook": from_hook,
            }
        )

    def create_branched_session(self, leaf_id: str) -> Path | None:
        """Continue in a new session holding only the path to `leaf_id` (and its labels)."""
        path = [e for e in path_to_root(self._by_id.get(leaf_id), self._by_id)]
        if not path:
            raise KeyError(f"Entry {leaf_id} not found")
        kept = [e for e in path if e.get("type") != "label"]
        ids = {e["id"] for e in kept}
        previous_file = self.session_file
        header = _header(new_session_id(), self.cwd, str(previous_file) if self.persist else None)
        labels: list[RawEntry] = []
        parent = kept[-1]["id"] if kept else None
        for target, (label, stamp) in self._labels.items():
            if target in ids:
                label_id = new_entry_id(ids)
                ids.add(label_id)
                labels.append(
                    {"type": "label", "id": label_id, "parentId": parent, "timestamp": stamp,
                     "targetId": target, "label": label}
                )  # fmt: skip
                parent = label_id
        self._close()
        self.session_id = header["id"]
        entries = [header, *kept, *labels]
        self._reset(entries, written=0)
        if not self.persist or self.session_dir is None:
            self.session_file = None
            return None
        name = f"{file_timestamp(header['timestamp'])}_{self.session_id}.jsonl"
        self.session_file = self.session_dir / name
        if self._has_assistant:
            rewrite_file(self.session_file, entries)
            self._written = len(entries)
        return self.session_file

    # --- reading --------------------------------------------------------------------------

    def build_session_context(self) -> SessionContext:
        """Return the messages, model and thinking level for the LLM at the current leaf.

        Built once per state of the tree (the leaf and the number of entries: entries are only
        ever added, and a new file resets it); each call gets its own copy of the lists.
        """
        key = (self._leaf_id, len(self._entries))
        if self._context is None or self._context[0] != key:
            with gc_paused(long_lived=True):
                context = build_session_context(
                    self._entries,
                    self._leaf_id,
                    self._by_id,
                    parse_messages=self._messages_of,
                    path=self._chain_path(self._leaf_id),
                )
            self._context = (key, context)
        return copy_context(self._context[1])

    def get_header(self) -> SessionHeader:
        """Return the session header."""
        return SessionHeader.model_validate(self._entries[0])

    def get_entries(self) -> list[SessionEntry]:
        """Return every entry (not the header), in file order."""
        return [self._typed_entry(e) for e in self._entries[1:]]

    def get_raw_entries(self) -> list[RawEntry]:
        """Return every line of the session as JSON dicts, header first (copies)."""
        return [dict(e) for e in self._entries]

    def get_session_name(self) -> str | None:
        """Return the name from the latest session_info entry, if any."""
        for entry in reversed(self._entries):
            if entry.get("type") == "session_info":
                return (entry.get("name") or "").strip() or None
        return None

    def is_persisted(self) -> bool:
        """Return whether this session is written to disk."""
        return self.persist

    def close(self) -> None:
        """Release the file descriptor used for appends."""
        self._close()

    # --- internals ------------------------------------------------------------------------

    def _reset(self, entries: list[RawEntry], written: int) -> None:
        self._entries = entries
        self._by_id = {}
        self._labels = {}
        self._typed = {}
        self._messages = {}
        self._context = None
        self._leaf_id = None
        self._has_assistant = False
        self._written = written
        by_id = self._by_id
        has_assistant = False
        chain = True
        previous: str | None = None
        for entry in entries[1:]:
            entry_id = entry.get("id")
            if not isinstance(entry_id, str):
                chain = False
                continue
            if chain and (entry.get("parentId") != previous or entry_id in by_id):
                chain = False
            by_id[entry_id] = entry
            previous = entry_id
            if entry.get("type") == "label":
                self._apply_label(entry)
            elif not has_assistant and _is_assistant(entry):  # found once is enough
                has_assistant = True
        self._leaf_id = previous
        self._chain = chain
        self._has_assistant = has_assistant

    def _append(self, fields: RawEntry, first: bool = False) -> str:
        base = {
            "id": new_entry_id(self._by_id),
            "parentId": self._leaf_id,
            "timestamp": iso_now(),
        }
        # pi writes custom entries with their own fields first; others with the base first
        entry = {**fields, **base} if first else {"type": fields["type"], **base, **fields}
        entry = {k: v for k, v in entry.items() if v is not None or k in ("parentId",)}
        if self._chain:
            last = self._entries[-1] if len(self._entries) > 1 else None
            self._chain = self._leaf_id == (last["id"] if last is not None else None)
        self._entries.append(entry)
        self._by_id[entry["id"]] = entry
        self._leaf_id = entry["id"]
        self._has_assistant = self._has_assistant or _is_assistant(entry)
        self._persist()
        return str(entry["id"])

    def _persist(self) -> None:
        if not self.persist or self.session_file is None or not self._has_assistant:
            return
        pending = self._entries[self._written :]
        if not pending:
            return
        if self._appender is None:
            self._appender = Appender(self.session_file)
        self._appender.write(b"".join([encode_line(e) for e in pending]))
        self._written = len(self._entries)

    def _close(self) -> None:
        if self._appender is not None:
            self._appender.close()
            self._appender = None

    def _forget_models(self) -> None:
        """Drop the typed entries, messages and context built from the entries (rebuilt on
        demand), keeping the entries themselves."""
        self._typed = {}
        self._messages = {}
        self._context = None

    def _apply_label(self, entry: RawEntry) -> None:
        target = entry.get("targetId")
        if not isinstance(target, str):
            return
        if entry.get("label"):
            self._labels[target] = (entry["label"], entry.get("timestamp", ""))
        else:
            self._labels.pop(target, None)

    def _typed_entry(self, raw: RawEntry) -> SessionEntry:
        entry_id = raw["id"]
        typed = self._typed.get(entry_id)
        if typed is None:
            typed = _entry_adapter.validate_python(raw)
            self._typed[entry_id] = typed
        return typed

    def _path_to(self, leaf_id: str | None) -> list[RawEntry]:
        """The entries from the root to `leaf_id`."""
        path = self._chain_path(leaf_id)
        if path is None:
            path = path_to_root(self._by_id.get(leaf_id) if leaf_id else None, self._by_id)
        return path

    def _chain_path(self, leaf_id: str | None) -> list[RawEntry] | None:
        """The path to `leaf_id` without walking it, when the file is one chain ending there."""
        if self._chain and leaf_id is not None and leaf_id == self._entries[-1].get("id"):
            return self._entries[1:]
        return None

    def _messages_of(self, entries: list[RawEntry]) -> list[AgentMessage | str]:
        """The messages of these entries, validated once each (and all new ones in one call)."""
        cache = self._messages
        missing = [entry for entry in entries if entry["id"] not in cache] if cache else entries
        parsed = parse_messages(missing) if missing else []
        if missing is entries and str not in map(type, parsed):  # all new, all readable
            cache.update(zip([entry["id"] for entry in entries], parsed, strict=True))  # type: ignore[arg-type]
            return parsed
        fresh = iter(parsed)
        results: list[AgentMessage | str] = []
        for entry in entries:
            message = cache.get(entry["id"])
            if message is None:
                one = next(fresh)
                if not isinstance(one, str):
                    cache[entry["id"]] = one
                results.append(one)
            else:
                results.append(message)
        return results


def _header(session_id: str, cwd: str, parent_session: str | None) -> RawEntry:
    header: RawEntry = {
        "type": "session",
        "version": CURRENT_SESSION_VERSION,
        "id": session_id,
        "timestamp": iso_now(),
        "cwd": cwd,
    }
    if parent_session:
        header["parentSession"] = parent_session
    return header


def _is_assistant(entry: RawEntry) -> bool:
    message = entry.get("message")
    return (
        entry.get("type") == "message"
        and isinstance(message, dict)
        and message.get("role") == "assistant"
    )
