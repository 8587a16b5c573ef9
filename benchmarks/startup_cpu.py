"""CPU time (user + system) and peak memory of `pi -p` and `pi --version`, A/B against a base tree.

    python benchmarks/startup_cpu.py [--runs 15] [--base DIR] [--only print,version,help]

CPU time moves far less than wall time on a shared machine, so this is the figure to compare
start-up changes by. Each round runs every side once, alternating, against the loopback fake LLM
server (`pi -p`: two turns and one `read` call, as in `benchmarks/run.py`); the table has the
median and the minimum. `--base DIR` (repeatable) adds a side that runs the code of another checkout
(a `git worktree` of the branch point, say) with `PYTHONPATH` pointing at it and its plugins, in the
same interpreter and environment (the installed distributions' entry points are shared). `--pi
PATH` adds pi 0.73.1 (its CPU time counts every thread of the node process); the last column
then gives pi's median CPU time ÷ each side's.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from harness.pi import our_pi
from harness.scenarios import MODEL, Workspace, make_workspace, print_answers, with_bytecode_cache

from pi_core.testing import FakeLLMServer

TIME = "/usr/bin/time"
COMMANDS = {
    "print": ["-p", "Read notes.txt and summarize it", "--model", MODEL],
    "version": ["--version"],
    "help": ["--help"],
}


@dataclass
class Side:
    """One code tree under test, its workspace, and its samples per command: (cpu s, peak MiB)."""

    name: str
    pythonpath: str | None
    workspace: Workspace
    executable: str
    samples: dict[str, list[tuple[float, float]]] = field(default_factory=dict)


def tree_path(root: Path) -> str:
    """PYTHONPATH that makes `root`'s core and first-party plugins win over the installed ones."""
    plugins = sorted(str(src) for src in (root / "plugins").glob("*/src"))
    return os.pathsep.join([str(root), *plugins])


def run_once(side: Side, command: str, server: FakeLLMServer, temp: Path) -> tuple[float, float]:
    """Run one command for `side` in its workspace; return (user + sys s, peak RSS MiB)."""
    workspace = side.workspace
    env = with_bytecode_cache(workspace.env, temp / f"pycache-{side.name}")
    if side.pythonpath:
        env["PYTHONPATH"] = side.pythonpath
    server.requests.clear()
    if command == "print":
        server.queue(*print_answers())
    report = temp / "time.txt"
    argv = [TIME, "-f", "%U %S %M", "-o", str(report), side.executable]
    with tempfile.TemporaryFile() as err:
        process = subprocess.Popen(
            [*argv, *COMMANDS[command]],
            cwd=workspace.project,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
        # wait4's usage of GNU time includes the command it waited for, to the microsecond
        _, status, usage = os.wait4(process.pid, 0)
        err.seek(0)
        failed = os.waitstatus_to_exitcode(status) != 0
        if failed or (command == "print" and len(server.requests) != 2):
            raise SystemExit(f"{side.name} {command} failed:\n{err.read()[-3000:]!r}")
    peak = report.read_text().split()[-1]
    return usage.ru_utime + usage.ru_stime, int(peak) / 1024


def main() -> None:
    """Alternate the sides for `--runs` rounds (after one warm-up) and print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument(
        "--base",
        type=Path,
        action="append",
        default=[],
        help="a checkout to compare with (repeatable; each side is named after its folder)",
    )
    parser.add_argument("--only", default="print,version", help="commands: print,version,help")
    parser.add_argument("--pi", default=None, help="pi 0.73.1's executable, to measure too")
    args = parser.parse_args()
    commands = [name for name in args.only.split(",") if name]
    with tempfile.TemporaryDirectory() as folder, FakeLLMServer() as server:
        temp = Path(folder)
        ours = our_pi()
        sides = [Side("ours", None, make_workspace(temp / "ours", server.base_url), ours)]
        for base in reversed(args.base):
            name = base.resolve().name
            workspace = make_workspace(temp / f"base-{name}", server.base_url)
            sides.insert(0, Side(name, tree_path(base.resolve()), workspace, ours))
        if args.pi is not None:
            workspace = make_workspace(temp / "pi", server.base_url)
            sides.insert(0, Side("pi", None, workspace, args.pi))
        for index in range(args.runs + 1):
            for command in commands:
                for side in sides:
                    sample = run_once(side, command, server, temp)
                    if index:  # the first round fills the bytecode caches
                        side.samples.setdefault(command, []).append(sample)
    width = max(len(side.name) for side in sides)
    header = (
        f"{'command':<10} {'side':<{width}} {'median cpu s':>13} {'min cpu s':>10} {'peak MiB':>9}"
    )
    print(header + ("  pi ÷ side (cpu, memory side ÷ pi)" if args.pi else ""))
    for command in commands:
        pi = sides[0].samples[command] if args.pi else None
        for side in sides:
            cpu = [sample[0] for sample in side.samples[command]]
            peak = max(sample[1] for sample in side.samples[command])
            line = (
                f"{command:<10} {side.name:<{width}} {statistics.median(cpu):>13.3f} "
                f"{min(cpu):>10.3f} {peak:>9.1f}"
            )
            if pi is not None and side.name != "pi":
                ratio = statistics.median(s[0] for s in pi) / statistics.median(cpu)
                memory = peak / max(s[1] for s in pi)
                line += f"  {ratio:5.2f}x, {memory:.2f}"
            print(line)


if __name__ == "__main__":
    main()
