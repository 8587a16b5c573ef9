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
from dataclasses import dataclass
from pathlib import Path

from pi_core import AssistantMessage, TextContent, UserMessage
from pi_core.session import SessionManager

SHARED = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "sessions"

NODE_OPEN = """
const { SessionManager } = await import(process.argv[1] + "/dist/core/session-manager.js");
const fs = await import("fs");
const [runs, appends] = [Number(process.argv[2]), Number(process.argv[3])];
const median = (xs) => { xs.sort((a, b) => a - b); return xs[Math.floor(xs.length / 2)]; };
const results = {};
for (const file of process.argv.slice(4)) {
  const samples = [];
  const cpuSamples = [];
  for (let i = 0; i < runs; i++) {
    const copy = file + ".node" + i + ".jsonl";
    fs.copyFileSync(file, copy);
    const cpu = process.cpuUsage();
    const start = performance.now();
    const manager = SessionManager.open(copy);
    const context = manager.buildSessionContext();
    samples.push(performance.now() - start);
    const used = process.cpuUsage(cpu);
    cpuSamples.push((used.user + used.system) / 1000);
    if (context.messages.length < 0) throw new Error("unreachable");
    fs.unlinkSync(copy);
  }
  const copy = file + ".node-append.jsonl";
  fs.copyFileSync(file, copy);
  const manager = SessionManager.open(copy);
  const appendSamples = [];
  for (let i = 0; i < appends; i++) {
    const start = performance.now();
    manager.appendCustomEntry("bench", { i });
    appendSamples.push((performance.now() - start) * 1000);
  }
  fs.unlinkSync(copy);
  results[file] = {
    openMs: median(samples), openCpuMs: median(cpuSamples), appendUs: median(appendSamples),
  };
}
console.log(JSON.stringify(results));
"""


@dataclass
class SessionResult:
    """One session file: size, median open + build-context ms (wall and CPU) and append µs, ours
    and pi's."""

    name: str
    size_mb: float
    entries: int
    ours_open_ms: float
    ours_append_us: float
    pi_open_ms: float | None = None
    pi_append_us: float | None = None
    ours_open_cpu_ms: float | None = None
    pi_open_cpu_ms: float | None = None


def python_open_ms(path: Path, runs: int = 5) -> tuple[float, float]:
    """Median ms to open a fresh copy (migration included) and build its context: wall, and
    CPU (user + system) of this process."""
    samples, cpu_samples = [], []
    for index in range(runs):
        copy = path.with_name(f"{path.stem}.py{index}.jsonl")
        shutil.copy(path, copy)
        cpu = time.process_time()
        start = time.perf_counter()
        manager = SessionManager.open(copy)
        manager.build_session_context()
        samples.append((time.perf_counter() - start) * 1000)
        cpu_samples.append((time.process_time() - cpu) * 1000)
        manager.close()
        del manager  # freed here, not inside the next run's timing
        copy.unlink()
    return statistics.median(samples), statistics.median(cpu_samples)


def node_results(
    package: Path, files: list[Path], runs: int = 5, appends: int = 2000
) -> dict[str, dict[str, float]]:
    """Median open ms and append µs for pi's own SessionManager on the same files."""
    output = subprocess.run(
        [
            "node",
            "--input-type=module",
            "-e",
            NODE_OPEN,
            str(package),
            str(runs),
            str(appends),
            *map(str, files),
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    results: dict[str, dict[str, float]] = json.loads(output)
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
    """Median µs per append on an opened copy of the session."""
    copy = path.with_name(f"{path.stem}.py-append.jsonl")
    shutil.copy(path, copy)
    manager = SessionManager.open(copy)
    samples = []
    for index in range(count):
        start = time.perf_counter()
        manager.append_custom_entry("bench", {"i": index})
        samples.append((time.perf_counter() - start) * 1e6)
    manager.close()
    copy.unlink()
    return statistics.median(samples)


def measure_sessions(
    folder: Path, entries: int, pi_package: Path | None = None, runs: int = 5
) -> list[SessionResult]:
    """Copy the shared sessions into `folder`, generate 100- and `entries`-entry ones, time all."""
    files = [Path(shutil.copy(p, folder / p.name)) for p in sorted(SHARED.glob("*.jsonl"))]
    files.append(generated_session(folder / "small", 100))
    files.append(generated_session(folder / "big", entries))
    names = [p.name for p in files[:-2]] + [
        "generated, 100 entries",
        f"generated, {entries:,} entries",
    ]
    node = node_results(pi_package, files, runs) if pi_package else {}
    results = []
    for name, path in zip(names, files, strict=True):
        with path.open("rb") as handle:
            lines = sum(1 for _ in handle)
        theirs = node.get(str(path), {})
        open_ms, open_cpu_ms = python_open_ms(path, runs)
        results.append(
            SessionResult(
                name=name,
                size_mb=path.stat().st_size / 1e6,
                entries=lines - 1,
                ours_open_ms=open_ms,
                ours_append_us=append_latency_us(path),
                pi_open_ms=theirs.get("openMs"),
                pi_append_us=theirs.get("appendUs"),
                ours_open_cpu_ms=open_cpu_ms,
                pi_open_cpu_ms=theirs.get("openCpuMs"),
            )
        )
    return results


def _cell(value: float | None) -> str:
    """A right-aligned number or a dash."""
    return f"{value:>10.1f}" if value is not None else f"{'-':>10}"


def main() -> None:
    """Run the measurements and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pi-package", type=Path)
    parser.add_argument("--entries", type=int, default=100_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        print("generating a session of", args.entries, "entries…")
        results = measure_sessions(Path(temp), args.entries, args.pi_package)
    print(
        f"\n{'session':<30} {'size':>7} {'open ms':>10} {'pi open ms':>10} {'open CPU':>10}"
        f" {'pi op. CPU':>10} {'append µs':>10} {'pi app. µs':>10}"
    )
    for result in results:
        print(
            f"{result.name[:30]:<30} {result.size_mb:>5.1f}MB {_cell(result.ours_open_ms)}"
            f" {_cell(result.pi_open_ms)} {_cell(result.ours_open_cpu_ms)}"
            f" {_cell(result.pi_open_cpu_ms)} {_cell(result.ours_append_us)}"
            f" {_cell(result.pi_append_us)}"
        )


if __name__ == "__main__":
    main()
