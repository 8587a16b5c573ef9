"""The system prompt's facts: its parts in pi's order, the tools it lists, the documentation it
names (files that exist), and how SYSTEM.md, APPEND_SYSTEM.md and context files combine."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest
from pi_plugin_tools import create_tools

from pi_core.resources import ResourceLoader
from pi_core.resources.context_files import ContextFile
from pi_core.resources.skills import Skill
from pi_core.resources.system_prompt import (
    INTRO,
    SystemPromptOptions,
    build_system_prompt,
    default_doc_paths,
    tool_options,
)

SKILL = Skill(name="s", description="d", file_path="/s/SKILL.md", base_dir="/s")


def _full_prompt() -> str:
    return build_system_prompt(
        SystemPromptOptions(
            cwd="/w",
            today=date(2026, 1, 2),
            append_system_prompt="APPENDED",
            context_files=[ContextFile(path="/w/AGENTS.md", content="RULES")],
            skills=[SKILL],
            **tool_options(create_tools()),
        )
    )


def test_parts_come_in_pis_order() -> None:
    text = _full_prompt()
    docs = default_doc_paths()
    marks = [
        INTRO,
        "\n\nAvailable tools:\n",
        "\n\nGuidelines:\n",
        docs.readme,
        "\n\nAPPENDED",
        "\n\n# Project Context\n\n",
        "## /w/AGENTS.md\n\nRULES",
        "<available_skills>",
        "\nCurrent date: 2026-01-02",
        "\nCurrent working directory: /w",
    ]
    assert text.startswith(INTRO)
    positions = [text.index(mark) for mark in marks]
    assert positions == sorted(positions)
    assert text.endswith("Current working directory: /w")


def test_every_active_tool_is_listed_with_its_snippet() -> None:
    text = _full_prompt()
    listed = text.split("\n\nAvailable tools:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    tools = create_tools()
    assert listed == [f"- {tool.name}: {tool.prompt_snippet}" for tool in tools]
    for tool in tools:
        for guideline in tool.prompt_guidelines:
            assert f"\n- {guideline}\n" in text


def _named_paths(text: str) -> list[str]:
    root = str(Path(default_doc_paths().docs).parent)
    return re.findall(re.escape(root) + r"/[^\s,()]*[^\s,().:]", text)


def test_every_documentation_path_named_exists() -> None:
    paths = _named_paths(_full_prompt())
    names = {Path(path).name for path in paths}
    assert {"README.md", "hooks.md", "writing-a-plugin.md", "repl.md", "resources.md"} <= names
    missing = [path for path in paths if not Path(path).exists()]
    assert missing == []
    docs_part = _full_prompt().split("\n\nAPPENDED")[0].split("\n\nGuidelines:\n")[1]
    mentioned = re.findall(r"[^\s,()]+\.md\b", docs_part)
    assert mentioned and all(Path(name).is_absolute() for name in mentioned)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project folder with an AGENTS.md, and an empty home and agent dir."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    project = tmp_path / "project"
    (project / ".pi").mkdir(parents=True)
    (project / "AGENTS.md").write_text("PROJECT RULES", encoding="utf-8")
    return project


def _loader_prompt(project: Path, **options: object) -> str:
    loader = ResourceLoader(project, installed_packages=False, **options)  # type: ignore[arg-type]
    loader.reload()
    return loader.build_system_prompt(create_tools(), today=date(2026, 1, 2))


def test_system_md_replaces_the_default_and_append_system_md_follows(project: Path) -> None:
    (project / ".pi" / "APPEND_SYSTEM.md").write_text("MORE", encoding="utf-8")
    default = _loader_prompt(project)
    assert default.startswith(INTRO)
    assert default.index("Guidelines:") < default.index("\n\nMORE\n\n# Project Context")
    (project / ".pi" / "SYSTEM.md").write_text("MY BASE", encoding="utf-8")
    replaced = _loader_prompt(project)
    assert replaced.startswith("MY BASE\n\nMORE\n\n# Project Context\n\n")
    assert INTRO not in replaced and "Guidelines:" not in replaced
    assert f"## {project / 'AGENTS.md'}\n\nPROJECT RULES" in replaced


def test_system_prompt_flag_wins_over_system_md(project: Path) -> None:
    (project / ".pi" / "SYSTEM.md").write_text("MY BASE", encoding="utf-8")
    text = _loader_prompt(project, system_prompt="FLAG BASE", append_system_prompt=["A1", "A2"])
    assert text.startswith("FLAG BASE\n\nA1\n\nA2\n\n# Project Context")
    assert "MY BASE" not in text
