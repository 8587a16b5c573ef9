"""`@tool`: a tool whose parameter schema comes from a typed Python function."""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated, Any, overload

from pydantic import BaseModel, ConfigDict, Field, create_model

from pi_core.abort import AbortSignal
from pi_core.tools.docstrings import parameter_descriptions, summary
from pi_core.tools.tool import Tool, ToolResult, ToolUpdateCallback

if TYPE_CHECKING:
    from pi_core.plugins.context import ExtensionContext

ToolFunction = Callable[..., "str | ToolResult | Awaitable[str | ToolResult]"]
"""What `@tool` decorates: a `def` or `async def` returning text or a `ToolResult`."""


class _ContextMarker:
    """Stands for `ExtensionContext` while annotations are resolved (no import of the context,
    which imports the tool API)."""


_INJECTED_NAMES: dict[str, Any] = {
    "ExtensionContext": _ContextMarker,
    "CommandContext": _ContextMarker,
    "AbortSignal": AbortSignal,
    "ToolUpdateCallback": ToolUpdateCallback,
}


class FunctionSchemaTool(Tool[BaseModel]):
    """A tool made by `@tool`: the function's typed parameters are the tool's parameters."""

    def __init__(
        self,
        function: ToolFunction,
        *,
        name: str,
        label: str,
        description: str,
        parameters: type[BaseModel],
        injected: dict[str, str],
        prompt_snippet: str | None,
        prompt_guidelines: tuple[str, ...],
    ) -> None:
        self.function = function
        self.name = name
        self.label = label
        self.description = description
        self.parameters = parameters
        self.prompt_snippet = prompt_snippet
        self.prompt_guidelines = prompt_guidelines
        self._injected = injected

    async def execute(
        self,
        call_id: str,
        params: BaseModel,
        signal: AbortSignal | None,
        on_update: ToolUpdateCallback | None,
        ctx: ExtensionContext,
    ) -> ToolResult:
        """Call the function with the validated arguments and the values it asked for."""
        available: dict[str, Any] = {"ctx": ctx, "signal": signal, "on_update": on_update}
        arguments = {name: getattr(params, name) for name in type(params).model_fields}
        arguments.update({name: available[kind] for name, kind in self._injected.items()})
        value = self.function(**arguments)
        if inspect.isawaitable(value):
            value = await value
        if isinstance(value, ToolResult):
            return value
        if isinstance(value, str):
            return ToolResult.text(value)
        raise TypeError(
            f"tool {self.name!r} returned {type(value).__name__}; return a str or a ToolResult"
        )


@overload
def tool(function: ToolFunction, /) -> Tool[BaseModel]: ...


@overload
def tool(
    *,
    name: str | None = None,
    description: str | None = None,
    label: str | None = None,
    prompt_snippet: str | None = None,
    prompt_guidelines: tuple[str, ...] = (),
) -> Callable[[ToolFunction], Tool[BaseModel]]: ...


def tool(
    function: ToolFunction | None = None,
    /,
    *,
    name: str | None = None,
    description: str | None = None,
    label: str | None = None,
    prompt_snippet: str | None = None,
    prompt_guidelines: tuple[str, ...] = (),
) -> Tool[BaseModel] | Callable[[ToolFunction], Tool[BaseModel]]:
    """Turn a typed function into a `Tool`: its signature is the schema, its docstring the
    description; used bare (`@tool`) or with options (`@tool(name=...)`)."""

    def build(function: ToolFunction) -> Tool[BaseModel]:
        tool_name = name or function.__name__
        doc = inspect.getdoc(function) or ""
        text = description if description is not None else summary(doc)
        if not text:
            raise TypeError(f"tool {tool_name!r} needs a description: a docstring or description=")
        parameters, injected = _parameters(function, tool_name, parameter_descriptions(doc))
        return FunctionSchemaTool(
            function,
            name=tool_name,
            label=label or tool_name,
            description=text,
            parameters=parameters,
            injected=injected,
            prompt_snippet=prompt_snippet,
            prompt_guidelines=tuple(prompt_guidelines),
        )

    if function is not None:
        return build(function)
    return build


def _parameters(
    function: ToolFunction, tool_name: str, documented: dict[str, str]
) -> tuple[type[BaseModel], dict[str, str]]:
    """Build the parameter model from the signature; return it and {parameter: injected kind}."""
    try:
        hints = typing.get_type_hints(function, localns=_INJECTED_NAMES, include_extras=True)
    except NameError as error:  # a type imported only under TYPE_CHECKING
        raise TypeError(
            f"tool {tool_name!r}: {error}; import the parameter types at run time"
        ) from None
    fields: dict[str, Any] = {}
    injected: dict[str, str] = {}
    for parameter in inspect.signature(function).parameters.values():
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            raise TypeError(f"tool {tool_name!r}: *{parameter.name} cannot be a tool parameter")
        if parameter.kind is parameter.POSITIONAL_ONLY:
            raise TypeError(f"tool {tool_name!r}: {parameter.name} must not be positional-only")
        if parameter.name not in hints:
            raise TypeError(f"tool {tool_name!r}: parameter {parameter.name!r} needs a type")
        hint = hints[parameter.name]
        kind = _injected_kind(hint)
        if kind is not None:
            injected[parameter.name] = kind
            continue
        fields[parameter.name] = (
            _described(hint, documented.get(parameter.name)),
            _default(parameter),
        )
    model_name = "".join(part.capitalize() for part in tool_name.split("_")) + "Arguments"
    model = create_model(model_name, __config__=ConfigDict(extra="ignore"), **fields)
    return model, injected


def _injected_kind(hint: Any) -> str | None:
    """Say which of execute's values ("ctx", "signal", "on_update") a hint asks for, if any."""
    options = set(typing.get_args(hint)) - {type(None)} if _is_union(hint) else {hint}
    if len(options) != 1:
        return None
    (single,) = options
    if single is _ContextMarker or _is_context_class(single):
        return "ctx"
    if single is AbortSignal:
        return "signal"
    if single == ToolUpdateCallback:
        return "on_update"
    return None


def _is_union(hint: Any) -> bool:
    return typing.get_origin(hint) in (typing.Union, types.UnionType)


def _is_context_class(hint: Any) -> bool:
    return any(
        klass.__name__ == "ExtensionContext" and klass.__module__.startswith("pi_core.")
        for klass in getattr(hint, "__mro__", ())
    )


def _described(hint: Any, description: str | None) -> Any:
    """Add a docstring's description under the annotation's own metadata, so a
    `Field(description=...)` in the annotation wins."""
    if description is None:
        return hint
    if typing.get_origin(hint) is Annotated:
        base, *metadata = typing.get_args(hint)
        return Annotated[(base, Field(description=description), *metadata)]
    return Annotated[hint, Field(description=description)]


def _default(parameter: inspect.Parameter) -> Any:
    return ... if parameter.default is parameter.empty else parameter.default
