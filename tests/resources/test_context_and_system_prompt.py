"""Context files, SYSTEM.md / APPEND_SYSTEM.md, and the system prompt pi builds from them."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path

from pi_core.resources.context_files import (
    ContextFile,
    discover_append_system_prompt_file,
    discover_system_prompt_file,
    load_context_files,
    resolve_prompt_input,
)
from pi_core.resources.diagnostics import ResourceDiagnostic
from pi_core.resources.skills import Skill
from pi_core.resources.system_prompt import (
    DocPaths,
    SystemPromptOptions,
    ToolPrompt,
    build_system_prompt,
    default_doc_paths,
    normalize_snippet,
    tool_options,
)

Write = Callable[[Path, str], Path]
DOCS = DocPaths(readme="/pkg/README.md", docs="/pkg/docs", examples="/pkg/examples")
TODAY = date(2026, 1, 2)


def test_context_files_global_first_then_root_down_to_cwd(tmp_path: Path, write: Write) -> None:
    agent = tmp_path / "agent"
    cwd = tmp_path / "a" / "b" / "c"
    cwd.mkdir(parents=True)
    write(agent / "AGENTS.md", "global")
    write(tmp_path / "a" / "CLAUDE.md", "claude in a")
    write(tmp_path / "a" / "b" / "AGENTS.md", "agents in b")
    write(tmp_path / "a" / "b" / "CLAUDE.md", "ignored: AGENTS.md comes first")
    write(cwd / "AGENTS.md", "in cwd\r\nkept as written\n")
    result = load_context_files(str(cwd), str(agent))
    assert [(Path(f.path).relative_to(tmp_path).as_posix(), f.content) for f in result.files] == [
        ("agent/AGENTS.md", "global"),
        ("a/CLAUDE.md", "claude in a"),
        ("a/b/AGENTS.md", "agents in b"),
        ("a/b/c/AGENTS.md", "in cwd\r\nkept as written\n"),
    ]
    assert result.diagnostics == []


def test_agent_dir_inside_the_tree_is_listed_once(tmp_path: Path, write: Write) -> None:
    write(tmp_path / "AGENTS.md", "once")
    result = load_context_files(str(tmp_path), str(tmp_path))
    assert [f.content for f in result.files] == ["once"]


def test_unreadable_context_file_is_reported_and_the_next_name_used(
    tmp_path: Path, write: Write
) -> None:
    (tmp_path / "AGENTS.md").mkdir()
    write(tmp_path / "CLAUDE.md", "fallback")
    result = load_context_files(str(tmp_path), str(tmp_path / "agent"))
    assert [f.content for f in result.files] == ["fallback"]
    assert result.diagnostics[0].path == str(tmp_path / "AGENTS.md")


def test_system_prompt_files_project_over_global(tmp_path: Path, write: Write) -> None:
    agent, cwd = tmp_path / "agent", tmp_path / "cwd"
    assert discover_system_prompt_file(str(cwd), str(agent)) is None
    write(agent / "SYSTEM.md", "global system")
    write(agent / "APPEND_SYSTEM.md", "global append")
    assert discover_system_prompt_file(str(cwd), str(agent)) == str(agent / "SYSTEM.md")
    write(cwd / ".pi" / "SYSTEM.md", "project system")
    write(cwd / ".pi" / "APPEND_SYSTEM.md", "project append")
    assert discover_system_prompt_file(str(cwd), str(agent)) == str(cwd / ".pi" / "SYSTEM.md")
    assert discover_append_system_prompt_file(str(cwd), str(agent)) == str(
        cwd / ".pi" / "APPEND_SYSTEM.md"
    )


def test_prompt_input_is_a_file_or_text(tmp_path: Path, write: Write) -> None:
    write(tmp_path / "prompt.txt", "from a file\n")
    notes: list[ResourceDiagnostic] = []
    assert resolve_prompt_input("prompt.txt", str(tmp_path), notes) == "from a file\n"
    assert resolve_prompt_input(str(tmp_path / "prompt.txt"), "/", notes) == "from a file\n"
    assert resolve_prompt_input("Be terse.", str(tmp_path), notes) == "Be terse."
    assert resolve_prompt_input("", str(tmp_path), notes) is None
    assert resolve_prompt_input(None, str(tmp_path), notes) is None
    assert resolve_prompt_input("a\0b", str(tmp_path), notes) == "a\0b"
    (tmp_path / "folder").mkdir()
    assert resolve_prompt_input("folder", str(tmp_path), notes) == "folder"
    assert len(notes) == 1 and notes[0].path == str(tmp_path / "folder")


def _prompt(**options: object) -> str:
    defaults: dict[str, object] = {"cwd": "/work", "today": TODAY, "doc_paths": DOCS}
    return build_system_prompt(SystemPromptOptions.model_validate({**defaults, **options}))


def test_no_tools_and_default_tools() -> None:
    assert "Available tools:\n(none)\n" in _prompt(selected_tools=[])
    assert "- Show file paths clearly when working with files" in _prompt(selected_tools=[])
    # pi lists only tools that bring a snippet; the default four without snippets list none
    default = _prompt()
    assert "Available tools:\n(none)" in default
    assert "- Use bash for file operations like ls, rg, find" in default


def test_tool_snippets_and_guidelines() -> None:
    text = _prompt(
        selected_tools=["read", "dynamic_tool", "grep"],
        tool_snippets={"dynamic_tool": "Run dynamic test behavior", "read": "Read file contents"},
        prompt_guidelines=[
            "Use dynamic_tool for summaries.",
            "  Use dynamic_tool for summaries.  ",
        ],
    )
    assert "Available tools:\n- read: Read file contents\n- dynamic_tool: Run dynamic" in text
    assert text.count("- Use dynamic_tool for summaries.") == 1
    assert "- grep:" not in text  # no snippet, not listed
    assert "Prefer grep/find/ls" not in text  # only with bash


def test_bash_with_exploration_tools() -> None:
    text = _prompt(selected_tools=["bash", "ls"])
    assert (
        "- Prefer grep/find/ls tools over bash for file exploration (faster, respects .gitignore)"
        in text
    )
    assert "Use bash for file operations" not in text


def test_tool_options_from_tool_objects() -> None:
    class Bash:
        name = "bash"
        prompt_snippet = "  Execute bash\ncommands  "
        prompt_guidelines = ("  one ", "one", "")

    class Bare:
        name = "bare"
        description = "A tool without a snippet"

    options = tool_options([Bash(), Bare(), ToolPrompt(name="x", snippet="X")])
    assert options == {
        "selected_tools": ["bash", "bare", "x"],
        "tool_snippets": {"bash": "Execute bash commands", "x": "X"},
        "prompt_guidelines": ["one"],
    }
    assert normalize_snippet(" \n ") is None


def test_layout_of_context_skills_date_and_cwd() -> None:
    skill = Skill(name="s", description="d", file_path="/s/SKILL.md", base_dir="/s")
    text = _prompt(
        selected_tools=["read"],
        tool_snippets={"read": "Read file contents"},
        append_system_prompt="Extra.",
        context_files=[ContextFile(path="/work/AGENTS.md", content="Rules.")],
        skills=[skill],
        cwd="C:\\work\\dir",
    )
    assert text.endswith(
        "(e.g., tui.md for TUI API details)\n\nExtra.\n\n# Project Context\n\n"
        "Project-specific instructions and guidelines:\n\n## /work/AGENTS.md\n\nRules.\n\n"
        "\n\nThe following skills provide specialized instructions for specific tasks.\n"
        "Use the read tool to load a skill's file when the task matches its description.\n"
        "When a skill file references a relative path, resolve it against the skill directory "
        "(parent of SKILL.md / dirname of the path) and use that absolute path in tool commands."
        "\n\n<available_skills>\n  <skill>\n    <name>s</name>\n    <description>d</description>"
        "\n    <location>/s/SKILL.md</location>\n  </skill>\n</available_skills>"
        "\nCurrent date: 2026-01-02\nCurrent working directory: C:/work/dir"
    )
    assert "- Main documentation: /pkg/README.md\n- Additional docs: /pkg/docs\n" in text
    assert "<available_skills>" not in _prompt(selected_tools=["bash"], skills=[skill])


def test_custom_prompt_replaces_the_default() -> None:
    skill = Skill(name="s", description="d", file_path="/s/SKILL.md", base_dir="/s")
    text = _prompt(custom_prompt="You are terse.", append_system_prompt="More.", skills=[skill])
    assert text.startswith("You are terse.\n\nMore.\n\nThe following skills")
    assert text.endswith(
        "</available_skills>\nCurrent date: 2026-01-02\nCurrent working directory: /work"
    )
    assert "<available_skills>" not in _prompt(
        custom_prompt="x", selected_tools=["bash"], skills=[skill]
    )
    assert _prompt(custom_prompt="x", selected_tools=[]) == (
        "x\nCurrent date: 2026-01-02\nCurrent working directory: /work"
    )
    assert _prompt(custom_prompt="").startswith("You are an expert coding assistant")


def test_today_defaults_to_the_local_date() -> None:
    text = build_system_prompt(SystemPromptOptions(cwd="/w", doc_paths=DOCS))
    assert f"Current date: {date.today().isoformat()}" in text
    assert default_doc_paths().readme.endswith("README.md")
