"""Profile our RPC process on the harness's scenarios (cProfile; the process runs under it).

    python benchmarks/profile_rpc.py {turns,stream,history} [--out FILE] [--top N]

turns: 20-turn tool conversations; stream: 10 KB replies in 10-byte deltas; history: one session
grown to ~1,200 messages. The profile covers the whole process; read the cumulative column for
the per-prompt paths (start-up shows up under `main`).
"""

from __future__ import annotations

import argparse
import pstats
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

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
    parser.add_argument("scenario", choices=("turns", "stream", "history"))
    parser.add_argument("--out", type=Path, default=Path("rpc.prof"))
    parser.add_argument("--top", type=int, default=35)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    server = TimedFakeServer()
    server.start()
    with tempfile.TemporaryDirectory(prefix="pi-prof-") as temp:
        side = agent_runs.make_side("ours", "pi", Path(temp), server)
        argv = [sys.executable, "-m", "cProfile", "-o", str(args.out.resolve())]
        entry = Path(temp) / "pi_entry.py"
        entry.write_text("from pi_core.cli import cli\ncli(prog_name='pi')\n")
        argv.append(str(entry))
        argv += ["--mode", "rpc", "--model", MODEL, "--tools", "read,ls"]
        process = RpcProcess(argv, side.workspace.project, side.workspace.env)
        process.command({"type": "get_state"}, timeout=120)
        for _ in range(args.runs):
            if args.scenario == "turns":
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
        process.close()
    server.stop()
    pstats.Stats(str(args.out)).sort_stats("tottime").print_stats(args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
