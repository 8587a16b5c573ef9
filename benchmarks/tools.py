"""grep and find of pi-plugin-tools against pi 0.73.1's own tools (run in node), on a big tree.

    python benchmarks/tools.py [--root DIR] [--runs 7]
        [--pi-package /tmp/piref/node_modules/@mariozechner/pi-coding-agent]

The tree defaults to the CPython standard library folder. Each scenario runs once to warm
caches, then `--runs` times; the table shows median wall times of one tool call, measured inside
each runtime (interpreter start-up excluded), and how many output lines each side produced.

pi's tools need `rg` and `fd` on PATH: `rg` comes from the `ripgrep` package next to this
Python; for `fd`, an `fd` or `fdfind` (Debian's fd-find) on PATH is used. fd older than 8.7 lacks
`--no-require-git`, so a shim that drops that flag stands in for it (the output is the same on a
tree without .gitignore files). PI_OFFLINE=1 keeps pi from trying to download anything.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pi_plugin_tools import create_tools
from pi_plugin_tools.ripgrep import find_rg

from pi_core.plugins.manager import PluginManager
from pi_core.testing import execute_tool_call

SCENARIOS: list[tuple[str, str, dict[str, Any]]] = [
    ("grep 'def __init__' (stops at 100)", "grep", {"pattern": "def __init__"}),
    ("grep rare literal, whole tree", "grep", {"pattern": "xyzzy_not_here", "literal": True}),
    (
        "grep -i 'deprecated' *.py limit 1000",
        "grep",
        {"pattern": "deprecated", "ignoreCase": True, "glob": "*.py", "limit": 1000},
    ),
    (
        "grep 'import' context 2 limit 300",
        "grep",
        {"pattern": "^import ", "context": 2, "limit": 300},
    ),
    ("find '*.py' (stops at 1000)", "find", {"pattern": "*.py"}),
    ("find '**/test_*.py' limit 100000", "find", {"pattern": "**/test_*.py", "limit": 100000}),
    ("find '*.json' limit 100000", "find", {"pattern": "*.json", "limit": 100000}),
]

NODE_RUNNER = r"""
const [pkg, root, runs, scenariosJson] = process.argv.slice(2);
const scenarios = JSON.parse(scenariosJson);
const grep = await import(`${pkg}/dist/core/tools/grep.js`);
const find = await import(`${pkg}/dist/core/tools/find.js`);
const tools = {
  grep: grep.createGrepToolDefinition(root),
  find: find.createFindToolDefinition(root),
};
const out = [];
for (const [, tool, args] of scenarios) {
  const times = [];
  let lines = 0;
  let error = null;
  for (let i = 0; i <= Number(runs); i++) {
    const start = performance.now();
    try {
      const result = await tools[tool].execute("bench", args, undefined, undefined, {});
      lines = result.content[0].text.split("\n").length;
    } catch (e) {
      error = String(e.message).slice(0, 200);
    }
    if (i > 0) times.push(performance.now() - start);
  }
  out.push({ times, lines, error });
}
console.log(JSON.stringify(out));
"""

FD_SHIM = """#!/bin/sh
# fd < 8.7 has no --no-require-git; drop it so pi's find can run
for arg do
  shift
  [ "$arg" = "--no-require-git" ] && continue
  set -- "$@" "$arg"
done
exec {fd} "$@"
"""


async def python_times(root: str, runs: int) -> list[tuple[list[float], int, str | None]]:
    """Time each scenario through `execute_tool_call`, as the agent loop calls the tools."""
    ctx = PluginManager(root, agent_dir=Path(tempfile.mkdtemp())).ctx
    tools = {tool.name: tool for tool in create_tools(["grep", "find"])}
    results = []
    for _, name, args in SCENARIOS:
        times: list[float] = []
        lines, error = 0, None
        for index in range(runs + 1):
            start = time.perf_counter()
            outcome = await execute_tool_call(tools[name], "bench", args, None, None, ctx)
            elapsed = (time.perf_counter() - start) * 1000
            text = outcome.result.text_content()
            lines = len(text.split("\n"))
            error = text[:200] if outcome.is_error else None
            if index:
                times.append(elapsed)
        results.append((times, lines, error))
    return results


def _fd_supports_no_require_git(fd: str) -> bool:
    """Whether this fd accepts --no-require-git (fd 8.7 and later)."""
    probe = subprocess.run(
        [fd, "--no-require-git", "--max-results", "1", ".", tempfile.gettempdir()],
        capture_output=True,
        check=False,
    )
    return probe.returncode in (0, 1) and b"wasn't expected" not in probe.stderr


def node_environment(work: Path) -> tuple[dict[str, str], str]:
    """Return the environment for pi's tools (rg and fd on PATH, offline) and a note on fd."""
    bin_dir = work / "bin"
    bin_dir.mkdir()
    path = [os.path.dirname(find_rg()), str(bin_dir), os.environ.get("PATH", "")]
    fd = shutil.which("fd") or shutil.which("fdfind")
    note = "fd: not found, pi's find will fail (install fd-find)"
    if fd is not None:
        if _fd_supports_no_require_git(fd):
            note = f"fd: {fd}"
            os.symlink(fd, bin_dir / "fd")
        else:
            shim = bin_dir / "fd"
            shim.write_text(FD_SHIM.replace("{fd}", fd))
            shim.chmod(0o755)
            note = f"fd: {fd} through a shim that drops --no-require-git (fd < 8.7)"
    env = dict(os.environ, PATH=os.pathsep.join(path), PI_OFFLINE="1")
    env["PI_CODING_AGENT_DIR"] = str(work / "agent")
    return env, note


def node_times(
    package: str, root: str, runs: int, node: str
) -> tuple[list[tuple[list[float], int, str | None]], str]:
    """Time pi's own grep and find in one node process."""
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        env, note = node_environment(work)
        runner = work / "runner.mjs"
        runner.write_text(NODE_RUNNER)
        completed = subprocess.run(
            [node, str(runner), package, root, str(runs), json.dumps(SCENARIOS)],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
    if completed.returncode != 0:
        raise SystemExit(f"node failed:\n{completed.stderr}")
    rows = json.loads(completed.stdout)
    return [(row["times"], row["lines"], row["error"]) for row in rows], note


def _cell(times: list[float], error: str | None) -> str:
    """The median ms of a scenario, or "error"."""
    if error is not None:
        return "error"
    return f"{statistics.median(times):9.1f}"


@dataclass
class ToolResult:
    """One scenario: median ms and output lines for each side (None ms: an error)."""

    label: str
    ours_ms: float | None
    ours_lines: int
    ours_error: str | None
    pi_ms: float | None = None
    pi_lines: int | None = None
    pi_error: str | None = None


def measure_tools(
    root: str, runs: int, pi_package: str | None = None, node: str = "node"
) -> tuple[list[ToolResult], str | None]:
    """Time every scenario on our side and, given pi's package folder, on pi's; return a note."""
    ours = asyncio.run(python_times(root, runs))
    theirs: list[tuple[list[float], int, str | None]] | None = None
    note = None
    if pi_package:
        theirs, note = node_times(os.path.realpath(pi_package), root, runs, node)
    results = []
    for index, (label, _, _) in enumerate(SCENARIOS):
        times, lines, error = ours[index]
        result = ToolResult(label, None if error else statistics.median(times), lines, error)
        if theirs is not None:
            pi_times, pi_lines, pi_error = theirs[index]
            result.pi_ms = None if pi_error else statistics.median(pi_times)
            result.pi_lines, result.pi_error = pi_lines, pi_error
        results.append(result)
    return results, note


def tree_files(root: str) -> int:
    """How many files the tree holds."""
    return sum(len(f) for _, _, f in os.walk(root))


def main() -> None:
    """Run the scenarios and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=sysconfig.get_paths()["stdlib"])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--pi-package", default=None, help="pi-coding-agent package folder")
    parser.add_argument("--node", default="node")
    args = parser.parse_args()
    root = os.path.realpath(args.root)
    files = tree_files(root)
    print(f"tree: {root} ({files} files), {args.runs} runs per scenario, median ms per call")
    ours = asyncio.run(python_times(root, args.runs))
    theirs: list[tuple[list[float], int, str | None]] | None = None
    if args.pi_package:
        theirs, note = node_times(os.path.realpath(args.pi_package), root, args.runs, args.node)
        print(note)
    print(f"python {sys.version.split()[0]}, rg {find_rg()}")
    print()
    header = f"{'scenario':<40} {'python ms':>9} {'lines':>6}"
    if theirs is not None:
        header += f" {'pi ms':>9} {'lines':>6} {'py/pi':>6}"
    print(header)
    print("-" * len(header))
    for index, (label, _, _) in enumerate(SCENARIOS):
        times, lines, error = ours[index]
        row = f"{label:<40} {_cell(times, error)} {lines:>6}"
        if theirs is not None:
            pi_times, pi_lines, pi_error = theirs[index]
            ratio = (
                f"{statistics.median(times) / statistics.median(pi_times):5.2f}x"
                if error is None and pi_error is None
                else "   n/a"
            )
            row += f" {_cell(pi_times, pi_error)} {pi_lines:>6} {ratio:>6}"
        print(row)
        for side, problem in (("python", error), ("pi", theirs[index][2] if theirs else None)):
            if problem:
                print(f"    {side} error: {problem}")


if __name__ == "__main__":
    main()
