"""An MCP tool as a pi tool: `mcp__<server>__<tool>`, the server's JSON schema, mapped results."""

from __future__ import annotations

import json
from typing import Any

from mcp import types
from pydantic import BaseModel, ConfigDict

from pi_plugin_mcp._pi import (
    AbortSignal,
    ExtensionContext,
    ImageContent,
    TextContent,
    Tool,
    ToolArgumentsError,
    ToolResult,
    ToolUpdateCallback,
)
from pi_plugin_mcp.config import tool_name
from pi_plugin_mcp.connection import ServerConnection
from pi_plugin_mcp.limits import limit_result


class AnyArguments(BaseModel):
    """Arguments of an MCP tool: any JSON object (the server's schema checks them)."""

    model_config = ConfigDict(extra="allow")


class InvalidSchema(ValueError):
    """A tool's input schema is not a valid JSON schema for an object."""


def checked_schema(tool: types.Tool) -> dict[str, Any]:
    """Return the tool's input schema, or raise InvalidSchema saying what is wrong with it."""
    import jsonschema  # type: ignore[import-untyped]

    schema = dict(tool.input_schema or {})
    if schema.get("type", "object") != "object":
        raise InvalidSchema(f"input schema type is {schema.get('type')!r}, not 'object'")
    try:
        jsonschema.validators.validator_for(schema).check_schema(schema)
    except jsonschema.SchemaError as error:
        raise InvalidSchema(f"invalid input schema: {error.message}") from None
    schema.setdefault("type", "object")
    schema.setdefault("properties", {})
    return schema


class McpTool(Tool[AnyArguments]):
    """A tool one MCP server offers; calls go through pi's tool_call / tool_result hooks."""

    parameters = AnyArguments

    def __init__(
        self,
        connection: ServerConnection,
        tool: types.Tool,
        schema: dict[str, Any],
        name: str | None = None,
    ):
        self.connection = connection
        self.mcp_name = tool.name
        self.name = name or tool_name(connection.name, tool.name)
        self.label = f"{connection.name}: {tool.title or tool.name}"
        self.description = tool.description or f"{tool.name} (MCP server {connection.name})"
        self.schema = schema

    def parameters_schema(self) -> dict[str, Any]:
        """Return the server's JSON schema, as the server wrote it."""
        return self.schema

    def validate_arguments(self, arguments: dict[str, Any]) -> AnyArguments:
        """Check the arguments against the server's schema; raise ToolArgumentsError if not."""
        import jsonschema

        validator = jsonschema.validators.validator_for(self.schema)(self.schema)
        problems = sorted(validator.iter_errors(arguments), key=lambda e: list(e.path))
        if problems:
            lines = [
                f"  - {'/'.join(str(p) for p in e.path) or 'root'}: {e.message}" for e in problems
            ]
            received = json.dumps(arguments, indent=2, ensure_ascii=False, default=str)
            raise ToolArgumentsError(
                f'Validation failed for tool "{self.name}":\n'
                + "\n".join(lines)
                + f"\n\nReceived arguments:\n{received}"
            )
        return AnyArguments.model_validate(arguments)

    async def execute(
        self,
        call_id: str,
        params: AnyArguments,
        signal: AbortSignal | None,
        on_update: ToolUpdateCallback | None,
        ctx: ExtensionContext,
    ) -> ToolResult:
        """Call the server's tool; an abort cancels the request (MCP cancellation)."""
        arguments = params.model_dump()
        call = self.connection.call_tool(self.mcp_name, arguments)
        result = await (signal.race(call) if signal is not None else call)
        mapped = limit_result(to_tool_result(result), self.connection.name, self.mcp_name)
        if result.is_error:
            raise McpToolError(mapped.text_content() or f"{self.name} failed")
        return mapped


class McpToolError(RuntimeError):
    """The server answered the call with `isError: true`; the message is its text."""


def to_tool_result(result: types.CallToolResult) -> ToolResult:
    """Map an MCP result to pi content: text, images, resources as text; structured output
    goes in details."""
    content: list[Any] = []
    for block in result.content:
        if isinstance(block, types.TextContent):
            content.append(TextContent(text=block.text))
        elif isinstance(block, types.ImageContent):
            content.append(ImageContent(data=block.data, mime_type=block.mime_type))
        elif isinstance(block, types.EmbeddedResource):
            content.append(TextContent(text=resource_text(block.resource)))
        elif isinstance(block, types.ResourceLink):
            content.append(TextContent(text=f"[Resource: {block.name}] {block.uri}"))
        elif isinstance(block, types.AudioContent):
            content.append(TextContent(text=f"[Audio: {block.mime_type}, not shown]"))
    details: dict[str, Any] = {}
    if result.structured_content is not None:
        details["structuredContent"] = result.structured_content
        if not content:
            content.append(TextContent(text=json.dumps(result.structured_content)))
    return ToolResult(content=content, details=details or None)


def resource_text(resource: types.TextResourceContents | types.BlobResourceContents) -> str:
    """Return a resource's contents as text (binary contents are named, not inlined)."""
    if isinstance(resource, types.TextResourceContents):
        return f"[Resource: {resource.uri}]\n{resource.text}"
    kind = resource.mime_type or "binary"
    return f"[Resource: {resource.uri} ({kind}, {len(resource.blob)} bytes of base64)]"
