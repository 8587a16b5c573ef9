"""The distribution: seven entry points, one per tool, with pi 0.73.1's names and schemas."""

from __future__ import annotations

from pathlib import Path

from pi_plugin_tools import TOOL_MODULES, create_tools

from pi_core.plugins.manager import LoadOptions, load_plugins
from pi_core.tools import tool_parameters_schema
from pi_core.tools.inputs import BUILTIN_TOOL_INPUTS

TOOL_NAMES = {"read", "write", "edit", "bash", "grep", "find", "ls"}

PI_DESCRIPTIONS = {
    "read": (
        "Read the contents of a file. Supports text files and images (jpg, png, gif, webp). "
        "Images are sent as attachments. For text files, output is truncated to 2000 lines or "
        "50KB (whichever is hit first). Use offset/limit for large files. When you need the full "
        "file, continue with offset until complete."
    ),
    "write": (
        "Write content to a file. Creates the file if it doesn't exist, overwrites if it does. "
        "Automatically creates parent directories."
    ),
    "edit": (
        "Edit a single file using exact text replacement. Every edits[].oldText must match a "
        "unique, non-overlapping region of the original file. If two changes affect the same "
        "block or nearby lines, merge them into one edit instead of emitting overlapping edits. "
        "Do not include large unchanged regions just to connect distant changes."
    ),
    "bash": (
        "Execute a bash command in the current working directory. Returns stdout and stderr. "
        "Output is truncated to last 2000 lines or 50KB (whichever is hit first). If truncated, "
        "full output is saved to a temp file. Optionally provide a timeout in seconds."
    ),
    "grep": (
        "Search file contents for a pattern. Returns matching lines with file paths and line "
        "numbers. Respects .gitignore. Output is truncated to 100 matches or 50KB (whichever is "
        "hit first). Long lines are truncated to 500 chars."
    ),
    "find": (
        "Search for files by glob pattern. Returns matching file paths relative to the search "
        "directory. Respects .gitignore. Output is truncated to 1000 results or 50KB (whichever "
        "is hit first)."
    ),
    "ls": (
        "List directory contents. Returns entries sorted alphabetically, with '/' suffix for "
        "directories. Includes dotfiles. Output is truncated to 500 entries or 50KB (whichever "
        "is hit first)."
    ),
}


def _our_tools(cwd: Path, agent_dir: Path, blocked: list[str] | None = None) -> set[str]:
    manager = load_plugins(cwd, LoadOptions(blocked=blocked or []), agent_dir=agent_dir)
    return {
        name
        for name, registered in manager.registry.tools.items()
        if registered.plugin in TOOL_MODULES and name in TOOL_NAMES
    }


def test_entry_points_register_all_seven_tools(cwd: Path, isolated_agent_dir: Path) -> None:
    assert _our_tools(cwd, isolated_agent_dir) == TOOL_NAMES


def test_blocking_one_entry_point_removes_only_that_tool(
    cwd: Path, isolated_agent_dir: Path
) -> None:
    assert _our_tools(cwd, isolated_agent_dir, blocked=["bash"]) == TOOL_NAMES - {"bash"}


def test_each_entry_point_is_its_own_plugin(cwd: Path, isolated_agent_dir: Path) -> None:
    manager = load_plugins(cwd, LoadOptions(), agent_dir=isolated_agent_dir)
    plugins = {p.name: p for p in manager.plugins if p.source.distribution == "pi-plugin-tools"}
    assert set(plugins) == TOOL_NAMES
    for name, plugin in plugins.items():
        assert plugin.registrations.summary()["tools"] == [name]


def test_names_schemas_and_descriptions_are_pis() -> None:
    for tool in create_tools():
        assert tool.label == tool.name
        assert tool.parameters is BUILTIN_TOOL_INPUTS[tool.name]
        assert tool.parameters_schema() == tool_parameters_schema(BUILTIN_TOOL_INPUTS[tool.name])
        assert tool.description == PI_DESCRIPTIONS[tool.name]


def test_file_operations() -> None:
    tools = {tool.name: tool for tool in create_tools()}
    read = tools["read"].validate_arguments({"path": "a.txt"})
    write = tools["write"].validate_arguments({"path": "b.txt", "content": ""})
    edit = tools["edit"].validate_arguments({"path": "c.txt", "edits": []})
    assert tools["read"].file_operations(read) == {"read": ["a.txt"]}
    assert tools["write"].file_operations(write) == {"written": ["b.txt"]}
    assert tools["edit"].file_operations(edit) == {"edited": ["c.txt"]}
    bash = tools["bash"].validate_arguments({"command": "ls"})
    assert tools["bash"].file_operations(bash) == {}


PI_PROMPT_SNIPPETS = {
    "read": "Read file contents",
    "write": "Create or overwrite files",
    "edit": (
        "Make precise file edits with exact text replacement, including multiple disjoint edits "
        "in one call"
    ),
    "bash": "Execute bash commands (ls, grep, find, etc.)",
    "grep": "Search file contents for patterns (respects .gitignore)",
    "find": "Find files by glob pattern (respects .gitignore)",
    "ls": "List directory contents",
}


def test_system_prompt_snippets_and_guidelines_are_pis() -> None:
    tools = {tool.name: tool for tool in create_tools()}
    for name, snippet in PI_PROMPT_SNIPPETS.items():
        assert tools[name].prompt_snippet == snippet
    assert tools["read"].prompt_guidelines == ("Use read to examine files instead of cat or sed.",)
    assert tools["write"].prompt_guidelines == (
        "Use write only for new files or complete rewrites.",
    )
    assert len(tools["edit"].prompt_guidelines) == 4
    assert tools["edit"].prompt_guidelines[0] == (
        "Use edit for precise changes (edits[].oldText must match exactly)"
    )
    assert all(tools[n].prompt_guidelines == () for n in ("bash", "grep", "find", "ls"))
