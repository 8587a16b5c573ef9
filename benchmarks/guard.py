"""The performance regression guard: ours ÷ the floor, measured in one run, against a baseline.

    python benchmarks/guard.py [--reps 5] [--update] [--only print,rpc-tools,...]

For each row (the quick scenarios of run.py that need neither pi nor node: `pi -p` 2 turns + 1
tool call, RPC 19 tool calls, RPC one prompt on the 1 MB session, session open + context, HTML
export) our pi and the floor (harness/floor/) run `--reps` times, alternating which goes
first; the row's figure is median(ours) ÷ median(floor). Timing both in the same minutes cancels
most of what the machine's load does to either. A row fails (exit 1) when its ratio exceeds the
committed baseline (benchmarks/guard_baseline.json) by more than the margin stated there (0.5:
50 % worse). `--update` rewrites the baseline's ratios from this run. CI runs it after the test
suite, never beside it. No network, no pi.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from harness import agent_runs, floor_side
from harness.guard_check import decide, load
from harness.machine import describe
from harness.measure import measure_runs
from harness.pi import our_pi
from harness.scenarios import TimedFakeServer
from harness.session_prompt import rpc_session_prompt

BASELINE = Path(__file__).resolve().parent / "guard_baseline.json"
OPEN_ENTRIES = 20_000
EXPORT_ENTRIES = 2_000
Measure = Callable[[agent_runs.Side], float]


class Scenarios:
    """The guard's rows, each a function of a side that returns seconds (one small median)."""

    def __init__(self, root: Path, server: TimedFakeServer) -> None:
        """Generate the sessions the open and export rows read."""
        import export
        import sessions

        self.server = server
        self.open_session = sessions.generated_session(root / "open", OPEN_ENTRIES)
        self.export_dir = root / "export"
        self.export_dir.mkdir()
        self.export_session = export.generate_session(
            self.export_dir / "bench-export.jsonl", EXPORT_ENTRIES
        )

    def rows(self) -> dict[str, Measure]:
        """Row key → measurement."""
        return {
            "print": lambda s: agent_runs.print_two_turns(s, self.server, 1).median,
            "rpc-tools": lambda s: (
                agent_runs.rpc_conversations(s, self.server, 2, stream_bytes=1000).turns_s
            ),
            "rpc-session": lambda s: rpc_session_prompt(s, self.server, 2).seconds,
            "open": self.open_seconds,
            "export": self.export_seconds,
        }

    def open_seconds(self, side: agent_runs.Side) -> float:
        """Open + build context in process: our SessionManager, or the floor's reader."""
        import sessions

        if side.name == "floor":
            return floor_side.open_context_ms(self.open_session, 3) / 1000
        wall_ms, _cpu_ms = sessions.python_open_ms(self.open_session, 3)
        return wall_ms / 1000

    def export_seconds(self, side: agent_runs.Side) -> float:
        """`--export` of a fresh copy of the generated session."""
        copy = self.export_dir / f"{side.name}.jsonl"
        output = self.export_dir / f"{side.name}.html"

        def fresh_copy() -> None:
            """The session as generated (an export may touch its input)."""
            copy.write_bytes(self.export_session.read_bytes())

        # the floor's export is a tenth of ours: three runs keep one hiccup from being its figure
        runs = 3 if side.name == "floor" else 1
        summary = measure_runs(
            [side.executable, "--export", str(copy), str(output)],
            runs,
            cwd=self.export_dir,
            before=fresh_copy,
        )
        return summary.median


def alternate(measure: Measure, ours: agent_runs.Side, floor: agent_runs.Side, reps: int) -> float:
    """Median of ours ÷ median of the floor over `reps` rounds, the first side alternating."""
    samples: dict[str, list[float]] = {"ours": [], "floor": []}
    for index in range(reps):
        order = (ours, floor) if index % 2 == 0 else (floor, ours)
        for side in order:
            samples[side.name].append(measure(side))
    return statistics.median(samples["ours"]) / statistics.median(samples["floor"])


def measure_rows(server: TimedFakeServer, only: str, reps: int) -> dict[str, float]:
    """ours ÷ floor for each wanted row (all when `only` is empty)."""
    ratios: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="pi-guard-") as temp:
        root = Path(temp)
        cache = root / "pycache"
        ours = agent_runs.make_side("ours", our_pi(), root, server, cache)
        floor = agent_runs.make_side(
            "floor", floor_side.write_launcher(root / "floor-bin"), root, server, cache
        )
        rows = Scenarios(root, server).rows()
        for key in [key for key in only.split(",") if key] or list(rows):
            started = time.perf_counter()
            ratios[key] = alternate(rows[key], ours, floor, reps)
            seconds = time.perf_counter() - started
            print(f"{key}: ours ÷ floor {ratios[key]:.2f} ({seconds:.0f} s)", file=sys.stderr)
    return ratios


def main(argv: list[str] | None = None) -> int:
    """Measure the rows, compare them with the baseline; 1 if any worsened past the margin."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=5, help="alternating rounds per row")
    parser.add_argument("--update", action="store_true", help="rewrite the baseline's ratios")
    parser.add_argument("--only", default="", help="comma-separated rows (default: all)")
    parser.add_argument("--baseline", type=Path, default=BASELINE)
    args = parser.parse_args(argv)
    load(args.baseline)  # a missing or broken baseline fails before anything is measured
    server = TimedFakeServer()
    server.start()
    try:
        ratios = measure_rows(server, args.only, args.reps)
    finally:
        server.stop()
    machine = {k: v for k, v in describe(None).items() if k not in ("node", "pi")}
    status, text = decide(ratios, args.baseline, args.update, {**machine, "reps": str(args.reps)})
    print(text)
    return status


if __name__ == "__main__":
    sys.exit(main())
