"""The system prompt holds the same facts, in the same places, as what pi 0.73.1 sent to a
loopback fake LLM for the same folder (tools listed, custom and appended text, context files,
skills, date and cwd), and `/greet Bob` expands byte for byte the same (fixtures recorded by
fixtures/generate_pi_prompt.py). The prose around them is our own."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from pi_plugin_tools import create_tools

from pi_core.resources import DocPaths, ResourceLoader
from pi_core.resources.system_prompt import DEFAULT_TOOL_NAMES

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


# pi's default four tools, in pi's order.
TOOLS = sorted(
    (tool for tool in create_tools() if tool.name in DEFAULT_TOOL_NAMES),
    key=lambda tool: DEFAULT_TOOL_NAMES.index(tool.name),
)


def _facts(system: str) -> dict[str, Any]:
    """What a system prompt says, without its prose: the parts a user or plugin supplies."""
    head, context = system.split("\n\n# Project Context\n\n", 1)
    body = context.split("\n", 1)[1]  # after the one line introducing the context files
    files, skills = body.split("\n\n\n\n", 1) if "<available_skills>" in body else (body, "")
    if "\n\nAvailable tools:\n" in head:
        listed = head.split("\n\nAvailable tools:\n", 1)[1].split("\n\n", 1)[0]
        start: Any = {"tools": re.findall(r"^- (\w+): ", listed, flags=re.M)}
    else:
        start = head  # a custom prompt and the appended texts, as given
    block = skills[skills.find("<available_skills>") :].rsplit("\nCurrent date: ", 1)[0]
    return {
        "start": start,
        "context files": files.strip("\n"),
        "skills": block if skills else "",
        "tail": system.splitlines()[-2:],
    }


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
    assert _facts(system) == _facts(fixture["system"])
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
