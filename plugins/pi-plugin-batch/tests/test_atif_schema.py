"""The ATIF-v1.4 model refuses what the RFC forbids, so exports are checked against the spec."""

from __future__ import annotations

from typing import Any

import pytest
from pi_plugin_batch.atif import Trajectory
from pydantic import ValidationError


def _trajectory(*steps: dict[str, Any]) -> dict[str, Any]:
    agent = {"name": "pi", "version": "1"}
    return {"schema_version": "ATIF-v1.4", "session_id": "s", "agent": agent, "steps": list(steps)}


CALL = {"tool_call_id": "c1", "function_name": "bash", "arguments": {}}


def test_a_well_formed_trajectory_passes() -> None:
    observation = {"results": [{"source_call_id": "c1", "content": "ok"}]}
    Trajectory.model_validate(_trajectory(
        {"step_id": 1, "source": "user", "message": "hi", "timestamp": "2025-10-11T10:30:00Z"},
        {"step_id": 2, "source": "agent", "message": "", "tool_calls": [CALL],
         "observation": observation, "metrics": {"prompt_tokens": 3}},
    ))  # fmt: skip


@pytest.mark.parametrize(
    ("steps", "complaint"),
    [
        ([{"step_id": 2, "source": "user", "message": "hi"}], "step_id"),
        ([{"step_id": 1, "source": "user", "message": "hi", "tool_calls": [CALL]}], "agent steps"),
        (
            [
                {
                    "step_id": 1,
                    "source": "agent",
                    "message": "",
                    "observation": {"results": [{"source_call_id": "c9"}]},
                }
            ],
            "c9",
        ),
        ([{"step_id": 1, "source": "robot", "message": ""}], "source"),
        ([{"step_id": 1, "source": "user"}], "message"),
        ([{"step_id": 1, "source": "user", "message": "", "timestamp": "yesterday"}], "timestamp"),
        ([{"step_id": 1, "source": "user", "message": "", "mood": "happy"}], "mood"),
    ],
)
def test_what_the_rfc_forbids_is_refused(steps: list[dict[str, Any]], complaint: str) -> None:
    with pytest.raises(ValidationError, match=complaint):
        Trajectory.model_validate(_trajectory(*steps))
