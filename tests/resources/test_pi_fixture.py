"""The system prompt and `/greet Bob` expansion match, byte for byte, what pi 0.73.1 sent to a
loopback fake LLM for the same folder (fixtures recorded by fixtures/generate_pi_prompt.py)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from pydantic import BaseModel

from pi_core.resources import DocPaths, ResourceLoader
from pi_core.tools.tool import Tool

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "generate_pi_prompt", FIXTURES / "generate_pi_prompt.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GEN = _generator()


class _NoParams(BaseModel):
    pass


def _tool(name: str, description: str, snippet: str, guidelines: list[str]) -> Tool[_NoParams]:
    tool: Tool[_NoParams] = Tool()
    tool.name, tool.label, tool.description, tool.parameters = name, name, description, _NoParams
    tool.prompt_snippet = snippet  # type: ignore[attr-defined]
    tool.prompt_guidelines = guidelines  # type: ignore[attr-defined]
    return tool


# pi 0.73.1's read, bash, edit and write: one-line snippets and prompt guidelines.
TOOLS = [
    _tool(
        "read",
        "Read the contents of a file.",
        "Read file contents",
        ["Use read to examine files instead of cat or sed."],
    ),
    _tool("bash", "Execute a bash command.", "Execute bash commands (ls, grep, find, etc.)", []),
    _tool(
        "edit",
        "Edit a file using exact text replacement.",
        "Make precise file edits with exact text replacement, including multiple disjoint edits "
        "in one call",
        [
            "Use edit for precise changes (edits[].oldText must match exactly)",
            "When changing multiple separate locations in one file, use one edit call with "
            "multiple entries in edits[] instead of multiple edit calls",
            "Each edits[].oldText is matched against the original file, not after earlier edits "
            "are applied. Do not emit overlapping or nested edits. Merge nearby changes into one "
            "edit.",
            "Keep edits[].oldText as small as possible while still being unique in the file. Do "
            "not pad with large unchanged regions.",
        ],
    ),
    _tool(
        "write",
        "Write content to a file.",
        "Create or overwrite files",
        ["Use write only for new files or complete rewrites."],
    ),
]
DOCS = DocPaths(
    readme="<PI_PACKAGE_DIR>/README.md",
    docs="<PI_PACKAGE_DIR>/docs",
    examples="<PI_PACKAGE_DIR>/examples",
)


def _loader_for(root: Path, scenario: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> Any:
    dirs = GEN.build_layout(root, scenario.get("files"))
    monkeypatch.setenv("HOME", str(dirs["home"]))
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(dirs["agent"]))
    args = [arg.replace("{root}", str(root)) for arg in scenario["args"]]
    options: dict[str, Any] = {}
    if "--system-prompt" in args:
        options["system_prompt"] = args[args.index("--system-prompt") + 1]
    appends = [args[i + 1] for i, arg in enumerate(args) if arg == "--append-system-prompt"]
    if appends:
        options["append_system_prompt"] = appends
    loader = ResourceLoader(dirs["project"], installed_packages=False, **options)
    loader.reload()
    return loader


@pytest.mark.parametrize("name", sorted(GEN.SCENARIOS))
def test_matches_pi_0_73_1(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fixture = json.loads((FIXTURES / f"pi_prompt_{name}.json").read_text(encoding="utf-8"))
    assert fixture["piVersion"] == "0.73.1"
    root = tmp_path / "layout"
    scenario = GEN.SCENARIOS[name]
    loader = _loader_for(root, scenario, monkeypatch)
    assert loader.diagnostics == []
    system = GEN.normalize(loader.build_system_prompt(TOOLS, doc_paths=DOCS), root, None)
    user = GEN.normalize(loader.expand_input(scenario["message"]), root, None)
    assert system == fixture["system"]
    assert user == fixture["user"]


def test_the_greet_fixture_holds_what_the_issue_asks_for() -> None:
    fixture = json.loads((FIXTURES / "pi_prompt_greet.json").read_text(encoding="utf-8"))
    system = fixture["system"]
    assert "## <ROOT>/work/AGENTS.md\n\n# Parent rules" in system
    assert "## <ROOT>/work/project/AGENTS.md\n\n# Project rules" in system
    assert "<description>Reviews a diff for bugs &amp; style" in system
    assert "release-notes" not in system  # disable-model-invocation
    assert fixture["user"] == "Say hello to Bob (all arguments: Bob) and tell  a joke."


@pytest.mark.skipif(
    not os.environ.get("PI_REF_BIN"), reason="set PI_REF_BIN to pi 0.73.1 to re-record live"
)
def test_live_pi_still_agrees(tmp_path: Path) -> None:
    """Re-run the generator against a real pi (loopback only) and compare with the fixtures."""
    out = tmp_path / "fixtures"
    out.mkdir()
    script = out / "generate_pi_prompt.py"
    script.write_text((FIXTURES / "generate_pi_prompt.py").read_text())
    subprocess.run(
        [sys.executable, str(script), "--pi", os.environ["PI_REF_BIN"]], check=True, timeout=300
    )
    for name in GEN.SCENARIOS:
        fresh = json.loads((out / f"pi_prompt_{name}.json").read_text())
        stored = json.loads((FIXTURES / f"pi_prompt_{name}.json").read_text())
        assert fresh == stored
