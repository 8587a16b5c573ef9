"""The MCP server of `pi mcp serve`: tools listed and called, over stdio or Streamable HTTP."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
from mcp import types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server

from pi_plugin_mcp._pi import ToolResult, pi_version
from pi_plugin_mcp.serve.coding_tools import CodingTools, ToolArgumentsError, ToolDeclined
from pi_plugin_mcp.serve.schemas import (
    PI_REPLY,
    PI_RUN,
    REPLY_DESCRIPTION,
    RUN_DESCRIPTION,
    limits_of,
)
from pi_plugin_mcp.serve.sessions import ServedSessions, UnknownSession


def _text(text: str) -> types.TextContent:
    return types.TextContent(text=text)


def _error(text: str) -> types.CallToolResult:
    return types.CallToolResult(content=[_text(text)], is_error=True)


def _run_result(result: dict[str, Any]) -> types.CallToolResult:
    """The answer as text, a line of facts, the patch; everything in structuredContent."""
    facts = {key: result[key] for key in ("sessionId", "status", "usage", "cost")}
    content: list[types.ContentBlock] = [
        _text(result["text"] or f"(no text; status: {result['status']})")
    ]
    content.append(_text("pi: " + json.dumps(facts)))
    if result.get("patch"):
        content.append(_text(result["patch"]))
    return types.CallToolResult(content=content, structured_content=result)


def _tool_result(result: ToolResult) -> types.CallToolResult:
    """A pi ToolResult as MCP content (text and images)."""
    content: list[types.ContentBlock] = []
    for block in result.content:
        if block.type == "image":
            content.append(types.ImageContent(data=block.data, mime_type=block.mime_type))
        else:
            content.append(_text(block.text))
    return types.CallToolResult(content=content)


class PiMcpServer:
    """pi_run and pi_reply (and, with `expose_tools`, the coding tools) as an MCP server."""

    def __init__(self, approve: bool, expose_tools: bool, cwd: Path) -> None:
        self.sessions = ServedSessions(approve)
        self.coding = CodingTools(cwd, approve) if expose_tools else None

    def build(self) -> Server[Any]:
        """The SDK's low-level Server with our handlers."""
        return Server(
            "pi", version=pi_version(), on_list_tools=self.list_tools, on_call_tool=self.call_tool,
            instructions="pi, a coding agent: pi_run starts a task, pi_reply continues it.",
        )  # fmt: skip

    async def list_tools(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        """pi_run, pi_reply, and the coding tools when exposed."""
        tools = [
            types.Tool(name="pi_run", description=RUN_DESCRIPTION, input_schema=PI_RUN),
            types.Tool(name="pi_reply", description=REPLY_DESCRIPTION, input_schema=PI_REPLY),
        ]
        if self.coding is not None:
            tools += [
                types.Tool(name=name, description=description, input_schema=schema)
                for name, description, schema in self.coding.schemas()
            ]
        return types.ListToolsResult(tools=tools)

    async def call_tool(
        self, ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        """Run one tool call; failures become error results the client reads."""
        arguments = params.arguments or {}
        step = 0

        async def report(message: str) -> None:
            nonlocal step
            step += 1
            await ctx.session.report_progress(step, None, message)

        try:
            if params.name == "pi_run":
                jsonschema.validate(arguments, PI_RUN)
                result = await self.sessions.run(
                    arguments["prompt"], arguments["cwd"], report,
                    model=arguments.get("model"), tools=arguments.get("tools"),
                    limits=limits_of(arguments),
                )  # fmt: skip
                return _run_result(result)
            if params.name == "pi_reply":
                jsonschema.validate(arguments, PI_REPLY)
                result = await self.sessions.reply(
                    arguments["session_id"], arguments["prompt"], report, limits_of(arguments)
                )
                return _run_result(result)
            if self.coding is not None and params.name in self.coding.tools:
                return _tool_result(await self.coding.call(params.name, arguments))
            return _error(f"Unknown tool {params.name!r}")
        except jsonschema.ValidationError as error:
            return _error(f"Invalid arguments for {params.name}: {error.message}")
        except (ToolDeclined, ToolArgumentsError, UnknownSession, ValueError) as error:
            return _error(str(error))
        except Exception as error:  # the run failed: the client reads why
            return _error(f"{params.name} failed: {type(error).__name__}: {error}")
