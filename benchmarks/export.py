"""HTML export of a large session: ours (`pi --export`) against pi 0.73.1's, time, memory, size.

    python benchmarks/export.py [--pi PATH] [--entries 100000] [--runs 3]

A session of `--entries` entries is generated (user prompts, assistant answers with markdown and
code, bash / read / edit calls and their results, a branch every 1,000 entries); both commands
export the same copy. --pi is an installed pi executable (e.g.
/tmp/piref/node_modules/.bin/pi); without it only our side is measured.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.measure import Summary, measure_runs


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


def main() -> int:
    """Print one comparison table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pi", help="pi 0.73.1's executable")
    parser.add_argument("--ours", default=shutil.which("pi") or "pi", help="our pi executable")
    parser.add_argument("--entries", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
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
