"""Reading a session costs no more than it must: the context is built once per state of the
tree, and the branch is searched for an entry type without building typed entries."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_core import AssistantMessage, TextContent, UserMessage
from pi_core.session import SessionManager
from pi_core.session import context as context_module
from pi_core.session import manager as manager_module


def _assistant(text: str, model: str = "m1") -> AssistantMessage:
    return AssistantMessage(
        content=[TextContent(text=text)], api="openai-completions", provider="fake", model=model
    )


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the walks of the tree that build a context."""
    calls: list[int] = []
    build = context_module.build_session_context

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return build(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(manager_module, "build_session_context", counted)
    return calls


def test_asking_again_without_a_change_does_not_build_it_again(builds: list[int]) -> None:
    manager = SessionManager.in_memory()
    manager.append_message(UserMessage(content="hi"))
    manager.append_message(_assistant("hello"))
    first = manager.build_session_context()
    second = manager.build_session_context()
    assert len(builds) == 1
    assert second.messages == first.messages and second.model == first.model
    assert second.messages is not first.messages  # each caller its own list
    first.messages.clear()
    first.warnings.append("changed by a caller")
    third = manager.build_session_context()
    assert len(third.messages) == 2 and third.warnings == []
    assert third.model is not None and third.model.model_id == "m1"


def test_a_new_entry_a_branch_or_another_file_builds_it_again(
    builds: list[int], tmp_path: Path
) -> None:
    manager = SessionManager.create("/proj", tmp_path)
    manager.append_message(UserMessage(content="one"))
    first_answer = manager.append_message(_assistant("1"))
    assert len(manager.build_session_context().messages) == 2
    manager.append_message(UserMessage(content="two"))
    manager.append_model_change("fake", "m2")
    context = manager.build_session_context()
    assert len(context.messages) == 3
    assert context.model is not None and context.model.model_id == "m2"
    manager.branch(first_answer)
    context = manager.build_session_context()
    assert len(context.messages) == 2
    assert context.model is not None and context.model.model_id == "m1"
    path = manager.session_file
    assert path is not None
    other = SessionManager.create("/proj", tmp_path)
    other.append_message(UserMessage(content="elsewhere"))
    other.append_message(_assistant("there", model="m3"))
    assert other.session_file is not None
    manager.switch_to(other.session_file)
    context = manager.build_session_context()
    assert [m.role for m in context.messages] == ["user", "assistant"]
    assert context.model is not None and context.model.model_id == "m3"
    assert len(builds) == 4


def test_the_branch_is_asked_for_an_entry_type_without_typed_entries(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    manager = SessionManager.in_memory()
    manager.append_thinking_level_change("high")
    manager.append_message(UserMessage(content="hi"))
    manager.append_message(_assistant("hello"))
    monkeypatch.setattr(manager_module, "_entry_adapter", None)  # a typed entry would fail
    assert manager.branch_has_entry_type("thinking_level_change")
    assert not manager.branch_has_entry_type("compaction")
    manager.reset_leaf()
    assert not manager.branch_has_entry_type("thinking_level_change")
