"""Session store speed: open + build context, and append latency as a session grows.

    python benchmarks/sessions.py [--pi-package DIR] [--entries 100000]

--pi-package is the folder of an installed @mariozechner/pi-coding-agent (e.g. after
`npm install @mariozechner/pi-coding-agent@0.73.1` in /tmp/piref:
/tmp/piref/node_modules/@mariozechner/pi-coding-agent); pi's SessionManager then opens the
same copies in node, so both columns come from one run on one machine.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from pi_core import AssistantMessage, TextContent, UserMessage
from pi_core.session import SessionManager

SHARED = Path(__file__).resolve().parents[2] / "shared" / "sessions"

NODE_OPEN = """
const { SessionManager } = await import(process.argv[1] + "/dist/core/session-manager.js");
const results = {};
for (const file of process.argv.slice(2)) {
  const samples = [];
  for (let i = 0; i < 5; i++) {
    const copy = file + ".node" + i + ".jsonl";
    (await import("fs")).copyFileSync(file, copy);
    const start = performance.now();
    const manager = SessionManager.open(copy);
    const context = manager.buildSessionContext();
    samples.push(performance.now() - start);
    if (context.messages.length < 0) throw new Error("unreachable");
  }
  samples.sort((a, b) => a - b);
  results[file] = samples[2];
}
console.log(JSON.stringify(results));
"""


def python_open_ms(path: Path, runs: int = 5) -> float:
    """Median ms to open a fresh copy (migration included) and build its context."""
    samples = []
    for index in range(runs):
        copy = path.with_name(f"{path.stem}.py{index}.jsonl")
        shutil.copy(path, copy)
        start = time.perf_counter()
        manager = SessionManager.open(copy)
        manager.build_session_context()
        samples.append((time.perf_counter() - start) * 1000)
        manager.close()
    return statistics.median(samples)


def node_open_ms(package: Path, files: list[Path]) -> dict[str, float]:
    """Median ms for pi's own SessionManager on the same files."""
    output = subprocess.run(
        ["node", "--input-type=module", "-e", NODE_OPEN, str(package), *map(str, files)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    results: dict[str, float] = json.loads(output)
    return results


def generated_session(folder: Path, entries: int) -> Path:
    """Write a linear session of `entries` message entries (user/assistant turns)."""
    manager = SessionManager.create("/bench", folder)
    for index in range(entries // 2):
        manager.append_message(UserMessage(content=f"question {index} " + "x" * 80))
        manager.append_message(
            AssistantMessage(
                content=[TextContent(text=f"answer {index} " + "y" * 200)], provider="p"
            )
        )
    manager.close()
    assert manager.session_file is not None
    return manager.session_file


def append_latency_us(path: Path, count: int = 2000) -> float:
    """Median µs per append on an opened session."""
    manager = SessionManager.open(path)
    samples = []
    for index in range(count):
        start = time.perf_counter()
        manager.append_custom_entry("bench", {"i": index})
        samples.append((time.perf_counter() - start) * 1e6)
    manager.close()
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pi-package", type=Path)
    parser.add_argument("--entries", type=int, default=100_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        files = [shutil.copy(p, folder / p.name) for p in sorted(SHARED.glob("*.jsonl"))]
        print("generating a session of", args.entries, "entries…")
        small = generated_session(folder / "small", 100)
        big = generated_session(folder / "big", args.entries)
        files = [Path(f) for f in files] + [big]
        node = node_open_ms(args.pi_package, files) if args.pi_package else {}
        print(
            f"\n{'open + build context':<34} {'size':>8} {'pi-python ms':>13} {'pi 0.73.1 ms':>13}"
        )
        for path in files:
            ours = python_open_ms(path)
            theirs = node.get(str(path))
            size = f"{path.stat().st_size / 1e6:.1f} MB"
            other = f"{theirs:>13.1f}" if theirs is not None else f"{'-':>13}"
            print(f"{path.name[:34]:<34} {size:>8} {ours:>13.1f} {other}")
        print(f"\nappend latency, 100 entries:     {append_latency_us(small):8.1f} µs")
        print(f"append latency, {args.entries} entries: {append_latency_us(big):8.1f} µs")


if __name__ == "__main__":
    main()
