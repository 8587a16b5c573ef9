"""CPU time and wall time of RPC prompts in one started RPC process, per prompt.

    python benchmarks/rpc_turn_cpu.py [--pi PATH] [--ours PATH] [--base PATH] [--runs N]
                                      [--rounds R] [--scenario turns|session]

turns: each side runs 3 warm-up conversations and then N measured ones (`new_session`, then a
prompt answered by 19 `ls`/`read` tool turns and a text turn). session: `switch_session` to a
fresh copy of the 1 MB session fixture (tests/fixtures/sessions/large-session.jsonl), then a
prompt answered in text (auto-compaction off), 1 warm-up. Each reports the median wall time from
the prompt (session: from the switch) to agent_end and the CPU its process tree used per
conversation (/proc, user + system). CPU time moves far less than wall time on a loaded machine,
so compare sides by it, in rounds that alternate the sides (A, B, A, B); --base adds a third
side (e.g. a wrapper running an older checkout) to each round.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from harness import agent_runs
from harness.rpc import RpcProcess
from harness.scenarios import FINAL_TEXT, MODEL, TimedFakeServer
from harness.session_prompt import SESSION, local_copy

from pi_core.testing import chat_stream


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


def session_prompt(process: RpcProcess, server: TimedFakeServer, folder: Path, cwd: Path) -> float:
    """Switch to a fresh copy of the 1 MB session and prompt once: seconds from the switch to
    agent_end."""
    copy = local_copy(SESSION, folder / f"copy{time.monotonic_ns()}.jsonl", cwd)
    server.queue(chat_stream(FINAL_TEXT))
    request_id, sent = process.send({"type": "switch_session", "sessionPath": str(copy)})
    process.wait_for("response", request_id)
    process.send({"type": "prompt", "message": "Summarize where we are"})
    ended, record = process.wait_for("agent_end")
    if agent_runs.last_text(record) != FINAL_TEXT:
        raise RuntimeError(f"session prompt: no answer in agent_end: {str(record)[-300:]}")
    server.requests.clear()  # each body holds the whole history
    return ended - sent


def measure(
    name: str, executable: str, server: TimedFakeServer, runs: int, scenario: str = "turns"
) -> tuple[float, float]:
    """Return (median wall, CPU per conversation) in seconds for one side."""
    with tempfile.TemporaryDirectory(prefix="pi-turn-cpu-") as temp:
        side = agent_runs.make_side(name, executable, Path(temp), server)
        argv = [side.executable, "--mode", "rpc", "--model", MODEL, "--tools", "read,ls"]
        process = RpcProcess(argv, side.workspace.project, side.workspace.env)
        if scenario == "session":
            folder = Path(temp) / "sessions"
            folder.mkdir()

            def once() -> float:
                return session_prompt(process, server, folder, side.workspace.project)
        else:

            def once() -> float:
                return agent_runs.tool_conversation(process, server, 20)[0]

        try:
            process.command({"type": "get_state"}, timeout=120)
            if scenario == "session":  # the history is past the fake model's threshold
                process.command({"type": "set_auto_compaction", "enabled": False})
            for _ in range(3 if scenario == "turns" else 1):
                once()
            before = tree_cpu(process.process.pid)
            walls = [once() for _ in range(runs)]
            cpu = (tree_cpu(process.process.pid) - before) / runs
        finally:
            process.close()
    return statistics.median(walls), cpu


def main() -> int:
    """Measure each side in alternating rounds and print one line per measurement."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ours", default=shutil.which("pi") or "pi")
    parser.add_argument("--pi", help="pi 0.73.1's executable (leave out to measure ours only)")
    parser.add_argument("--base", help="another build of ours to measure in each round")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--scenario", choices=("turns", "session"), default="turns")
    args = parser.parse_args()
    sides = [("ours", args.ours)] + ([("base", args.base)] if args.base else [])
    sides += [("pi", args.pi)] if args.pi else []
    server = TimedFakeServer()
    server.start()
    try:
        for _ in range(args.rounds):
            for name, executable in sides:
                wall, cpu = measure(name, executable, server, args.runs, args.scenario)
                print(f"{name:5} wall {wall * 1000:6.1f} ms  cpu {cpu * 1000:6.1f} ms")
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
