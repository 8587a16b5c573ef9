"""The tool API: schemas the LLM sees, argument validation, and errors as results."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from pi_core import AbortSignal, ExtensionContext, Tool, ToolResult, ToolUpdateCallback, define_tool
from pi_core.plugins.manager import PluginManager
from pi_core.testing import execute_tool_call
from pi_core.tools import ReadToolInput, tool_parameters_schema
from pi_core.tools.inputs import BUILTIN_TOOL_INPUTS, EditToolInput


class CountArgs(BaseModel):
    word: str = Field(description="Word to count")
    times: int = Field(default=1, description="How often")


class Counter(Tool[CountArgs]):
    name = "count"
    label = "Count"
    description = "Repeat a word"
    parameters = CountArgs

    async def execute(
        self,
        call_id: str,
        params: CountArgs,
        signal: AbortSignal | None,
        on_update: ToolUpdateCallback | None,
        ctx: ExtensionContext,
    ) -> ToolResult:
        if on_update is not None:
            on_update(ToolResult.text("working"))
        if params.word == "boom":
            raise RuntimeError("cannot count boom")
        return ToolResult.text(" ".join([params.word] * params.times), details={"n": params.times})


def test_schema_is_plain_json_schema() -> None:
    assert Counter().parameters_schema() == {
        "type": "object",
        "properties": {
            "word": {"type": "string", "description": "Word to count"},
            "times": {"type": "integer", "description": "How often", "default": 1},
        },
        "required": ["word"],
    }


def _shape(schema: Any) -> Any:
    """The schema without its prose: descriptions are our wording, everything else is pi's."""
    if isinstance(schema, dict):
        return {k: _shape(v) for k, v in schema.items() if k != "description"}
    if isinstance(schema, list):
        return [_shape(v) for v in schema]
    return schema


def test_builtin_schemas_match_pi() -> None:
    read = tool_parameters_schema(ReadToolInput)
    assert _shape(read) == {
        "type": "object",
        "properties": {
            "path": {"type": "string"},
            "offset": {"type": "number"},
            "limit": {"type": "number"},
        },
        "required": ["path"],
    }
    for model in BUILTIN_TOOL_INPUTS.values():
        properties = tool_parameters_schema(model)["properties"]
        assert all(prop.get("description") for prop in properties.values()), model
    edit = tool_parameters_schema(EditToolInput)
    assert edit["additionalProperties"] is False
    assert edit["required"] == ["path", "edits"]
    item = edit["properties"]["edits"]["items"]
    assert item["required"] == ["oldText", "newText"] and item["additionalProperties"] is False
    assert sorted(BUILTIN_TOOL_INPUTS) == ["bash", "edit", "find", "grep", "ls", "read", "write"]


async def test_valid_call_runs_and_streams_updates(manager: PluginManager) -> None:
    updates: list[str] = []
    outcome = await execute_tool_call(
        Counter(),
        "c1",
        {"word": "hi", "times": 3},
        None,
        lambda partial: updates.append(partial.text_content()),
        manager.ctx,
    )
    assert not outcome.is_error
    assert outcome.result.text_content() == "hi hi hi"
    assert outcome.result.details == {"n": 3}
    assert updates == ["working"]


async def test_invalid_arguments_become_an_error_result(manager: PluginManager) -> None:
    outcome = await execute_tool_call(Counter(), "c1", {"times": "many"}, None, None, manager.ctx)
    assert outcome.is_error
    text = outcome.result.text_content()
    assert text.startswith('Validation failed for tool "count":')
    assert "  - word: Field required" in text
    assert "  - times: Input should be a valid integer" in text
    assert '"times": "many"' in text  # the arguments the LLM sent are echoed back


async def test_tool_exception_becomes_an_error_result(manager: PluginManager) -> None:
    outcome = await execute_tool_call(Counter(), "c1", {"word": "boom"}, None, None, manager.ctx)
    assert outcome.is_error
    assert outcome.result.text_content() == "cannot count boom"


async def test_wrong_return_type_is_an_error_result(manager: PluginManager) -> None:
    async def bad(*args: Any) -> Any:
        return "just a string"

    tool = define_tool(name="bad", description="d", parameters=CountArgs, execute=bad)
    outcome = await execute_tool_call(tool, "c1", {"word": "x"}, None, None, manager.ctx)
    assert outcome.is_error and "expected ToolResult" in outcome.result.text_content()


async def test_define_tool_builds_a_tool(manager: PluginManager) -> None:
    async def run(call_id: str, params: CountArgs, *rest: Any) -> ToolResult:
        return ToolResult.text(f"{call_id}:{params.word}")

    tool = define_tool(name="echo", description="Echo", parameters=CountArgs, execute=run)
    assert tool.label == "echo"
    outcome = await execute_tool_call(tool, "id7", {"word": "w"}, None, None, manager.ctx)
    assert outcome.result.text_content() == "id7:w"


def test_edit_rejects_unknown_fields_read_ignores_them() -> None:
    import pytest

    from pi_core import ToolArgumentsError

    class Edit(Tool[EditToolInput]):
        name, label, description, parameters = "edit", "Edit", "d", EditToolInput

    with pytest.raises(ToolArgumentsError, match="Extra inputs are not permitted"):
        Edit().validate_arguments({"path": "a", "edits": [], "oops": 1})
    assert ReadToolInput.model_validate({"path": "a", "extra": 1}).path == "a"
