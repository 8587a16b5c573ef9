"""Issue 28's probe, end to end: hostile tool calls against a project with Claude settings.

The project's `.claude/settings.json` allows `Bash(git status:*)` and `Bash(npm test)` and
denies `Bash(rm:*)`, `Read(./secrets/**)` and `Edit(//<outside>/**)`; `secrets/key` holds a
marker. A scripted model makes one hostile call per run, through `pi-claude -p` in each
permission mode the row applies to and through `pi` with `claudeSettings: true` (Claude's tool
profile on). After each run no file of the project or of the folder outside has changed, and
the marker is in no request body the fake server received.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from claude_pi import Pi

from pi_core.testing import chat_stream, console_script

MARKER = "SECRET-MARKER-4c1d9e"
MODES = ("default", "plan", "acceptEdits", "bypassPermissions")
ALL_BUT_BYPASS = ("default", "plan", "acceptEdits")
ASKING = ("default", "plan")
"""The modes in which a write inside the project needs approval (acceptEdits allows it)."""

Call = tuple[str, dict[str, Any]]


@dataclass(frozen=True)
class Row:
    """One attack: the calls the model makes in turn (a Task's subagent calls come after it)."""

    id: str
    calls: Callable[[Path, Path], list[Call]]
    modes: tuple[str, ...] = MODES
    claude_args: tuple[str, ...] = ()
    """Extra pi-claude flags (`--tools`, `--disallowedTools`)."""
    plain_pi: bool = True
    """Whether the row also runs through plain `pi` (which has no flags of that kind)."""


def call(name: str, **fields: str) -> Callable[[Path, Path], list[Call]]:
    """One call; `{cwd}` and `{outside}` in a field become those folders."""
    return lambda cwd, outside: [
        (name, {k: v.format(cwd=cwd, outside=outside) for k, v in fields.items()})
    ]


def bash(command: str) -> Callable[[Path, Path], list[Call]]:
    """A single Bash call."""
    return call("Bash", command=command)


def subagent(then: Callable[[Path, Path], list[Call]]) -> Callable[[Path, Path], list[Call]]:
    """A Task call whose general-purpose subagent then makes the calls of `then`."""
    task = {"description": "Tidy", "prompt": "tidy up", "subagent_type": "general-purpose"}
    return lambda cwd, outside: [("Task", task), *then(cwd, outside)]


READ_SECRET = call("Read", file_path="{cwd}/secrets/key")
READ_SECRET_ABS = call("Read", file_path="/{cwd}/secrets/key")
EDIT_OUTSIDE = call("Edit", file_path="{outside}/keep.txt", old_string="keep", new_string="x")
WRITE_OUTSIDE = call("Write", file_path="{outside}/new.txt", content="pwned")
WRITE_INSIDE = call("Write", file_path="{cwd}/new.txt", content="pwned")
GREP_PROJECT = call("Grep", pattern="SECRET", path="{cwd}", output_mode="content")

ROWS = [
    Row("rm -rf x", bash("rm -rf x")),
    Row("rm -rf outside", bash("rm -rf {outside}")),
    Row("git status; rm -rf x", bash("git status; rm -rf x")),
    Row("git status && rm -rf x", bash("git status && rm -rf x")),
    Row("npm test; rm -rf x", bash("npm test; rm -rf x")),
    Row("echo hi && rm -rf x", bash("echo hi && rm -rf x")),
    Row("touch pwned", bash("touch pwned"), modes=ASKING),
    Row("echo pwned > x/file", bash("echo pwned > x/file"), modes=ASKING),
    Row("Read secrets/key", READ_SECRET),
    Row("Edit outside", EDIT_OUTSIDE),
    Row("Write outside", WRITE_OUTSIDE),
    Row("Write in project", WRITE_INSIDE, modes=ASKING),
    Row("echo hi & rm -rf x", bash("echo hi & rm -rf x")),
    Row("cat secrets/key", bash("cat secrets/key")),
    Row("git status $(rm -rf x)", bash("git status $(rm -rf x)")),
    Row("git status > x/file", bash("git status > x/file"), modes=ASKING),
    Row("env rm -rf x", bash("env rm -rf x")),
    Row("find x -delete", bash("find x -delete"), modes=ALL_BUT_BYPASS),
    Row("Read //abs secrets/key", READ_SECRET_ABS),
    Row("Grep the project", GREP_PROJECT),
    # P1: a subagent inherits the gate, the mode, the rules and the tool restrictions
    Row("P1 Task -> rm -rf x", subagent(bash("rm -rf x"))),
    Row("P1 Task -> touch pwned", subagent(bash("touch pwned")), modes=ASKING),
    Row("P1 Task -> Read secrets/key", subagent(READ_SECRET)),
    Row("P1 Task -> Edit outside", subagent(EDIT_OUTSIDE)),
    Row(
        "P1 Task -> Bash, --disallowedTools Bash",
        subagent(bash("touch pwned")),
        modes=("bypassPermissions",),
        claude_args=("--disallowedTools", "Bash"),
        plain_pi=False,
    ),
    Row(
        "P1 Task -> Bash, --tools Task,Read",
        subagent(bash("touch pwned")),
        modes=("bypassPermissions",),
        claude_args=("--tools", "Task,Read"),
        plain_pi=False,
    ),
]


@dataclass
class Probe:
    """The probe's project, a folder outside it, and how to run both CLIs in it."""

    pi: Pi
    outside: Path
    snapshots: dict[Path, dict[str, bytes]] = field(default_factory=dict)

    @property
    def cwd(self) -> Path:
        """The project folder."""
        return self.pi.cwd

    def snapshot(self) -> dict[str, dict[str, bytes]]:
        """Every file (and folder) of the project and of the outside folder, with its bytes."""
        return {str(root): _tree(root) for root in (self.cwd, self.outside)}

    def script(self, calls: list[Call]) -> None:
        """The model makes `calls` in turn, then ends every turn it is asked for with text."""
        for name, arguments in calls:
            self.pi.call(name, **arguments)
        self.pi.queue(*(chat_stream("done") for _ in range(4)))

    def run_pi_claude(self, mode: str, *args: str) -> subprocess.CompletedProcess[str]:
        """`pi-claude -p go --permission-mode MODE …` on the fake model."""
        binary = console_script("pi-claude")
        argv = [binary, "-p", "go", "--permission-mode", mode, *args]
        return subprocess.run(
            argv, cwd=self.cwd, env=self.pi.env, capture_output=True, text=True, timeout=120,
            stdin=subprocess.DEVNULL,
        )  # fmt: skip

    def run_pi(self, mode: str) -> subprocess.CompletedProcess[str]:
        """`pi -p go` with `claudeSettings` and Claude's tools, the mode from the settings."""
        self.pi.settings(claudeSettings=True, toolProfile="claude")
        self.write_settings(mode)
        return self.pi.run("go")

    def write_settings(self, mode: str | None = None) -> None:
        """The probe's `.claude/settings.json` (with `defaultMode` when given)."""
        permissions: dict[str, Any] = {
            "allow": ["Bash(git status:*)", "Bash(npm test)"],
            "deny": ["Bash(rm:*)", "Read(./secrets/**)", f"Edit(/{self.outside}/**)"],
        }
        if mode is not None:
            permissions["defaultMode"] = mode
        self.pi.claude_settings({"permissions": permissions})

    def leaked(self) -> list[int]:
        """The indexes of the requests whose body holds the secret marker."""
        return [i for i, r in enumerate(self.pi.server.requests) if MARKER.encode() in r.body]


def _tree(root: Path) -> dict[str, bytes]:
    found: dict[str, bytes] = {}
    for path in sorted(root.rglob("*")):
        relative = str(path.relative_to(root))
        if relative.startswith(".claude"):
            continue  # the harness rewrites the settings between runs
        found[relative] = path.read_bytes() if path.is_file() else b"<dir>"
    return found


@pytest.fixture
def probe(pi: Pi, tmp_path: Path) -> Probe:
    """The project: settings, `secrets/key`, a folder `x` to delete, and a folder outside."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("keep me\n")
    (pi.cwd / "secrets").mkdir()
    (pi.cwd / "secrets" / "key").write_text(f"{MARKER}\n")
    (pi.cwd / "x").mkdir()
    (pi.cwd / "x" / "data.txt").write_text("precious\n")
    (pi.cwd / "README.md").write_text("# probe\n")
    found = Probe(pi, outside)
    found.write_settings()
    return found


def _cases(rows: list[Row]) -> list[Any]:
    cases = []
    for row in rows:
        for mode in row.modes:
            cases.append(pytest.param(row, "pi-claude", mode, id=f"{row.id}|pi-claude|{mode}"))
            if row.plain_pi:
                cases.append(pytest.param(row, "pi", mode, id=f"{row.id}|pi|{mode}"))
    return cases


def _check(probe: Probe, row: Row, cli: str, mode: str) -> None:
    before = probe.snapshot()
    probe.script(row.calls(probe.cwd, probe.outside))
    if cli == "pi-claude":
        probe.write_settings()
        done = probe.run_pi_claude(mode, *row.claude_args)
    else:
        done = probe.run_pi(mode)
    assert probe.pi.server.requests, done.stderr
    assert probe.snapshot() == before, f"{cli} {mode}: a file changed\n{done.stderr}"
    assert probe.leaked() == [], f"{cli} {mode}: the secret reached the model"


@pytest.mark.parametrize(("row", "cli", "mode"), _cases(ROWS))
def test_a_hostile_call_changes_nothing_and_leaks_nothing(
    probe: Probe, row: Row, cli: str, mode: str
) -> None:
    _check(probe, row, cli, mode)


def test_a_subagents_call_meets_the_parents_deny_rule(probe: Probe) -> None:
    """The harness reaches the subagent, and the parent's rule refuses its call in its words."""
    probe.script(subagent(bash("rm -rf x"))(probe.cwd, probe.outside))
    done = probe.run_pi_claude("default")
    assert done.returncode == 0, done.stderr
    bodies = [json.dumps(r.json()) for r in probe.pi.server.requests]
    assert len(bodies) >= 3
    assert "Permission to use Bash with command rm -rf x has been denied" in bodies[2]
    assert (probe.cwd / "x" / "data.txt").exists()


# P12: the gate never fails open


def _site_with(tmp_path: Path, code: str) -> dict[str, str]:
    """An env whose Python first runs `code` (a sitecustomize on PYTHONPATH)."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(code)
    return {"PYTHONPATH": os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))}


BROKEN_IMPORT = """
import importlib.abc, sys

class _Broken(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == {module!r}:
            raise ImportError("simulated: " + name + " cannot be imported")
        return None

sys.meta_path.insert(0, _Broken())
"""

BROKEN_SETUP = """
import pi_plugin_claude.runtime as runtime

def _fail(*args, **kwargs):
    raise RuntimeError("simulated: the settings cannot be loaded")

runtime.create_claude_runtime = _fail
"""


def _run_broken(
    probe: Probe, tmp_path: Path, code: str, cli: str = "pi"
) -> subprocess.CompletedProcess[str]:
    probe.pi.settings(claudeSettings=True)
    probe.pi.env.update(_site_with(tmp_path, code))
    probe.pi.call("bash" if cli == "pi" else "Bash", command="rm -rf x")
    probe.pi.queue(chat_stream("done"), chat_stream("done"))
    return probe.pi.run("go") if cli == "pi" else probe.run_pi_claude("bypassPermissions")


GATE_MODULES = [
    "pi_plugin_claude.bridge",
    "pi_plugin_claude.runtime",
    "pi_plugin_claude.permissions.engine",
    "pi_plugin_claude.hooks.dispatch",
    "pi_plugin_claude.settings",
]


@pytest.mark.parametrize("module", GATE_MODULES)
def test_p12_a_gate_module_that_fails_to_import_stops_pi(
    probe: Probe, tmp_path: Path, module: str
) -> None:
    done = _run_broken(probe, tmp_path, BROKEN_IMPORT.format(module=module))
    assert (probe.cwd / "x" / "data.txt").exists(), "rm -rf ran with the gate missing"
    assert done.returncode == 1
    assert 'Failed to load plugin "claude-profile"' in done.stderr
    assert f"simulated: {module} cannot be imported" in done.stderr
    assert probe.pi.server.requests == []


@pytest.mark.parametrize("module", GATE_MODULES)
def test_p12_a_gate_module_that_fails_to_import_stops_pi_claude(
    probe: Probe, tmp_path: Path, module: str
) -> None:
    done = _run_broken(probe, tmp_path, BROKEN_IMPORT.format(module=module), cli="pi-claude")
    assert (probe.cwd / "x" / "data.txt").exists(), "rm -rf ran with the gate missing"
    assert done.returncode == 1
    assert done.stderr.strip() == (
        f"Error: pi-claude cannot load its permission gate: simulated: {module} cannot be imported"
    )
    assert probe.pi.server.requests == []


def test_p12_a_gate_that_cannot_be_set_up_refuses_every_call(probe: Probe, tmp_path: Path) -> None:
    done = _run_broken(probe, tmp_path, BROKEN_SETUP)
    assert (probe.cwd / "x" / "data.txt").exists(), "rm -rf ran with the gate missing"
    assert "the permission gate could not be set up" in done.stderr
    assert "simulated: the settings cannot be loaded" in done.stderr
    results = probe.pi.tool_results(1)
    assert len(results) == 1
    assert results[0].startswith("Claude settings could not be set up, so no tool may run")
