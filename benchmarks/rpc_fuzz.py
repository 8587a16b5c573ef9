"""Fuzz `pi --mode rpc` for longer than the test suite does: every line with an id must get an
answer carrying it, and the process must survive to answer `get_state` at the end.

    python benchmarks/rpc_fuzz.py [--cases 20000] [--seed 1] [--rounds 5]

Each round starts a fresh `pi --mode rpc --no-session` (an isolated HOME and agent dir), sends
`--cases` lines from `pi_core.testing.rpc_fuzz.garbage_lines` and checks the answers. Prints one
line per round and exits 1 on the first failure.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from pi_core.testing.rpc_fuzz import garbage_lines


def fuzz_round(pi: str, seed: int, cases: int) -> tuple[bool, str]:
    """Run one round; return (passed, a one-line summary)."""
    with tempfile.TemporaryDirectory() as home:
        agent = Path(home) / "agent"
        agent.mkdir()
        env = {**os.environ, "HOME": home, "PI_CODING_AGENT_DIR": str(agent)}
        process = subprocess.Popen(
            [pi, "--mode", "rpc", "--no-session"], cwd=home, env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        assert process.stdin is not None and process.stdout is not None
        lines = garbage_lines(seed, cases)
        expected = {rid for _, rid in lines if rid is not None} | {"final"}
        answered: set[str] = set()
        done = threading.Event()

        def read() -> None:
            assert process.stdout is not None
            for raw in process.stdout:
                try:
                    record = json.loads(raw)
                except ValueError:
                    continue
                if record.get("type") == "response" and isinstance(record.get("id"), str):
                    answered.add(record["id"])
                if expected <= answered:
                    done.set()
            done.set()

        threading.Thread(target=read, daemon=True).start()
        started = time.perf_counter()
        for line, _ in lines:
            process.stdin.write(line + b"\n")
        process.stdin.write(b'{"id":"final","type":"get_state"}\n')
        process.stdin.flush()
        done.wait(timeout=600)
        elapsed = time.perf_counter() - started
        process.stdin.close()
        process.wait(timeout=60)
        missing = expected - answered
        summary = f"seed {seed}: {cases} lines in {elapsed:.1f} s, {len(missing)} unanswered"
        return not missing, summary


def main() -> int:
    """Run the rounds and report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    pi = shutil.which("pi")
    if pi is None:
        print("the pi command is not installed", file=sys.stderr)
        return 2
    for offset in range(args.rounds):
        passed, summary = fuzz_round(pi, args.seed + offset, args.cases)
        print(("ok   " if passed else "FAIL ") + summary)
        if not passed:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
