"""Claude Code transcripts: ~/.claude/projects/<cwd slug>/<session id>.jsonl, a line a message."""

from __future__ import annotations

import json
import os
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from pi_core.messages import (
    AssistantMessage,
    ImageContent,
    TextContent,
    ToolResultMessage,
    UserMessage,
)
from pi_core.tools import SESSION_FILE_MODE, make_private_dir
from pi_plugin_claude.protocol.messages import (
    anthropic_message,
    content_block,
    new_uuid,
    tool_result_content,
    tool_result_line,
)

TRANSCRIPT_VERSION = "2.1.5"
"""The Claude Code transcript format these lines follow (the fields of its conversation lines)."""


def claude_config_dir() -> Path:
    """`$CLAUDE_CONFIG_DIR`, else ~/.claude."""
    configured = os.environ.get("CLAUDE_CONFIG_DIR")
    return Path(configured).expanduser() if configured else Path.home() / ".claude"


def project_slug(cwd: str) -> str:
    """Claude's folder name for a project: the absolute cwd, each non-alphanumeric → `-`."""
    return re.sub(r"[^A-Za-z0-9]", "-", str(Path(cwd).resolve()))


def transcript_path(cwd: str, session_id: str) -> Path:
    """Where Claude Code keeps the transcript of `session_id` in `cwd`."""
    return claude_config_dir() / "projects" / project_slug(cwd) / f"{session_id}.jsonl"


def _open_private(path: Path, flag: int) -> TextIO:
    """Open a transcript for writing (append or truncate), creating it owner-only (0600) as
    Claude Code does: transcripts hold code and command output."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | flag, SESSION_FILE_MODE)
    return os.fdopen(fd, "a" if flag == os.O_APPEND else "w", encoding="utf-8")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _git_branch(cwd: str) -> str:
    head = Path(cwd) / ".git" / "HEAD"
    try:
        text = head.read_text().strip()
    except OSError:
        return ""
    return text.rsplit("/", 1)[-1] if text.startswith("ref:") else ""


def user_content(message: UserMessage) -> str | list[dict[str, Any]]:
    """A prompt as Claude writes it: a string, or Anthropic blocks when it holds images."""
    content = message.content
    if isinstance(content, str):
        return content
    if all(isinstance(block, TextContent) for block in content):
        return "\n".join(block.text for block in content if isinstance(block, TextContent))
    blocks: list[dict[str, Any]] = []
    for block in content:
        if isinstance(block, TextContent):
            blocks.append({"type": "text", "text": block.text})
        elif isinstance(block, ImageContent):
            source = {"type": "base64", "media_type": block.mime_type, "data": block.data}
            blocks.append({"type": "image", "source": source})
    return blocks


class TranscriptWriter:
    """Appends a conversation's messages to its Claude Code transcript, linked by parentUuid."""

    def __init__(self, cwd: str, session_id: str, version: str) -> None:
        self.cwd = str(Path(cwd).resolve())
        self.session_id = session_id
        self.version = version
        self.path = transcript_path(cwd, session_id)
        self.parent_uuid = self._last_uuid()
        self.branch = _git_branch(cwd)
        self.prompt_id = ""
        self.permission_mode = "default"
        self._assistant_uuids: dict[str, str] = {}
        self._tool_inputs: dict[str, dict[str, Any]] = {}

    def begin_prompt(self, permission_mode: str) -> None:
        """A new prompt starts: its lines share a fresh promptId."""
        self.prompt_id = new_uuid()
        self.permission_mode = permission_mode

    def _last_uuid(self) -> str | None:
        """The uuid of the file's last conversation line, so a resumed chain continues."""
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except OSError:
            return None
        for line in reversed(lines):
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(entry, dict) and entry.get("type") in ("user", "assistant"):
                value = entry.get("uuid")
                return str(value) if value else None
        return None

    def _write(self, entry: dict[str, Any]) -> None:
        make_private_dir(self.path.parent)
        with _open_private(self.path, os.O_APPEND) as handle:
            handle.write(json.dumps(entry, ensure_ascii=False) + "\n")

    def _line(self, kind: str, message: dict[str, Any], **extra: Any) -> dict[str, Any]:
        uid = new_uuid()
        entry = {
            "parentUuid": self.parent_uuid,
            "isSidechain": False,
            "userType": "external",
            "cwd": self.cwd,
            "sessionId": self.session_id,
            "version": self.version,
            "gitBranch": self.branch,
            "entrypoint": "sdk-cli",
            "type": kind,
            "message": message,
            "uuid": uid,
            "timestamp": _now(),
            **extra,
        }
        self.parent_uuid = uid
        return entry

    def record(self, message: Any) -> None:
        """Append one pi message (user prompt, assistant reply, tool result) in Claude's form."""
        if isinstance(message, UserMessage):
            prompt = {"role": "user", "content": user_content(message)}
            self._write(
                self._line(
                    "user",
                    prompt,
                    promptId=self.prompt_id,
                    permissionMode=self.permission_mode,
                    promptSource="sdk",
                )
            )
        elif isinstance(message, AssistantMessage):
            for block in message.content:
                converted = content_block(block)
                if converted is None:
                    continue
                entry = self._line("assistant", anthropic_message(message, [converted]))
                if converted["type"] == "tool_use":
                    self._assistant_uuids[converted["id"]] = entry["uuid"]
                    self._tool_inputs[converted["id"]] = converted.get("input") or {}
                self._write(entry)
        elif isinstance(message, ToolResultMessage):
            tool_input = self._tool_inputs.pop(message.tool_call_id, None)
            line = tool_result_line(message, self.session_id, tool_input)
            block = line["message"]["content"][0]
            block["content"] = tool_result_content(message, message.tool_name)
            extra: dict[str, Any] = {
                "toolUseResult": line["tool_use_result"],
                "promptId": self.prompt_id,
            }
            source = self._assistant_uuids.get(message.tool_call_id)
            if source:
                extra["sourceToolAssistantUUID"] = source
            self._write(self._line("user", line["message"], **extra))

    def fork_from(self, source: Path) -> None:
        """Start this transcript as a copy of another session's, re-stamped with this id."""
        if not source.exists() or self.path.exists():
            return
        make_private_dir(self.path.parent)
        with source.open(encoding="utf-8") as reader, _open_private(self.path, os.O_TRUNC) as out:
            for line in reader:
                try:
                    entry = json.loads(line)
                except json.JSONDecodeError:
                    continue
                if isinstance(entry, dict) and "sessionId" in entry:
                    entry["sessionId"] = self.session_id
                out.write(json.dumps(entry, ensure_ascii=False) + "\n")
        self.parent_uuid = self._last_uuid()


__all__ = ["TranscriptWriter", "claude_config_dir", "project_slug", "transcript_path"]
