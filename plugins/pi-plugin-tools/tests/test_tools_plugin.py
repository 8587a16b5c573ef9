"""The distribution: seven entry points, one per tool, with pi 0.73.1's names and schemas."""

from __future__ import annotations

from pathlib import Path

from pi_plugin_tools import TOOL_MODULES, create_tools

from pi_core.plugins.manager import LoadOptions, load_plugins
from pi_core.tools import tool_parameters_schema
from pi_core.tools.inputs import BUILTIN_TOOL_INPUTS

TOOL_NAMES = {"read", "write", "edit", "bash", "grep", "find", "ls"}

# The facts each description must state (limits, formats, parameter names), not pi's sentences.
DESCRIPTION_FACTS = {
    "read": ("2000 lines", "50KB", "jpg", "png", "gif", "webp", "offset", "limit"),
    "write": ("creat", "replac", "parent folders"),
    "edit": ("edits[].oldText", "exactly once", "no two of them may share"),
    "bash": ("2000 lines", "50KB", "stdout", "stderr", "temporary file", "timeout in seconds"),
    "grep": ("100 matches", "50KB", "500 characters", ".gitignore", "line number"),
    "find": ("1000 paths", "50KB", ".gitignore", "glob"),
    "ls": ("500 entries", "50KB", "dotfiles", "'/'"),
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


def test_names_and_schemas_are_pis_and_descriptions_state_the_facts() -> None:
    for tool in create_tools():
        assert tool.label == tool.name
        assert tool.parameters is BUILTIN_TOOL_INPUTS[tool.name]
        assert tool.parameters_schema() == tool_parameters_schema(BUILTIN_TOOL_INPUTS[tool.name])
        for fact in DESCRIPTION_FACTS[tool.name]:
            assert fact in tool.description, (tool.name, fact)


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


def test_system_prompt_snippets_and_guidelines() -> None:
    tools = {tool.name: tool for tool in create_tools()}
    for tool in tools.values():
        assert tool.prompt_snippet and "\n" not in tool.prompt_snippet, tool.name
    assert ".gitignore" in tools["grep"].prompt_snippet
    assert ".gitignore" in tools["find"].prompt_snippet
    assert len(tools["read"].prompt_guidelines) == 1
    assert "cat or sed" in tools["read"].prompt_guidelines[0]
    assert len(tools["write"].prompt_guidelines) == 1
    assert len(tools["edit"].prompt_guidelines) == 4
    assert all("edits[]" in guideline for guideline in tools["edit"].prompt_guidelines)
    assert all(tools[n].prompt_guidelines == () for n in ("bash", "grep", "find", "ls"))
