"""`@tool`: the schema comes from the function's typed signature, arguments are validated and
coerced by pydantic, the context is injected, and the result is a `Tool` like any other."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, Field

from pi_core import AbortSignal, ExtensionContext, Tool, ToolArgumentsError, ToolResult, tool
from pi_core.plugins.manager import PluginManager


def schema_of(function: Any) -> dict[str, Any]:
    built: Tool[Any] = tool(function)
    return built.parameters_schema()


def test_scalars_are_json_types_and_parameters_without_defaults_are_required() -> None:
    def scalars(text: str, count: int, ratio: float, on: bool = False) -> str:
        """Scalars."""
        return ""

    assert schema_of(scalars) == {
        "type": "object",
        "properties": {
            "text": {"type": "string"},
            "count": {"type": "integer"},
            "ratio": {"type": "number"},
            "on": {"type": "boolean", "default": False},
        },
        "required": ["text", "count", "ratio"],
    }


def test_literal_list_and_optional() -> None:
    def kinds(mode: Literal["fast", "slow"], tags: list[str], limit: int | None = None) -> str:
        """Kinds."""
        return ""

    assert schema_of(kinds) == {
        "type": "object",
        "properties": {
            "mode": {"type": "string", "enum": ["fast", "slow"]},
            "tags": {"type": "array", "items": {"type": "string"}},
            "limit": {"type": "integer"},
        },
        "required": ["mode", "tags"],
    }


class Point(BaseModel):
    """A point (this docstring is for Python readers, not the model)."""

    x: int
    y: int = Field(default=0, description="Height")


def test_pydantic_models_are_inlined_without_titles_or_defs() -> None:
    def draw(points: list[Point], origin: Point) -> str:
        """Draw."""
        return ""

    point = {
        "type": "object",
        "properties": {"x": {"type": "integer"}, "y": {"type": "integer", "default": 0,
                                                         "description": "Height"}},
        "required": ["x"],
    }  # fmt: skip
    assert schema_of(draw) == {
        "type": "object",
        "properties": {"points": {"type": "array", "items": point}, "origin": point},
        "required": ["points", "origin"],
    }


def test_descriptions_come_from_field_or_the_args_section_and_field_wins() -> None:
    def search(
        query: Annotated[str, Field(description="What to look for")],
        limit: int = 10,
        case: Annotated[bool, Field(description="Match case")] = False,
    ) -> str:
        """Search the notes.

        Several lines of detail
        that the model does not need.

        Args:
            query: ignored, the Field says it
            limit: How many hits to return,
                at most.
            case: ignored too

        Returns:
            the hits
        """
        return ""

    built = tool(search)
    assert built.description == "Search the notes."
    assert built.parameters_schema()["properties"] == {
        "query": {"type": "string", "description": "What to look for"},
        "limit": {"type": "integer", "default": 10,
                  "description": "How many hits to return, at most."},
        "case": {"type": "boolean", "default": False, "description": "Match case"},
    }  # fmt: skip


def test_numpy_parameters_section() -> None:
    def grep(pattern: str, path: str = ".") -> str:
        """Find a pattern.

        Parameters
        ----------
        pattern : str
            A regular expression.
        path : str
            Where to look.

        Returns
        -------
        str
        """
        return ""

    properties = schema_of(grep)["properties"]
    assert properties["pattern"]["description"] == "A regular expression."
    assert properties["path"]["description"] == "Where to look."


def test_options_override_name_description_and_label() -> None:
    @tool(name="word_count", description="Count words", label="Words", prompt_snippet="count")
    def count(text: str) -> str:
        """Not this."""
        return str(len(text.split()))

    assert (count.name, count.description, count.label) == ("word_count", "Count words", "Words")
    assert count.prompt_snippet == "count"


def test_a_bare_tool_takes_its_name_from_the_function() -> None:
    @tool
    def shout(text: str) -> str:
        """Upper-case the text."""
        return text.upper()

    assert isinstance(shout, Tool)
    assert (shout.name, shout.label, shout.description) == (
        "shout",
        "shout",
        "Upper-case the text.",
    )


def test_mistakes_are_reported_when_the_tool_is_made() -> None:
    def untyped(text) -> str:  # type: ignore[no-untyped-def]
        """Untyped."""
        return ""

    def undocumented(text: str) -> str:
        return ""

    def variadic(*texts: str) -> str:
        """Variadic."""
        return ""

    with pytest.raises(TypeError, match="parameter 'text' needs a type"):
        tool(untyped)
    with pytest.raises(TypeError, match="needs a description"):
        tool(undocumented)
    with pytest.raises(TypeError, match=r"\*texts cannot be a tool parameter"):
        tool(variadic)

    def unresolved(when: Moment) -> str:  # type: ignore[name-defined]  # noqa: F821
        """Unresolved."""
        return ""

    with pytest.raises(TypeError, match="name 'Moment' is not defined; import the parameter"):
        tool(unresolved)


def test_arguments_are_validated_with_a_clear_error_and_coerced() -> None:
    @tool
    def repeat(text: str, times: int, mode: Literal["a", "b"] = "a") -> str:
        """Repeat."""
        return text * times

    with pytest.raises(ToolArgumentsError) as caught:
        repeat.validate_arguments({"times": "many", "mode": "c"})
    message = str(caught.value)
    assert message.startswith('Validation failed for tool "repeat":\n')
    assert "  - text: Field required" in message
    assert "  - times: Input should be a valid integer" in message
    assert "  - mode: Input should be 'a' or 'b'" in message
    params = repeat.validate_arguments({"text": "ab", "times": "3"})
    assert params.model_dump() == {"text": "ab", "times": 3, "mode": "a"}


async def test_sync_and_async_functions_run_and_str_becomes_text(manager: PluginManager) -> None:
    @tool
    def sync_add(a: int, b: int) -> str:
        """Add."""
        return str(a + b)

    @tool
    async def async_add(a: int, b: int) -> str:
        """Add."""
        return str(a + b)

    for built in (sync_add, async_add):
        params = built.validate_arguments({"a": 2, "b": "3"})
        result = await built.execute("c1", params, None, None, manager.ctx)
        assert result.content == ToolResult.text("5").content


async def test_a_tool_result_is_returned_as_is_and_models_arrive_as_models(
    manager: PluginManager,
) -> None:
    seen: list[Point] = []

    @tool
    async def mark(point: Point) -> ToolResult:
        """Mark a point."""
        seen.append(point)
        return ToolResult.text("marked", details={"x": point.x})

    result = await mark.execute(
        "c1", mark.validate_arguments({"point": {"x": "4"}}), None, None, manager.ctx
    )
    assert seen == [Point(x=4)]
    assert result.details == {"x": 4} and result.text_content() == "marked"


async def test_context_and_signal_are_injected_not_in_the_schema(manager: PluginManager) -> None:
    got: dict[str, Any] = {}

    @tool
    async def where(name: str, ctx: ExtensionContext, signal: AbortSignal | None = None) -> str:
        """Say where."""
        got.update(ctx=ctx, signal=signal)
        return f"{name} in {ctx.cwd}"

    assert set(where.parameters_schema()["properties"]) == {"name"}
    params = where.validate_arguments({"name": "me", "ctx": "spoofed"})
    result = await where.execute("c1", params, None, None, manager.ctx)
    assert result.text_content() == f"me in {manager.ctx.cwd}"
    assert got == {"ctx": manager.ctx, "signal": None}


async def test_another_return_type_is_an_error(manager: PluginManager) -> None:
    @tool
    def number() -> str:
        """A number."""
        return 42  # type: ignore[return-value]

    assert number.parameters_schema() == {"type": "object", "properties": {}}
    with pytest.raises(TypeError, match="returned int; return a str or a ToolResult"):
        await number.execute("c1", number.validate_arguments({}), None, None, manager.ctx)
