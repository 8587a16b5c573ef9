"""Start-up of `pi --version` and `pi plugins`: wall time and peak memory over repeated runs.

    python benchmarks/startup.py [--runs 20] [--pi PATH]

Budget (DESIGN.md §8): `pi --version` within 0.25 s and 40 MiB.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import time


def measure(command: list[str], runs: int) -> tuple[float, float, float]:
    """Return (median wall s, min wall s, peak RSS MiB) of `command` over `runs` runs."""
    walls, peaks = [], []
    for _ in range(runs):
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        walls.append(time.perf_counter() - start)
        peaks.append(usage.ru_maxrss / 1024)  # Linux reports KiB
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"{' '.join(command)} failed")
    return statistics.median(walls), min(walls), max(peaks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--pi", default=shutil.which("pi") or "pi")
    args = parser.parse_args()
    print(f"{'command':<22} {'median s':>9} {'min s':>7} {'peak MiB':>9}")
    for label, command in (
        ("pi --version", [args.pi, "--version"]),
        ("pi --help", [args.pi, "--help"]),
        ("pi plugins", [args.pi, "plugins"]),
    ):
        median, best, peak = measure(command, args.runs)
        print(f"{label:<22} {median:>9.3f} {best:>7.3f} {peak:>9.1f}")
    median, _, peak = measure([args.pi, "--version"], args.runs)
    ok = median <= 0.25 and peak <= 40
    print(f"pi --version budget (0.25 s, 40 MiB): {'met' if ok else 'NOT met'}")


if __name__ == "__main__":
    main()
