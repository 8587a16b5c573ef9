"""The tool API and the parameter models of the built-in tools."""

from pi_core.tools.execution import ToolOutcome, execute_tool_call
from pi_core.tools.schema import tool_parameters_schema
from pi_core.tools.tool import (
    FunctionTool,
    Tool,
    ToolArgumentsError,
    ToolResult,
    ToolUpdateCallback,
    define_tool,
)

__all__ = [
    "FunctionTool",
    "Tool",
    "ToolArgumentsError",
    "ToolOutcome",
    "ToolResult",
    "ToolUpdateCallback",
    "define_tool",
    "execute_tool_call",
    "tool_parameters_schema",
]
