"""What the project sends the model is its own writing: no long run of words is shared with pi
0.73.1's or Claude Code 2.1.197's text.

The originals are not stored here, only hashes of the 8-word runs our earlier, copied texts shared
with them (fixtures/borrowed_runs.txt, made by fixtures/make_borrowed_runs.py from a checkout of
that earlier code and the two installed programs). A run is 8 lowercase words, punctuation
dropped, hashed with SHA-256 and cut to 16 hex digits.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import re
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

RUN_LENGTH = 8
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "borrowed_runs.txt"


def _descriptions(schema: Any) -> Iterator[str]:
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "description" and isinstance(value, str):
                yield value
            else:
                yield from _descriptions(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from _descriptions(value)


def _tool_texts(tool: Any) -> Iterator[tuple[str, str]]:
    yield f"{tool.name}.description", tool.description
    yield f"{tool.name}.prompt_snippet", getattr(tool, "prompt_snippet", None) or ""
    for index, guideline in enumerate(getattr(tool, "prompt_guidelines", ()) or ()):
        yield f"{tool.name}.prompt_guidelines[{index}]", guideline
    for index, text in enumerate(_descriptions(tool.parameters_schema())):
        yield f"{tool.name}.parameters[{index}]", text


def _literals(module: Any) -> Iterator[str]:
    """The string literals of a module, docstrings left out (f-strings with `{}` for values)."""
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            yield "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
        ):
            yield node.value


def model_facing_texts() -> dict[str, str]:
    """Every prompt, tool description and parameter description the project writes itself."""
    from pi_plugin_claude.profile import create_claude_tools
    from pi_plugin_claude.profile.agents import load_agents
    from pi_plugin_compaction import prompts
    from pi_plugin_tools import create_tools

    from pi_core.messages import convert
    from pi_core.resources.context_files import ContextFile
    from pi_core.resources.skills import Skill
    from pi_core.resources.system_prompt import (
        SystemPromptOptions,
        build_system_prompt,
        tool_options,
    )

    ours = create_tools()
    skill = Skill(name="s", description="d", file_path="/s/SKILL.md", base_dir="/s")
    options = SystemPromptOptions(
        cwd="/w",
        today=date(2026, 1, 2),
        context_files=[ContextFile(path="/w/AGENTS.md", content="x")],
        skills=[skill],
        **tool_options(ours),
    )
    texts = {
        "system prompt": build_system_prompt(options),
        "system prompt (bash only)": build_system_prompt(
            options.model_copy(update={"selected_tools": ["bash"]})
        ),
    }
    for tool in [*ours, *create_claude_tools(None)]:
        texts.update(_tool_texts(tool))
    for agent in load_agents("/nonexistent", home="/nonexistent").agents.values():
        texts[f"agent {agent.name}"] = f"{agent.description}\n{agent.prompt}"
    for name in ("SYSTEM_PROMPT", "SUMMARY_PROMPT", "UPDATE_PROMPT", "TURN_PREFIX_PROMPT"):
        texts[f"compaction.{name}"] = getattr(prompts, name)
    texts["compaction.BRANCH_PROMPT"] = prompts.BRANCH_PROMPT
    for module_name in ("edit", "edit_diff", "grep", "read"):
        module = importlib.import_module(f"pi_plugin_tools.{module_name}")
        texts[f"pi_plugin_tools.{module_name} messages"] = "\n".join(_literals(module))
    texts["summary wrappers"] = (
        f"{convert.COMPACTION_SUMMARY_PREFIX}\n{convert.BRANCH_SUMMARY_PREFIX}"
    )
    return texts


def runs(text: str) -> set[str]:
    """The hashes of every run of RUN_LENGTH words in `text`."""
    words = re.findall(r"[a-z0-9]+", text.lower())
    return {
        hashlib.sha256(" ".join(words[i : i + RUN_LENGTH]).encode()).hexdigest()[:16]
        for i in range(len(words) - RUN_LENGTH + 1)
    }


def _borrowed() -> set[str]:
    lines = FIXTURE.read_text(encoding="utf-8").splitlines()
    return {line for line in lines if line and not line.startswith("#")}


def test_the_fixture_holds_hashes_of_the_copied_texts() -> None:
    borrowed = _borrowed()
    assert len(borrowed) > 100
    assert all(re.fullmatch(r"[0-9a-f]{16}", entry) for entry in borrowed)


@pytest.mark.parametrize("name", sorted(model_facing_texts()))
def test_no_long_run_of_words_is_borrowed(name: str) -> None:
    text = model_facing_texts()[name]
    assert text.strip(), name
    assert not runs(text) & _borrowed(), f"{name} shares an {RUN_LENGTH}-word run: {text!r}"
