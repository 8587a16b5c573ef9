"""An ATIF-v1.4 trajectory from a batch record and its pi session file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pi_core import SessionManager, __version__
from pi_plugin_batch.atif import SCHEMA_VERSION, Trajectory


def trajectory(out: Path, record: dict[str, Any]) -> dict[str, Any]:
    """The task's session as an ATIF trajectory (validated); the record's outcome in `extra`."""
    session = SessionManager.open(out / record["session"])
    steps: list[dict[str, Any]] = []
    for entry in _branch(session):
        _add_entry(steps, entry)
    for index, step in enumerate(steps, start=1):
        step["step_id"] = index
    metrics = [step["metrics"] for step in steps if "metrics" in step]
    data = {
        "schema_version": SCHEMA_VERSION,
        "session_id": session.get_header().id,
        "agent": {"name": "pi", "version": __version__, "model_name": record.get("model")},
        "steps": steps,
        "final_metrics": {
            "total_prompt_tokens": sum(m["prompt_tokens"] for m in metrics),
            "total_completion_tokens": sum(m["completion_tokens"] for m in metrics),
            "total_cached_tokens": sum(m["cached_tokens"] for m in metrics),
            "total_cost_usd": round(sum(m["cost_usd"] for m in metrics), 10),
            "total_steps": len(steps),
        },
        "extra": {key: record.get(key) for key in _RECORD_KEYS},
    }
    return Trajectory.model_validate(data).model_dump(mode="json", exclude_none=True)


_RECORD_KEYS = ("task_id", "attempt", "status", "error_class", "error", "repo", "ref",
                "metadata", "session", "wall_s")  # fmt: skip


def _branch(session: SessionManager) -> list[dict[str, Any]]:
    """The entries from the session's root to its leaf (the conversation pi would continue)."""
    entries = {e["id"]: e for e in session.get_raw_entries() if "id" in e}
    path: list[dict[str, Any]] = []
    entry_id = session.get_leaf_id()
    while entry_id is not None and entry_id in entries:
        path.append(entries[entry_id])
        entry_id = entries[entry_id].get("parentId")
    return path[::-1]


def _add_entry(steps: list[dict[str, Any]], entry: dict[str, Any]) -> None:
    timestamp = entry.get("timestamp")
    if entry.get("type") == "compaction":
        summary = str(entry.get("summary", ""))
        extra = {"pi_entry": "compaction"}
        steps.append(
            {"timestamp": timestamp, "source": "system", "message": summary, "extra": extra}
        )
        return
    if entry.get("type") != "message":
        return
    message = entry["message"]
    role = message.get("role")
    if role == "assistant":
        steps.append(_agent_step(message, timestamp))
    elif role == "toolResult":
        _add_observation(steps, message)
    elif role == "user":
        steps.append({"timestamp": timestamp, "source": "user", "message": _text(message)})
    else:  # pi's own message kinds (a `!` command, an extension's message)
        steps.append({"timestamp": timestamp, "source": "system", "message": _text(message),
                      "extra": {"pi_role": role}})  # fmt: skip


def _agent_step(message: dict[str, Any], timestamp: str | None) -> dict[str, Any]:
    parts = message.get("content") or []
    step: dict[str, Any] = {
        "timestamp": timestamp,
        "source": "agent",
        "model_name": f"{message.get('provider')}/{message.get('model')}",
        "message": _text(message),
        "metrics": _metrics(message.get("usage") or {}),
    }
    thinking = "".join(p.get("thinking", "") for p in parts if p.get("type") == "thinking")
    if thinking:
        step["reasoning_content"] = thinking
    calls = [p for p in parts if p.get("type") == "toolCall"]
    if calls:
        step["tool_calls"] = [
            {
                "tool_call_id": c["id"],
                "function_name": c["name"],
                "arguments": c.get("arguments") or {},
            }
            for c in calls
        ]
    if message.get("stopReason") in ("error", "aborted"):
        step["extra"] = {"stop_reason": message["stopReason"],
                         "error": message.get("errorMessage")}  # fmt: skip
    return step


def _metrics(usage: dict[str, Any]) -> dict[str, Any]:
    """ATIF counts cached tokens inside prompt_tokens; pi counts them apart from `input`."""
    cache_read, cache_write = int(usage.get("cacheRead", 0)), int(usage.get("cacheWrite", 0))
    metrics: dict[str, Any] = {
        "prompt_tokens": int(usage.get("input", 0)) + cache_read + cache_write,
        "completion_tokens": int(usage.get("output", 0)),
        "cached_tokens": cache_read,
        "cost_usd": float((usage.get("cost") or {}).get("total", 0.0)),
    }
    if cache_write:
        metrics["extra"] = {"cache_write_tokens": cache_write}
    return metrics


def _add_observation(steps: list[dict[str, Any]], message: dict[str, Any]) -> None:
    """A tool result joins the observation of the agent step that called the tool."""
    call_id = message.get("toolCallId")
    result = {"source_call_id": call_id, "content": _text(message)}
    for step in reversed(steps):
        if step["source"] == "agent" and any(
            c["tool_call_id"] == call_id for c in step.get("tool_calls", [])
        ):
            step.setdefault("observation", {"results": []})["results"].append(result)
            return
    steps.append({"source": "system", "message": "", "extra": {"pi_role": "toolResult"},
                  "observation": {"results": [{"content": result["content"]}]}})  # fmt: skip


def _text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    texts = []
    for part in content or []:
        if part.get("type") == "text":
            texts.append(part.get("text", ""))
        elif part.get("type") == "image":
            texts.append("[image]")
    return "".join(texts)


def write_trajectories(out: Path, records: list[dict[str, Any]], folder: Path) -> list[Path]:
    """Write `<task id>.json` per record with a session into `folder`; the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for record in records:
        if not record.get("session") or not (out / record["session"]).exists():
            continue
        path = folder / f"{record['task_id']}.json"
        path.write_text(json.dumps(trajectory(out, record), indent=2) + "\n")
        written.append(path)
    return written
