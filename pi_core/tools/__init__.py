"""The tool API: defining a tool, its result, and the parameter models of the built-in tools.

A tool plugin returns `Tool` objects from the `register_tools` hook; `pi_core.tool` makes one from a
typed function (it lives in `pi_core.tools.decorator`; `pi_core.tools.tool` is the module of
`Tool`). The parameter and details
models of pi's seven built-in tools live here too because the typed tool-call events
(`pi_core.events.BashToolCallEvent`, ...) carry them; the tools themselves ship in
pi-plugin-tools. `atomic_write` and `write_target` write files the way pi does (through
symlinks, never half-written); `expand_path` and `resolve_to_cwd` read a path the way the
built-in tools do (a leading `@` dropped, `~` expanded); `make_private_dir` and
`SESSION_FILE_MODE` create folders and files owner-only, as session files are;
`image_auto_resize` reads the `images.autoResize` setting and `resize_image` shrinks an image to
pi's inline limits. The operations protocols (`ReadOperations`, `BashOperations`, …,
`ToolOperations`) let the built-in tools run elsewhere (pi_core.tools.operations).
"""

from pi_core.fileio import atomic_write, write_target
from pi_core.session.paths import SESSION_FILE_MODE, make_private_dir
from pi_core.tools.image_resize import (
    IMAGE_TOO_LARGE_NOTE,
    MAX_INLINE_IMAGE_BASE64_BYTES,
    ResizedImage,
    dimension_note,
    resize_image,
)
from pi_core.tools.image_settings import image_auto_resize
from pi_core.tools.inputs import (
    BashToolDetails,
    BashToolInput,
    EditReplacement,
    EditToolDetails,
    EditToolInput,
    FindToolDetails,
    FindToolInput,
    GrepToolDetails,
    GrepToolInput,
    LsToolDetails,
    LsToolInput,
    ReadToolDetails,
    ReadToolInput,
    TruncationResult,
    WriteToolInput,
)
from pi_core.tools.operations import (
    BashExecResult,
    BashOperations,
    BashSpawnContext,
    BashSpawnHook,
    EditOperations,
    FindOperations,
    GrepHit,
    GrepOperations,
    GrepQuery,
    LsOperations,
    ReadOperations,
    ToolOperations,
    WriteOperations,
)
from pi_core.tools.paths import expand_path, resolve_to_cwd
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
    "IMAGE_TOO_LARGE_NOTE",
    "MAX_INLINE_IMAGE_BASE64_BYTES",
    "SESSION_FILE_MODE",
    "BashExecResult",
    "BashOperations",
    "BashSpawnContext",
    "BashSpawnHook",
    "BashToolDetails",
    "BashToolInput",
    "EditOperations",
    "EditReplacement",
    "EditToolDetails",
    "EditToolInput",
    "FindOperations",
    "FindToolDetails",
    "FindToolInput",
    "FunctionTool",
    "GrepHit",
    "GrepOperations",
    "GrepQuery",
    "GrepToolDetails",
    "GrepToolInput",
    "LsOperations",
    "LsToolDetails",
    "LsToolInput",
    "ReadOperations",
    "ReadToolDetails",
    "ReadToolInput",
    "ResizedImage",
    "Tool",
    "ToolArgumentsError",
    "ToolOperations",
    "ToolResult",
    "ToolUpdateCallback",
    "TruncationResult",
    "WriteOperations",
    "WriteToolInput",
    "atomic_write",
    "define_tool",
    "dimension_note",
    "expand_path",
    "image_auto_resize",
    "make_private_dir",
    "resize_image",
    "resolve_to_cwd",
    "tool_parameters_schema",
    "write_target",
]
