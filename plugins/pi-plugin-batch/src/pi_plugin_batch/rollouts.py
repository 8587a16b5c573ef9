"""`rollout()`: one task run in this process, returning its record and its messages' tokens.

For RL frameworks: the same task format, working copy, error table and budget as `pi batch`,
but the session runs through the SDK in the caller's event loop, and the assistant messages
keep the token ids and logprobs the server returned (vLLM's `return_token_ids`).
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pi_core import agent_dir as default_agent_dir
from pi_core.messages import TokenData
from pi_plugin_batch.inprocess_attempt import run_attempt_in_process
from pi_plugin_batch.runner import AttemptSpec
from pi_plugin_batch.tasks import Task
from pi_plugin_batch.token_request import TokenRequest


@dataclass
class Rollout:
    """One task's outcome: its record (a results.jsonl line) and its messages as pi's JSON."""

    record: dict[str, Any]
    messages: list[dict[str, Any]]
    session_path: Path

    @property
    def assistant_messages(self) -> list[dict[str, Any]]:
        """The assistant messages, in order."""
        return [m for m in self.messages if m.get("role") == "assistant"]

    @property
    def token_data(self) -> list[TokenData | None]:
        """Each assistant message's token ids and logprobs (None where the server sent none)."""
        found = [m.get("tokenData") for m in self.assistant_messages]
        return [TokenData.model_validate(data) if data else None for data in found]


async def rollout(
    task: Task | Mapping[str, Any],
    *,
    out: str | Path | None = None,
    task_base: str | Path = ".",
    agent_dir: str | Path | None = None,
    model: str | None = None,
    tools: Sequence[str] | None = None,
    max_cost: float | None = None,
    timeout_s: float | None = None,
    idle_timeout_s: float | None = 300.0,
    attempt: int = 1,
    in_place: bool = False,
    keep_work: bool = False,
    token_ids: bool = False,
    logprobs: int | None = None,
    on_event: Callable[[Any], None] | None = None,
) -> Rollout:
    """Run one task in its own working copy in this process; return its record and messages."""
    task = task if isinstance(task, Task) else Task.model_validate(dict(task))
    out_dir = Path(out) if out is not None else Path(tempfile.mkdtemp(prefix="pi-rollout-"))
    spec = AttemptSpec(
        task=task, attempt=attempt, try_index=0, out=out_dir.resolve(),
        task_base=Path(task_base).resolve(),
        user_agent_dir=Path(agent_dir) if agent_dir is not None else default_agent_dir(),
        model=model, tools=list(tools) if tools is not None else None,
        max_cost=task.max_cost if task.max_cost is not None else max_cost,
        timeout_s=task.timeout_s or timeout_s, idle_timeout_s=idle_timeout_s,
        in_place=in_place, keep_work=keep_work,
    )  # fmt: skip
    request = TokenRequest(token_ids, logprobs) if token_ids or logprobs is not None else None
    return await _run(spec, request, on_event)


def rollout_sync(task: Task | Mapping[str, Any], **options: Any) -> Rollout:
    """`rollout()` for callers without an event loop (it runs one with asyncio.run)."""
    return asyncio.run(rollout(task, **options))


async def _run(
    spec: AttemptSpec, request: TokenRequest | None, on_event: Callable[[Any], None] | None
) -> Rollout:
    done = await run_attempt_in_process(replace(spec, token_request=request), on_event)
    return Rollout(done.result.record, done.messages, done.session_path)
