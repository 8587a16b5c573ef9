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


def _guidelines(text: str) -> list[str]:
    """The bullet lines of the `Guidelines:` part."""
    part = text.split("\nGuidelines:\n", 1)[1].split("\n\n", 1)[0]
    assert all(line.startswith("- ") for line in part.splitlines())
    return [line[2:] for line in part.splitlines()]


def _prompt(**options: object) -> str:
    defaults: dict[str, object] = {"cwd": "/work", "today": TODAY, "doc_paths": DOCS}
    return build_system_prompt(SystemPromptOptions.model_validate({**defaults, **options}))


def test_no_tools_and_default_tools() -> None:
    assert "Available tools:\n(none)\n" in _prompt(selected_tools=[])
    closing = _guidelines(_prompt(selected_tools=[]))
    assert len(closing) == 2  # the two standing guidelines, nothing about bash
    # pi lists only tools that bring a snippet; the default four without snippets list none
    default = _prompt()
    assert "Available tools:\n(none)" in default
    first, *rest = _guidelines(default)
    assert "bash" in first and "rg" in first and rest == closing


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
    assert not any("bash" in g for g in _guidelines(text))  # only with bash


def test_bash_with_exploration_tools() -> None:
    text = _prompt(selected_tools=["bash", "ls"])
    first, *rest = _guidelines(text)
    assert all(name in first for name in ("grep", "find", "ls", "bash", ".gitignore"))
    assert rest == _guidelines(_prompt(selected_tools=[]))
    assert "rg" not in first


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
    docs, tail = text.split("\n\nExtra.\n\n# Project Context\n\n")
    assert docs.splitlines()[-1].startswith("- ")  # the append follows the documentation part
    assert tail.index("\n\n## /work/AGENTS.md\n\nRules.\n\n") < tail.index("<available_skills>")
    assert tail.endswith(
        "\n\n<available_skills>\n  <skill>\n    <name>s</name>\n    <description>d</description>"
        "\n    <location>/s/SKILL.md</location>\n  </skill>\n</available_skills>"
        "\nCurrent date: 2026-01-02\nCurrent working directory: C:/work/dir"
    )
    assert ": /pkg/README.md\n" in docs and ": /pkg/docs\n" in docs and ": /pkg/examples\n" in docs
    assert "<available_skills>" not in _prompt(selected_tools=["bash"], skills=[skill])


def test_custom_prompt_replaces_the_default() -> None:
    skill = Skill(name="s", description="d", file_path="/s/SKILL.md", base_dir="/s")
    text = _prompt(custom_prompt="You are terse.", append_system_prompt="More.", skills=[skill])
    assert text.startswith("You are terse.\n\nMore.\n\n")
    assert text.index("More.") < text.index("<available_skills>")
    assert text.endswith(
        "</available_skills>\nCurrent date: 2026-01-02\nCurrent working directory: /work"
    )
    assert "<available_skills>" not in _prompt(
        custom_prompt="x", selected_tools=["bash"], skills=[skill]
    )
    assert _prompt(custom_prompt="x", selected_tools=[]) == (
        "x\nCurrent date: 2026-01-02\nCurrent working directory: /work"
    )
    assert _prompt(custom_prompt="") == _prompt()  # an empty custom prompt keeps the default


def test_today_defaults_to_the_local_date() -> None:
    text = build_system_prompt(SystemPromptOptions(cwd="/w", doc_paths=DOCS))
    assert f"Current date: {date.today().isoformat()}" in text
    assert default_doc_paths().readme.endswith("README.md")
