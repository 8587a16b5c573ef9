"""Start-up of `pi --version` and `pi plugins`: wall time and peak memory over repeated runs.

    python benchmarks/startup.py [--runs 20] [--pi PATH]

Budget (DESIGN.md §8): `pi --version` within 0.25 s and 40 MiB.
"""

from __future__ import annotations

import argparse

from harness.measure import measure
from harness.pi import our_pi


def main() -> None:
    """Measure each command and print the table and the verdict on the budget."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--pi", default=None, help="the pi to measure (default: ours)")
    args = parser.parse_args()
    args.pi = args.pi or our_pi()
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
