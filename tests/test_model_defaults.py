"""The core's list fields default through `empty_list`, which pydantic inspects cheaply."""

from __future__ import annotations

import importlib
import inspect

import pytest
from pydantic import BaseModel

from pi_core.model_defaults import empty_list
from pi_core.resources.settings.models import Settings

# Every core module whose models had `Field(default_factory=list)`, except pi_core.session
# (session/context.py's two fields are left to the session work).
MODULES = [
    "pi_core.agent_session.session_events",
    "pi_core.ai.model",
    "pi_core.compaction.types",
    "pi_core.events.agent",
    "pi_core.events.session",
    "pi_core.events.tool_events",
    "pi_core.messages.llm",
    "pi_core.resources.settings.models",
    "pi_core.resources.system_prompt",
    "pi_core.tools.tool",
]


def test_each_call_is_a_new_empty_list() -> None:
    first, second = empty_list(), empty_list()
    assert first == [] and second == [] and first is not second


def test_model_instances_do_not_share_their_lists() -> None:
    one, other = Settings(), Settings()
    one.skills.append("x")
    assert other.skills == [] and Settings().skills == []


@pytest.mark.parametrize("name", MODULES)
def test_no_list_field_defaults_through_the_builtin(name: str) -> None:
    module = importlib.import_module(name)
    fields = [
        f"{value.__name__}.{field}"
        for value in vars(module).values()
        if inspect.isclass(value) and issubclass(value, BaseModel) and value.__module__ == name
        for field, info in value.model_fields.items()
        if info.default_factory is list
    ]
    assert fields == []
