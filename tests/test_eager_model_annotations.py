"""The core's most used pydantic models carry evaluated annotations, not strings.

pydantic turns each string annotation into a `ForwardRef` (which compiles it) and evaluates it
again when the class is created; modules that are imported by every run (events, messages, tool
inputs, settings) define their models without `from __future__ import annotations`, which takes
~5 ms off each start (docs/performance.md, "Issue 34, session 10").
"""

from __future__ import annotations

import importlib
import inspect

import pytest
from pydantic import BaseModel

EAGER_MODULES = [
    "pi_core.agent_session.session_events",
    "pi_core.ai.model",
    "pi_core.compaction.types",
    "pi_core.events.agent",
    "pi_core.events.tool_events",
    "pi_core.events.user",
    "pi_core.messages.agent",
    "pi_core.messages.base",
    "pi_core.messages.content",
    "pi_core.messages.llm",
    "pi_core.messages.stream",
    "pi_core.resources.settings.models",
    "pi_core.resources.system_prompt",
    "pi_core.tools.inputs",
]


@pytest.mark.parametrize("name", EAGER_MODULES)
def test_models_are_defined_with_evaluated_annotations(name: str) -> None:
    module = importlib.import_module(name)
    models = [
        value
        for value in vars(module).values()
        if inspect.isclass(value) and issubclass(value, BaseModel) and value.__module__ == name
    ]
    assert models, f"{name} defines no pydantic model"
    strings = [
        f"{model.__name__}.{field}"
        for model in models
        for field, annotation in inspect.get_annotations(model).items()
        if isinstance(annotation, str)
    ]
    assert strings == []
