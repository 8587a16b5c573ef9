"""JSON schemas for tool parameters, shaped the way pi sends them to an LLM."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema


class _ToolSchemaGenerator(GenerateJsonSchema):
    """Optional fields become plain non-required properties; no titles, no null defaults."""

    def nullable_schema(self, schema: core_schema.NullableSchema) -> JsonSchemaValue:
        return self.generate_inner(schema["schema"])

    def default_schema(self, schema: core_schema.WithDefaultSchema) -> JsonSchemaValue:
        inner = self.generate_inner(schema["schema"])
        if schema.get("default") is None:
            return inner
        return super().default_schema(schema)

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False

    def model_schema(self, schema: core_schema.ModelSchema) -> JsonSchemaValue:
        result = super().model_schema(schema)
        result.pop("title", None)
        result.pop("description", None)  # a model's docstring is for Python readers
        return result


def _inline_refs(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            target = dict(defs[ref.removeprefix("#/$defs/")])
            extra = {k: v for k, v in node.items() if k != "$ref"}
            return _inline_refs({**target, **extra}, defs)
        return {k: _inline_refs(v, defs) for k, v in node.items()}
    if isinstance(node, list):
        return [_inline_refs(item, defs) for item in node]
    return node


def tool_parameters_schema(model: type[BaseModel]) -> dict[str, Any]:
    """Return the self-contained JSON schema of a tool's parameter model, as the LLM sees it."""
    schema = model.model_json_schema(by_alias=True, schema_generator=_ToolSchemaGenerator)
    defs = schema.pop("$defs", {})
    inlined: dict[str, Any] = _inline_refs(schema, defs)
    return inlined
