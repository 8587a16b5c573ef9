"""ATIF-v1.4 (Harbor's Agent Trajectory Interchange Format) as pydantic models, from its RFC.

Written from the RFC `docs/rfcs/0001-trajectory-format.md` of laude-institute/harbor (v1.4):
required and optional fields as its tables give them, unknown fields refused, and the RFC's
rules checked: step ids count from 1, agent-only fields only on agent steps, and every
observation's `source_call_id` names a tool call of the same step.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, field_validator, model_validator

SCHEMA_VERSION = "ATIF-v1.4"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Agent(_Strict):
    """The agent system that produced the trajectory."""

    name: str
    version: str
    model_name: str | None = None
    extra: dict[str, Any] | None = None


class ToolCall(_Strict):
    """One tool call of an agent step."""

    tool_call_id: str
    function_name: str
    arguments: dict[str, Any]


class SubagentTrajectoryRef(_Strict):
    """A reference to a delegated subagent's trajectory."""

    session_id: str
    trajectory_path: str | None = None
    extra: dict[str, Any] | None = None


class ObservationResult(_Strict):
    """The result of one tool call or action."""

    source_call_id: str | None = None
    content: str | None = None
    subagent_trajectory_ref: list[SubagentTrajectoryRef] | None = None


class Observation(_Strict):
    """What the environment answered a step with."""

    results: list[ObservationResult]


class Metrics(_Strict):
    """One agent step's LLM usage (prompt_tokens includes cached_tokens)."""

    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cached_tokens: int | None = None
    cost_usd: float | None = None
    prompt_token_ids: list[int] | None = None
    completion_token_ids: list[int] | None = None
    logprobs: list[float] | None = None
    extra: dict[str, Any] | None = None


class FinalMetrics(_Strict):
    """The trajectory's totals."""

    total_prompt_tokens: int | None = None
    total_completion_tokens: int | None = None
    total_cached_tokens: int | None = None
    total_cost_usd: float | None = None
    total_steps: int | None = None
    extra: dict[str, Any] | None = None


_AGENT_ONLY = ("model_name", "reasoning_effort", "reasoning_content", "tool_calls", "metrics")


class Step(_Strict):
    """A system prompt, a user message or one agent turn."""

    step_id: int
    timestamp: str | None = None
    source: Literal["system", "user", "agent"]
    model_name: str | None = None
    reasoning_effort: str | float | None = None
    message: str
    reasoning_content: str | None = None
    tool_calls: list[ToolCall] | None = None
    observation: Observation | None = None
    metrics: Metrics | None = None
    extra: dict[str, Any] | None = None

    @field_validator("timestamp")
    @classmethod
    def _iso_8601(cls, value: str | None) -> str | None:
        if value is not None:
            datetime.fromisoformat(value.replace("Z", "+00:00"))
        return value

    @model_validator(mode="after")
    def _agent_fields_and_call_ids(self) -> Step:
        if self.source != "agent":
            used = [name for name in _AGENT_ONLY if getattr(self, name) is not None]
            if used:
                raise ValueError(f"{', '.join(used)} only apply to agent steps")
        call_ids = {call.tool_call_id for call in self.tool_calls or []}
        for result in self.observation.results if self.observation else []:
            if result.source_call_id is not None and result.source_call_id not in call_ids:
                raise ValueError(f"source_call_id {result.source_call_id} is no tool call here")
        return self


class Trajectory(_Strict):
    """A whole ATIF trajectory."""

    schema_version: Literal["ATIF-v1.4"]
    session_id: str
    agent: Agent
    steps: list[Step]
    notes: str | None = None
    final_metrics: FinalMetrics | None = None
    extra: dict[str, Any] | None = None

    @model_validator(mode="after")
    def _sequential_steps(self) -> Trajectory:
        for index, step in enumerate(self.steps, start=1):
            if step.step_id != index:
                raise ValueError(f"step {index} has step_id {step.step_id}")
        return self
