"""CPU time and wall time of 20-turn tool conversations in one started RPC process.

    python benchmarks/rpc_turn_cpu.py [--pi PATH] [--ours PATH] [--runs N] [--rounds R]

Each side runs 3 warm-up conversations and then N measured ones (`new_session`, then a prompt
answered by 19 `ls`/`read` tool turns and a text turn); it reports the median wall time from
prompt to agent_end and the CPU its process tree used per conversation (/proc, user + system).
CPU time moves far less than wall time on a loaded machine, so compare sides by it, in rounds
that alternate the sides (A, B, A, B).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from harness import agent_runs
from harness.rpc import RpcProcess
from harness.scenarios import MODEL, TimedFakeServer


def tree_cpu(pid: int) -> float:
    """Seconds of CPU (user + system) used so far by `pid` and its descendants."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0.0
    total = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except FileNotFoundError:
        children = []
    return total + sum(tree_cpu(int(child)) for child in children)


def measure(name: str, executable: str, server: TimedFakeServer, runs: int) -> tuple[float, float]:
    """Return (median wall, CPU per conversation) in seconds for one side."""
    with tempfile.TemporaryDirectory(prefix="pi-turn-cpu-") as temp:
        side = agent_runs.make_side(name, executable, Path(temp), server)
        argv = [side.executable, "--mode", "rpc", "--model", MODEL, "--tools", "read,ls"]
        process = RpcProcess(argv, side.workspace.project, side.workspace.env)
        try:
            process.command({"type": "get_state"}, timeout=120)
            for _ in range(3):
                agent_runs.tool_conversation(process, server, 20)
            before = tree_cpu(process.process.pid)
            walls = [agent_runs.tool_conversation(process, server, 20)[0] for _ in range(runs)]
            cpu = (tree_cpu(process.process.pid) - before) / runs
        finally:
            process.close()
    return statistics.median(walls), cpu


def main() -> int:
    """Measure each side in alternating rounds and print one line per measurement."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ours", default=shutil.which("pi") or "pi")
    parser.add_argument("--pi", help="pi 0.73.1's executable (leave out to measure ours only)")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    sides = [("ours", args.ours)] + ([("pi", args.pi)] if args.pi else [])
    server = TimedFakeServer()
    server.start()
    try:
        for _ in range(args.rounds):
            for name, executable in sides:
                wall, cpu = measure(name, executable, server, args.runs)
                print(f"{name:5} wall {wall * 1000:6.1f} ms  cpu {cpu * 1000:6.1f} ms")
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
