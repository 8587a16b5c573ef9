"""HTML export of a large session: ours (`pi --export`) against pi 0.73.1's, time, memory, size.

    python benchmarks/export.py [--pi PATH] [--entries 100000] [--runs 3]
    python benchmarks/export.py --rounds 7 [--base PATH] [--pi PATH] [--entries 100000]

A session of `--entries` entries is generated (user prompts, assistant answers with markdown and
code, bash / read / edit calls and their results, a branch every 1,000 entries); both commands
export the same copy. --pi is an installed pi executable (e.g.
/tmp/piref/node_modules/.bin/pi); without it only our side is measured.

With --rounds, each round runs every side once, one after the other (ours, --base: another
checkout's `pi`, e.g. the branch point's, and pi), after one warm-up round, and the table shows
the median CPU time (user + system, which a machine loaded by other work disturbs far less than
wall time), the median wall time and the largest peak RSS of each side.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.measure import Sample, Summary, measure_runs, run_once


def _stamp(index: int) -> str:
    seconds = index % 60
    minutes = index // 60 % 60
    hours = index // 3600 % 24
    return f"2026-01-{1 + index // 86400 % 28:02d}T{hours:02d}:{minutes:02d}:{seconds:02d}.000Z"


def _entry(index: int, parent: str | None, message: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "message",
        "id": f"{index:08x}",
        "parentId": parent,
        "timestamp": _stamp(index),
        "message": {"timestamp": index, **message},
    }


def _turn(index: int) -> list[dict[str, Any]]:
    """Four messages: prompt, answer with a tool call, the result, the final answer."""
    tool = ("bash", "read", "edit")[index % 3]
    args = {
        "bash": {"command": f"ls -la src/module_{index}"},
        "read": {"path": f"/work/src/module_{index}.py"},
        "edit": {
            "path": f"/work/src/module_{index}.py",
            "edits": [{"oldText": "x = 1", "newText": f"x = {index}"}],
        },
    }[tool]
    result_text = {
        "bash": "\n".join(f"-rw-r--r-- 1 me me {i * 97} file_{index}_{i}.py" for i in range(12)),
        "read": "\n".join(f"def f_{index}_{i}(x):\n    return x * {i}" for i in range(15)),
        "edit": "Successfully replaced text",
    }[tool]
    details = {"diff": f"-x = 1\n+x = {index}\n context line"} if tool == "edit" else None
    usage = {
        "input": 1200,
        "output": 300,
        "cacheRead": 800,
        "cacheWrite": 0,
        "totalTokens": 2300,
        "cost": {
            "input": 0.001,
            "output": 0.002,
            "cacheRead": 0.0001,
            "cacheWrite": 0,
            "total": 0.0031,
        },
    }
    answer = {
        "role": "assistant",
        "api": "anthropic-messages",
        "provider": "anthropic",
        "model": "claude-sonnet-4-5",
        "usage": usage,
    }
    return [
        {
            "role": "user",
            "content": [{"type": "text", "text": f"Please fix `f_{index}` in module {index}."}],
        },
        {
            **answer,
            "stopReason": "toolUse",
            "content": [
                {
                    "type": "thinking",
                    "thinking": f"The bug in module {index} is probably an off-by-one.",
                },
                {"type": "text", "text": f"Let me check **module {index}** first."},
                {"type": "toolCall", "id": f"call_{index}", "name": tool, "arguments": args},
            ],
        },
        {
            "role": "toolResult",
            "toolCallId": f"call_{index}",
            "toolName": tool,
            "content": [{"type": "text", "text": result_text}],
            "details": details,
            "isError": False,
        },
        {
            **answer,
            "stopReason": "stop",
            "content": [
                {
                    "type": "text",
                    "text": f"Fixed module {index}:\n\n```python\ndef f_{index}(x):\n"
                    f"    return x + {index}\n```\n\n- the loop now stops at `n - 1`\n"
                    f"- a test covers it ({index} cases)",
                }
            ],
        },
    ]


def generate_session(path: Path, entries: int) -> Path:
    """Write a session of `entries` entries with a branch every 1,000 entries."""
    header = {
        "type": "session",
        "version": 3,
        "id": "bench-export",
        "timestamp": _stamp(0),
        "cwd": "/work",
    }
    lines = [json.dumps(header)]
    parent: str | None = None
    index = 0
    while index < entries:
        for message in _turn(index):
            if index >= entries:
                break
            if index and index % 1000 == 0 and parent is not None:
                parent = f"{index - 7:08x}"  # start a branch a few entries back
            entry = _entry(index, parent, message)
            lines.append(json.dumps(entry))
            parent = entry["id"]
            index += 1
    path.write_text("\n".join(lines) + "\n")
    return path


@dataclass
class ExportFigures:
    """One side's export: wall time and peak RSS (median of runs) and the page's size."""

    summary: Summary
    size_mb: float


def measure_export(
    folder: Path, entries: int, ours: str, pi: str | None, runs: int
) -> tuple[float, ExportFigures, ExportFigures | None]:
    """Generate the session in `folder`, export it with each side; (input MB, ours, pi)."""
    session = generate_session(folder / "bench-export.jsonl", entries)
    results: list[ExportFigures | None] = []
    for name, executable in (("ours", ours), ("pi", pi)):
        if executable is None:
            results.append(None)
            continue
        copy = folder / f"{name}.jsonl"
        output = folder / f"{name}.html"
        summary = measure_runs(
            [executable, "--export", str(copy), str(output)],
            runs,
            cwd=folder,
            before=lambda c=copy: shutil.copyfile(session, c),
        )
        results.append(ExportFigures(summary, output.stat().st_size / 1e6))
    ours_figures = results[0]
    assert ours_figures is not None
    return session.stat().st_size / 1e6, ours_figures, results[1]


def alternate_rounds(
    folder: Path, entries: int, sides: dict[str, str], rounds: int
) -> dict[str, list[Sample]]:
    """Export the generated session with every side once per round, alternating; timed rounds."""
    session = generate_session(folder / "bench-export.jsonl", entries)
    samples: dict[str, list[Sample]] = {name: [] for name in sides}
    for index in range(rounds + 1):  # the first round warms the caches
        for name, executable in sides.items():
            copy, output = folder / f"{name}.jsonl", folder / f"{name}.html"
            shutil.copyfile(session, copy)
            sample = run_once([executable, "--export", str(copy), str(output)], cwd=folder)
            if sample.returncode != 0:
                raise RuntimeError(f"{name}: {sample.stderr.decode(errors='replace')[-2000:]}")
            if index:
                samples[name].append(sample)
    return samples


def print_rounds(samples: dict[str, list[Sample]], entries: int, rounds: int) -> None:
    """The table of an alternating run: median CPU and wall, peak RSS, and ratios to pi."""
    print(f"session: {entries:,} entries; {rounds} rounds, sides alternating, medians\n")
    pi_cpu = statistics.median(s.cpu for s in samples["pi"]) if "pi" in samples else None
    pi_peak = max(s.peak_mib for s in samples["pi"]) if "pi" in samples else None
    print("| side | CPU user+sys (s) | wall (s) | peak RSS (MiB) | pi's CPU ÷ CPU | RSS ÷ pi's |")
    print("|---|---|---|---|---|---|")
    for name, runs in samples.items():
        cpu = statistics.median(s.cpu for s in runs)
        wall = statistics.median(s.wall for s in runs)
        peak = max(s.peak_mib for s in runs)
        speed = f"{pi_cpu / cpu:.2f}x" if pi_cpu else "—"
        memory = f"{peak / pi_peak:.2f}" if pi_peak else "—"
        all_cpu = ", ".join(f"{s.cpu:.2f}" for s in runs)
        print(f"| {name} ({all_cpu}) | {cpu:.2f} | {wall:.2f} | {peak:.0f} | {speed} | {memory} |")


def main() -> int:
    """Print one comparison table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pi", help="pi 0.73.1's executable")
    parser.add_argument("--ours", default=shutil.which("pi") or "pi", help="our pi executable")
    parser.add_argument("--entries", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rounds", type=int, help="alternate the sides, this many rounds")
    parser.add_argument("--base", help="another `pi` to compare (e.g. the branch point's)")
    args = parser.parse_args()
    if args.rounds:
        sides = {"ours": args.ours}
        sides.update({"base": args.base} if args.base else {})
        sides.update({"pi": args.pi} if args.pi else {})
        with tempfile.TemporaryDirectory(prefix="pi-export-bench-") as temp:
            samples = alternate_rounds(Path(temp), args.entries, sides, args.rounds)
        print_rounds(samples, args.entries, args.rounds)
        return 0
    with tempfile.TemporaryDirectory(prefix="pi-export-bench-") as temp:
        size, ours, theirs = measure_export(Path(temp), args.entries, args.ours, args.pi, args.runs)
    print(f"session: {args.entries:,} entries, {size:.1f} MB; median of {args.runs} runs\n")
    print("| side | wall (s) | peak RSS (MiB) | page (MB) |\n|---|---|---|---|")
    for name, figures in (("ours", ours), ("pi 0.73.1", theirs)):
        if figures is None:
            print(f"| {name} | — | — | — |")
            continue
        summary = figures.summary
        print(f"| {name} | {summary.median:.2f} | {summary.peak_mib:.0f} | {figures.size_mb:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
