"""Messages read from a session share their fields-sets, and behave as if they did not."""

from __future__ import annotations

import copy
import json
import pickle
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from pi_core.messages import AssistantMessage, ToolCall
from pi_core.messages.agent import parse_agent_message
from pi_core.messages.replace import with_fields
from pi_core.session.context import parse_messages

SESSIONS = Path(__file__).parents[1] / "fixtures" / "sessions"
FIXTURES = sorted(SESSIONS.glob("*.jsonl")) + sorted(
    (Path(__file__).parent / "fixtures").glob("*.jsonl")
)


def _entries(path: Path) -> list[dict[str, Any]]:
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [entry for entry in lines if entry.get("type") == "message"]


def _models(value: Any) -> list[BaseModel]:
    """The model and every model below it, depth first."""
    if isinstance(value, BaseModel):
        found = [value]
        for field in value.__dict__.values():
            found += _models(field)
        return found
    if isinstance(value, list):
        return [model for item in value for model in _models(item)]
    return []


def _large() -> list[AssistantMessage]:
    """The large session's assistant messages that have no error message (most of them)."""
    messages = parse_messages(_entries(SESSIONS / "large-session.jsonl"))
    return [
        m
        for m in messages
        if isinstance(m, AssistantMessage) and "error_message" not in m.model_fields_set
    ]


def test_the_large_sessions_models_share_a_few_fields_sets() -> None:
    models = [
        model
        for message in parse_messages(_entries(SESSIONS / "large-session.jsonl"))
        for model in _models(message)
    ]
    assert len(models) > 2_900
    assert len({id(model.__pydantic_fields_set__) for model in models}) < 30


@pytest.mark.parametrize("path", FIXTURES, ids=lambda path: path.name)
def test_shared_sets_change_no_dump(path: Path) -> None:
    entries = _entries(path)
    shared = parse_messages(entries)
    own = [parse_agent_message(entry["message"]) for entry in entries]
    assert shared == own
    for a, b in zip(shared, own, strict=True):
        assert isinstance(a, BaseModel) and isinstance(b, BaseModel)
        assert a.model_fields_set == b.model_fields_set
        assert a.model_dump_json(by_alias=True, exclude_unset=True) == b.model_dump_json(
            by_alias=True, exclude_unset=True
        )
        assert a.to_wire() == b.to_wire()


def test_assigning_a_field_changes_only_that_models_set() -> None:
    first, second = _large()[:2]
    assert first.__pydantic_fields_set__ is second.__pydantic_fields_set__
    assert "error_message" not in first.model_fields_set
    first.error_message = "boom"
    assert "error_message" in first.model_fields_set
    assert "error_message" not in second.model_fields_set
    assert first.model_dump(exclude_unset=True)["error_message"] == "boom"
    assert "error_message" not in second.model_dump(exclude_unset=True)
    first.usage.cost.total = 1.5  # nested models too
    assert first.usage.cost.total == 1.5 and second.usage.cost.total != 1.5


def test_copies_have_sets_of_their_own() -> None:
    first, second = _large()[:2]
    for copied in (
        first.model_copy(update={"error_message": "x"}),
        copy.copy(first),
        copy.deepcopy(first),
    ):
        assert type(copied.__pydantic_fields_set__) is set
        copied.response_id = "r"
        assert "response_id" in copied.model_fields_set
    assert first.model_fields_set == second.model_fields_set
    assert "error_message" not in first.model_fields_set


def test_with_fields_keeps_sets_shared() -> None:
    first = _large()[0]
    same = with_fields(first, content=[])
    assert same.__pydantic_fields_set__ is first.__pydantic_fields_set__
    wider = with_fields(first, error_message="e")
    assert wider.model_fields_set == first.model_fields_set | {"error_message"}
    assert "error_message" not in first.model_fields_set
    calls = [b for m in _large() for b in m.content if isinstance(b, ToolCall)]
    renamed = [with_fields(call, id="x", thought_signature=None) for call in calls[:2]]
    assert renamed[0].model_fields_set == calls[0].model_fields_set | {"id", "thought_signature"}
    assert renamed[0].__pydantic_fields_set__ is renamed[1].__pydantic_fields_set__
    assert "thought_signature" not in calls[0].model_fields_set
    renamed[0].name = "other"  # a copy's set, shared with other copies, changes for it alone
    assert renamed[1].name != "other" and renamed[1].model_fields_set == renamed[0].model_fields_set


def test_extra_fields_of_a_loaded_model_are_its_own() -> None:
    first, second = _large()[:2]
    assert first.__pydantic_extra__ is second.__pydantic_extra__ == {}
    first.vendor_note = "kept"  # an extra field (the models keep fields they do not know)
    assert first.model_extra == {"vendor_note": "kept"}
    assert second.model_extra == {} and "vendorNote" not in second.to_wire()
    assert first.to_wire()["vendor_note"] == "kept"


def test_copies_and_unpickled_models_take_extra_fields() -> None:
    first = _large()[0]
    for other in (copy.deepcopy(first), copy.copy(first), pickle.loads(pickle.dumps(first))):
        assert other == first
        other.vendor_note = "kept"
        other.error_message = "e"
        assert other.model_extra == {"vendor_note": "kept"}
        assert "error_message" in other.model_fields_set
    assert first.model_extra == {} and "error_message" not in first.model_fields_set


def test_shared_parts_refuse_changes_in_place() -> None:
    first = _large()[0]
    with pytest.raises(TypeError):
        first.__pydantic_fields_set__.add("error_message")
    extra = first.__pydantic_extra__
    assert extra is not None
    with pytest.raises(TypeError):
        extra["x"] = 1
    assert "error_message" not in first.model_fields_set and first.model_extra == {}


def test_the_large_sessions_messages_take_under_two_mib() -> None:
    entries = _entries(SESSIONS / "large-session.jsonl")
    parse_messages(entries[:3])  # the validators are built
    tracemalloc.start()
    try:
        messages = parse_messages(entries)
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(messages) == len(entries)
    # with each model's own fields-set and extra dict: 2.67 MiB held and at the peak; shared:
    # ~1.05 and ~1.26
    assert held < 2 * 2**20 and peak < 2 * 2**20
