"""Profile our RPC process on the harness's scenarios (cProfile; the process runs under it).

    python benchmarks/profile_rpc.py {turns,stream,history,session,window} [--out FILE] [--top N]

turns: 20-turn tool conversations; stream: 10 KB replies in 10-byte deltas; history: one session
grown to ~1,200 messages; session: a switch to a fresh copy of the 1 MB session fixture and one
prompt on it (as `rpc_turn_cpu.py --scenario session`). The profile covers the whole process;
read the cumulative column for the per-prompt paths (start-up shows up under `main`). With
`--warm N`, N runs go unprofiled first and only the `--runs` after them are profiled (start-up
and warm-up left out).

window: the history benchmark's session (150 prompts of 3 tool calls and an answer), profiled only
during its first three prompts and its last three (~1,200 messages), written to FILE.early and
FILE.late: what a request costs at 10 messages against what it costs at 1,200.
"""

from __future__ import annotations

import argparse
import os
import pstats
import signal
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import rpc_turn_cpu
from harness import agent_runs
from harness.rpc import RpcProcess
from harness.scenarios import (
    MODEL,
    TimedFakeServer,
    stream_answer,
    tool_turn_answers,
)


def main() -> int:
    """Run one scenario in a profiled RPC process and print the top of the profile."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario", choices=("turns", "stream", "history", "session", "window"))
    parser.add_argument("--out", type=Path, default=Path("rpc.prof"))
    parser.add_argument("--top", type=int, default=35)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--warm", type=int, default=0, help="unprofiled runs first; then only the runs are profiled"
    )
    args = parser.parse_args()
    if args.scenario == "window":
        return profile_window(args.out, args.top)
    out = args.out.resolve()
    server = TimedFakeServer()
    server.start()
    with tempfile.TemporaryDirectory(prefix="pi-prof-") as temp:
        side = agent_runs.make_side("ours", "pi", Path(temp), server)
        entry = Path(temp) / "pi_entry.py"
        control = str(Path(temp) / "control")
        if args.warm:
            entry.write_text(WINDOW_ENTRY)
            argv = [sys.executable, str(entry), control]
        else:
            entry.write_text("from pi_core.cli import cli\ncli(prog_name='pi')\n")
            argv = [sys.executable, "-m", "cProfile", "-o", str(out), str(entry)]
        argv += ["--mode", "rpc", "--model", MODEL, "--tools", "read,ls"]
        process = RpcProcess(argv, side.workspace.project, side.workspace.env)
        process.command({"type": "get_state"}, timeout=120)
        if args.scenario == "session":
            process.command({"type": "set_auto_compaction", "enabled": False})

        def run() -> None:
            """One run of the scenario."""
            if args.scenario == "session":
                project = side.workspace.project
                rpc_turn_cpu.session_prompt(process, server, Path(temp), project)
            elif args.scenario == "turns":
                process.command({"type": "new_session"})
                server.queue(*tool_turn_answers(20))
                process.send({"type": "prompt", "message": "Look around"})
                process.wait_for("agent_end")
            elif args.scenario == "stream":
                process.command({"type": "new_session"})
                server.queue(stream_answer(10_000))
                process.send({"type": "prompt", "message": "Write"})
                process.wait_for("agent_end")
            else:
                for _ in range(10):
                    server.queue(*tool_turn_answers(20))
                    process.send({"type": "prompt", "message": "Look around"})
                    process.wait_for("agent_end")

        for _ in range(args.warm):
            run()
        if args.warm:
            pid = int(Path(control + ".pid").read_text())
            Path(control + ".which").write_text(str(out))
            os.kill(pid, signal.SIGUSR1)
        for _ in range(args.runs):
            run()
        if args.warm:
            os.kill(pid, signal.SIGUSR2)
            done = Path(str(out) + ".done")
            while not done.exists():
                time.sleep(0.01)
            done.unlink()
        process.close()
    server.stop()
    pstats.Stats(str(out)).sort_stats("tottime").print_stats(args.top)
    return 0


# The RPC process under a profiler that SIGUSR1 starts and SIGUSR2 stops and saves (to the
# path the next argument names), so a window of prompts is profiled without start-up.
WINDOW_ENTRY = """
import cProfile, os, signal, sys
from pathlib import Path
state = {"profile": None, "out": sys.argv.pop(1)}
Path(state["out"] + ".pid").write_text(str(os.getpid()))
def start(*_):
    state["profile"] = cProfile.Profile()
    state["profile"].enable()
def stop(*_):
    state["profile"].disable()
    path = Path(state["out"] + ".which").read_text()
    state["profile"].dump_stats(path)
    Path(path + ".done").write_text("")
signal.signal(signal.SIGUSR1, start)
signal.signal(signal.SIGUSR2, stop)
from pi_core.cli import cli
cli(prog_name="pi")
"""


def profile_window(out: Path, top: int, prompts: int = 150, tool_calls: int = 3) -> int:
    """Profile the first and the last three prompts of a `prompts`-prompt session."""
    server = TimedFakeServer()
    server.start()
    out = out.resolve()
    with tempfile.TemporaryDirectory(prefix="pi-prof-") as temp:
        side = agent_runs.make_side("ours", "pi", Path(temp), server)
        entry = Path(temp) / "pi_entry.py"
        entry.write_text(WINDOW_ENTRY)
        control = str(Path(temp) / "control")
        argv = [sys.executable, str(entry), control]
        argv += ["--mode", "rpc", "--model", MODEL, "--tools", "read,ls"]
        process = RpcProcess(argv, side.workspace.project, side.workspace.env)
        process.command({"type": "get_state"}, timeout=120)
        pid = int(Path(control + ".pid").read_text())
        windows = {0: f"{out}.early", prompts - 3: f"{out}.late"}
        for index in range(prompts):
            if index in windows:
                Path(control + ".which").write_text(windows[index])
                os.kill(pid, signal.SIGUSR1)
            server.queue(*tool_turn_answers(tool_calls + 1))
            process.send({"type": "prompt", "message": f"Look around src/ ({index})"})
            process.wait_for("agent_end")
            server.requests.clear()
            if index - 2 in windows:
                os.kill(pid, signal.SIGUSR2)
                done = Path(windows[index - 2] + ".done")
                while not done.exists():
                    time.sleep(0.01)
                done.unlink()
        process.close()
    server.stop()
    for path in windows.values():
        print(f"==== {path}")
        pstats.Stats(path).sort_stats("tottime").print_stats(top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
