"""Measure our pi and pi 0.73.1 side by side and print one table (DESIGN.md §8 budgets).

    python benchmarks/run.py [--pi PATH | --install-pi] [--quick] [--only a,b] [--json out.json]
                             [--markdown] [--no-floor]

--pi uses an installed pi executable; --install-pi installs pi 0.73.1 with npm into a temporary
folder; with neither, only our side is measured and pi's column shows "—". Both sides run against
the same loopback fake LLM server, each with its own temporary HOME and agent dir. --quick runs
fewer repetitions on smaller inputs (a smoke test, not a measurement). Metric groups for --only:
version, help, print, rpc, session-prompt, history, stream, hooks, sessions, tools, export, repl,
batch. The floor (harness/floor/: only the work a figure cannot avoid) runs the print, stream,
RPC, session-prompt, export and REPL scenarios and opens the sessions too, in its own column;
--no-floor leaves it out. --markdown prints issue 34's table (figure, target, pi, floor, ours,
the ratios, met) after the full one.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import sys
import sysconfig
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from harness import agent_runs, batch_hook, floor_side
from harness.machine import describe
from harness.measure import measure_runs
from harness.pi import install_pi, our_pi, package_dir, version_of
from harness.scenarios import TimedFakeServer
from harness.session_prompt import rpc_session_prompt
from harness.table import LEGEND, Row, render
from harness.targets import markdown

GROUPS = ("version", "help", "print", "rpc", "session-prompt", "history", "stream", "hooks",
          "sessions", "tools", "export", "repl", "batch")  # fmt: skip


@dataclass
class Settings:
    """Repetitions and sizes for one run."""

    startup_runs: int = 10
    print_runs: int = 5
    rpc_runs: int = 5
    stream_runs: int = 3
    stream_bytes: int = 1_000_000
    rpc_stream_bytes: int = 10_000
    session_entries: int = 100_000
    session_runs: int = 5
    dispatch_events: int = 20_000
    tool_runs: int = 7
    session_prompts: int = 150
    export_entries: int = 100_000
    export_runs: int = 1
    session_prompt_runs: int = 5
    repl_runs: int = 5


QUICK = Settings(
    startup_runs=2,
    print_runs=1,
    rpc_runs=1,
    stream_runs=1,
    stream_bytes=100_000,
    session_entries=2_000,
    session_runs=1,
    dispatch_events=1_000,
    tool_runs=1,
    session_prompts=10,
    export_entries=2_000,
    session_prompt_runs=1,
    repl_runs=1,
)


class Run:
    """One harness run: the sides, the fake server, the rows and notes collected so far."""

    def __init__(
        self,
        settings: Settings,
        ours: str,
        pi: str | None,
        root: Path,
        as_is: bool = False,
        floor: bool = True,
    ) -> None:
        """Start the fake server and make a workspace per side (the floor's too, if asked)."""
        self.settings = settings
        self.server = TimedFakeServer()
        self.server.start()
        cache = None if as_is else root / "pycache"
        self.ours = agent_runs.make_side("ours", ours, root, self.server, cache)
        self.pi = agent_runs.make_side("pi", pi, root, self.server) if pi else None
        self.pi_package = package_dir(pi) if pi else None
        self.floor_agent: agent_runs.Side | None = None
        if floor:
            launcher = floor_side.write_launcher(root / "floor-bin")
            self.floor_agent = agent_runs.make_side("floor", launcher, root, self.server, cache)
        self.root = root
        self.rows: list[Row] = []
        self.notes: list[str] = []
        self.failed = False

    def both(
        self, label: str, measure: Callable[[agent_runs.Side], object]
    ) -> tuple[object, object]:
        """Measure our side, then pi's (if any); a failure becomes a note and a missing value."""
        ours, theirs, _ = self.sides(label, measure, with_floor=False)
        return ours, theirs

    def three(
        self, label: str, measure: Callable[[agent_runs.Side], object]
    ) -> tuple[object, object, object]:
        """Measure ours, pi's (if any) and the floor (if on): (ours, pi, floor)."""
        return self.sides(label, measure, with_floor=True)

    def sides(
        self, label: str, measure: Callable[[agent_runs.Side], object], with_floor: bool
    ) -> tuple[object, object, object]:
        """Measure each side in turn; a failure becomes a note and a missing value."""
        results: list[object] = []
        for side in (self.ours, self.pi, self.floor_agent if with_floor else None):
            if side is None:
                results.append(None)
                continue
            progress(f"{label}: {side.name}")
            try:
                results.append(measure(side))
            except Exception as error:
                self.failed = True
                self.notes.append(f"{label}, {side.name}: FAILED — {error}")
                traceback.print_exc(file=sys.stderr)
                results.append(None)
        return results[0], results[1], results[2]

    def startup(self, flag: str) -> None:
        """`pi --version` / `pi --help`: wall time and peak RSS."""
        runs = self.settings.startup_runs
        ours, theirs = self.both(f"pi {flag}", lambda s: agent_runs.startup(s, flag, runs))
        budget = flag == "--version"
        if budget:
            self.floor()
        self.rows += [
            Row(
                f"`pi {flag}` wall (median of {runs})",
                "s",
                attr(ours, "median"),
                attr(theirs, "median"),
                budget=0.25 if budget else None,
                key=flag[2:],
            ),
            Row(
                f"`pi {flag}` peak RSS",
                "MiB",
                attr(ours, "peak_mib"),
                attr(theirs, "peak_mib"),
                budget=40 if budget else None,
                key=flag[2:],
            ),
        ]

    def floor(self) -> None:
        """The interpreters alone: `python -c pass` and `node -e 0` (the start-up floor)."""
        runs = self.settings.startup_runs
        commands = {"ours": [sys.executable, "-c", "pass"], "pi": ["node", "-e", "0"]}
        ours, theirs = self.both(
            "interpreter floor",
            lambda s: measure_runs(commands[s.name], runs, env=s.workspace.env),
        )
        label = "interpreter alone: `python -c pass` / `node -e 0`"
        self.rows += [
            Row(
                f"{label} (median of {runs})",
                "s",
                attr(ours, "median"),
                attr(theirs, "median"),
                key="version",
            ),
            Row(
                f"{label}, peak RSS",
                "MiB",
                attr(ours, "peak_mib"),
                attr(theirs, "peak_mib"),
                key="version",
            ),
        ]

    def print_mode(self) -> None:
        """`pi -p`: two turns with one read tool call."""
        runs = self.settings.print_runs
        ours, theirs, floor = self.three(
            "pi -p", lambda s: agent_runs.print_two_turns(s, self.server, runs)
        )
        self.rows += [
            Row(
                f"`pi -p` 2 turns, 1 `read` call: wall (median of {runs})",
                "s",
                attr(ours, "median"),
                attr(theirs, "median"),
                budget=0.5,
                key="print",
                floor=attr(floor, "median"),
                target="print",
            ),
            Row(
                "`pi -p` 2 turns, 1 `read` call: peak RSS",
                "MiB",
                attr(ours, "peak_mib"),
                attr(theirs, "peak_mib"),
                budget=70,
                key="print",
                floor=attr(floor, "peak_mib"),
                target="memory",
            ),
        ]

    def rpc(self) -> None:
        """RPC: 20-turn tool conversation and a small streamed reply, start-up excluded."""
        runs, size = self.settings.rpc_runs, self.settings.rpc_stream_bytes
        ours, theirs, floor = self.three(
            "rpc",
            lambda s: agent_runs.rpc_conversations(s, self.server, runs, stream_bytes=size),
        )
        self.rows += [
            Row(
                f"RPC 20 turns (19 `ls`/`read` calls): prompt → agent_end (median of {runs})",
                "s",
                attr(ours, "turns_s"),
                attr(theirs, "turns_s"),
                key="rpc",
                floor=attr(floor, "turns_s"),
                target="rpc-tools",
            ),
            Row(
                f"RPC {size // 1000} KB reply in 10-byte deltas: prompt → agent_end",
                "s",
                attr(ours, "stream_s"),
                attr(theirs, "stream_s"),
                key="rpc",
                floor=attr(floor, "stream_s"),
            ),
            Row(
                "RPC process peak RSS after those runs",
                "MiB",
                attr(ours, "peak_mib"),
                attr(theirs, "peak_mib"),
                key="rpc",
                floor=attr(floor, "peak_mib"),
                target="memory",
            ),
        ]

    def session_prompt(self) -> None:
        """RPC: switch to a copy of the 1 MB session, one prompt, its answer."""
        runs = self.settings.session_prompt_runs
        ours, theirs, floor = self.three(
            "rpc session prompt", lambda s: rpc_session_prompt(s, self.server, runs)
        )
        self.rows += [
            Row(f"RPC one prompt on a 1 MB session: switch_session → agent_end (median of {runs})",
                "s", attr(ours, "seconds"), attr(theirs, "seconds"), key="session-prompt",
                floor=attr(floor, "seconds"), target="rpc-session"),
            Row("RPC one prompt on a 1 MB session: peak RSS", "MiB", attr(ours, "peak_mib"),
                attr(theirs, "peak_mib"), key="session-prompt", floor=attr(floor, "peak_mib"),
                target="memory"),
        ]  # fmt: skip

    def repl(self) -> None:
        """The REPL in tmux: launch → the footer shows the model (benchmarks/repl.py's launch)."""
        if shutil.which("tmux") is None:
            self.notes.append("repl: tmux is not installed; not measured")
            return
        import repl

        runs = self.settings.repl_runs

        def measure(side: agent_runs.Side) -> floor_side.LaunchFigures:
            """Warm up once, then the medians of `runs` launches."""
            (side.workspace.agent / "settings.json").write_text(
                '{"defaultProvider": "fake", "defaultModel": "fake-model"}'
            )
            return floor_side.launches(repl.launch, [side.executable], side.workspace, runs)

        ours, theirs, floor = self.three("repl launch", measure)
        self.rows += [
            Row(f"REPL launch → footer shows the model (median of {runs})", "s",
                attr(ours, "loaded"), attr(theirs, "loaded"), key="repl",
                floor=attr(floor, "loaded"), target="repl"),
            Row(f"REPL launch → a typed key shows (median of {runs})", "s",
                attr(ours, "usable"), attr(theirs, "usable"), key="repl",
                floor=attr(floor, "usable")),
        ]  # fmt: skip

    def batch(self) -> None:
        """`pi batch` against a loop of pi's `pi -p`: benchmarks/batch.py's figures, if present."""
        pi = self.pi.executable if self.pi else None
        quick = self.settings is QUICK
        figures, note = batch_hook.run_batch(pi, quick)
        if note:
            self.notes.append(note)
        if figures is None:
            return
        self.rows += [
            Row("`pi batch` tasks per minute per core (pi: a loop of `pi -p`)", "tasks/min/core",
                figures.ours, figures.pi, higher_better=True, key="batch",
                floor=figures.floor, target="batch"),
        ]  # fmt: skip

    def history(self) -> None:
        """RPC: one session, many prompts; total time and a request's cost early vs late."""
        prompts = self.settings.session_prompts
        ours, theirs = self.both(
            "history", lambda s: agent_runs.long_session(s, self.server, prompts)
        )
        late = attr(ours, "late_messages") or attr(theirs, "late_messages")
        early = attr(ours, "early_messages") or attr(theirs, "early_messages")
        label = f"{prompts}-prompt session (3 tool calls each, {late:.0f} messages)"
        self.rows += [
            Row(f"RPC {label}: total wall", "s", attr(ours, "total_s"), attr(theirs, "total_s"),
                key="history"),
            Row(f"RPC {label}: CPU, whole process", "s", attr(ours, "cpu_s"), attr(theirs, "cpu_s"),
                key="history"),
            Row(f"RPC per-request cost, first 3 prompts (≤ {early:.0f} messages; median)", "ms",
                attr(ours, "early_request_ms"), attr(theirs, "early_request_ms"), key="history"),
            Row(f"RPC per-request cost, last 3 prompts (~{late:.0f} messages; median)", "ms",
                attr(ours, "late_request_ms"), attr(theirs, "late_request_ms"), key="history"),
            Row(f"RPC {label}: peak RSS", "MiB", attr(ours, "peak_mib"), attr(theirs, "peak_mib"),
                key="history"),
        ]  # fmt: skip

    def stream(self) -> None:
        """Print mode, one long reply in 10-byte deltas: first byte → answer printed."""
        runs, size = self.settings.stream_runs, self.settings.stream_bytes
        ours, theirs, floor = self.three(
            "stream", lambda s: agent_runs.print_stream(s, self.server, runs, size)
        )
        megabytes = size / 1e6
        label = f"{megabytes:g} MB reply in 10-byte deltas"

        def rate(figures: object) -> float | None:
            """MB/s of a StreamFigures, or None."""
            seconds = attr(figures, "seconds")
            return megabytes / seconds if seconds else None

        self.rows += [
            Row(
                f"{label}: first byte → printed (median of {runs})",
                "s",
                attr(ours, "seconds"),
                attr(theirs, "seconds"),
                key="stream",
                floor=attr(floor, "seconds"),
            ),
            Row(
                f"{label}: throughput",
                "MB/s",
                rate(ours),
                rate(theirs),
                higher_better=True,
                key="stream",
                floor=rate(floor),
            ),
            Row(
                f"{label}: peak RSS",
                "MiB",
                attr(ours, "peak_mib"),
                attr(theirs, "peak_mib"),
                key="stream",
                floor=attr(floor, "peak_mib"),
                target="memory",
            ),
        ]

    def hooks(self) -> None:
        """Hook dispatch per impl per event (ours only: pi has no such figure)."""
        import dispatch

        progress("hooks: ours")
        events = self.settings.dispatch_events
        baseline = asyncio.run(dispatch.baseline_us(events))
        self.rows.append(
            Row("hook dispatch, fixed cost per event (no impls)", "µs", baseline, key="hooks")
        )
        for result in asyncio.run(dispatch.measure_dispatch(events)):
            kind = "async" if result.asynchronous else "sync"
            for event, value in (("notify", result.notify_us), ("tool_call", result.tool_call_us)):
                self.rows.append(
                    Row(
                        f"hook dispatch per impl: {event}, {result.plugins} {kind} plugins",
                        "µs",
                        value,
                        budget=None if result.asynchronous else 5.0,
                        key="hooks",
                    )
                )

    def sessions(self) -> None:
        """Open + build context for the shared sessions and a generated one; append latency."""
        import sessions

        progress("sessions: ours" + (" and pi" if self.pi_package else ""))
        folder = self.root / "sessions"
        folder.mkdir()
        settings = self.settings
        results = sessions.measure_sessions(
            folder, settings.session_entries, self.pi_package, settings.session_runs
        )
        big = results[-1]
        floor = None
        if self.floor_agent is not None:
            progress("sessions: floor")
            generated = next((folder / "big").rglob("*.jsonl"))
            floor = floor_side.open_context_ms(generated, settings.session_runs)
        for result in results:
            one_mb = result.name == "large-session.jsonl"
            self.rows.append(
                Row(
                    f"session open + build context: {result.name} ({size(result.size_mb)})",
                    "ms",
                    result.ours_open_ms,
                    result.pi_open_ms,
                    beat_pi=one_mb,
                    key="sessions",
                    floor=floor if result is big else None,
                    target="open" if result is big else "",
                )
            )
        for result in (results[-2], results[-1]):
            self.rows.append(
                Row(
                    f"session append (median of 2000): {result.name}",
                    "µs",
                    result.ours_append_us,
                    result.pi_append_us,
                    key="sessions",
                )
            )

    def export(self) -> None:
        """`pi --export` of a generated session: wall, peak RSS and the page's size."""
        import export

        entries, runs = self.settings.export_entries, self.settings.export_runs
        progress("export: ours" + (" and pi" if self.pi else ""))
        folder = self.root / "export"
        folder.mkdir()
        pi = self.pi.executable if self.pi else None
        ours_pi = self.ours.executable
        size_mb, ours, theirs = export.measure_export(folder, entries, ours_pi, pi, runs)
        floor = None
        if self.floor_agent is not None:
            progress("export: floor")
            floor = floor_side.export(self.floor_agent.executable, folder, runs)
        label = f"`pi --export` of a {entries:,}-entry session ({size(size_mb)})"
        self.rows += [
            Row(f"{label}: wall (median of {runs})", "s", ours.summary.median,
                theirs.summary.median if theirs else None, key="export",
                floor=floor.summary.median if floor else None, target="export"),
            Row(f"{label}: peak RSS", "MiB", ours.summary.peak_mib,
                theirs.summary.peak_mib if theirs else None, key="export",
                floor=floor.summary.peak_mib if floor else None, target="memory"),
            Row(f"{label}: page size", "MB", ours.size_mb, theirs.size_mb if theirs else None,
                key="export", floor=floor.size_mb if floor else None),
        ]  # fmt: skip

    def tools(self) -> None:
        """grep and find over the standard library tree, one call each, in-process."""
        import tools

        root = str(Path(sysconfig.get_paths()["stdlib"]).resolve())
        progress("tools: ours" + (" and pi" if self.pi_package else ""))
        runs = self.settings.tool_runs
        package = str(self.pi_package) if self.pi_package else None
        results, note = tools.measure_tools(root, runs, package)
        self.notes.append(f"grep/find tree: {root} ({tools.tree_files(root):,} files)")
        if note:
            self.notes.append(f"grep/find, pi side: {note}")
        for result in results:
            self.rows.append(
                Row(
                    f"{result.label} (median of {runs})",
                    "ms",
                    result.ours_ms,
                    result.pi_ms,
                    key="tools",
                )
            )
            if result.pi_lines is not None and result.pi_lines != result.ours_lines:
                self.notes.append(
                    f"{result.label}: ours printed {result.ours_lines} lines, pi {result.pi_lines}"
                )
            for side, error in (("ours", result.ours_error), ("pi", result.pi_error)):
                if error:
                    self.notes.append(f"{result.label}, {side}: error — {error}")

    def close(self) -> None:
        """Stop the fake server."""
        self.server.stop()


def size(megabytes: float) -> str:
    """A file size in MB, or KB when small."""
    return f"{megabytes:.1f} MB" if megabytes >= 0.1 else f"{megabytes * 1000:.0f} KB"


def attr(value: object, name: str) -> float | None:
    """`value.name`, or None when the measurement failed or was not made."""
    return None if value is None else float(getattr(value, name))


def progress(message: str) -> None:
    """A progress line on stderr."""
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--pi", help="an installed pi 0.73.1 executable to measure alongside ours")
    which.add_argument(
        "--install-pi", action="store_true", help="npm install pi 0.73.1 to a temp dir"
    )
    parser.add_argument("--ours", default=None, help="our pi executable (default: next to python)")
    parser.add_argument(
        "--as-is",
        action="store_true",
        help="keep the environment's bytecode settings for our side (default: a bytecode cache "
        "in the run's temp dir, even if PYTHONDONTWRITEBYTECODE is set)",
    )
    parser.add_argument("--quick", action="store_true", help="few repetitions, small inputs")
    parser.add_argument("--only", default=",".join(GROUPS), help="comma-separated metric groups")
    parser.add_argument("--json", type=Path, help="also write the results as JSON here")
    parser.add_argument(
        "--markdown", action="store_true", help="also print issue 34's table, ready to paste"
    )
    parser.add_argument("--no-floor", action="store_true", help="do not measure the floor")
    args = parser.parse_args(argv)
    args.groups = [g.strip() for g in args.only.split(",") if g.strip()]
    unknown = set(args.groups) - set(GROUPS)
    if unknown:
        parser.error(f"unknown groups {sorted(unknown)}; choose from {', '.join(GROUPS)}")
    return args


def main(argv: list[str] | None = None) -> int:
    """Run the requested groups, print the table, optionally write JSON; 1 if anything failed."""
    args = parse_args(argv)
    settings = QUICK if args.quick else Settings()
    installed: Path | None = None
    pi = args.pi
    if args.install_pi:
        pi, installed = install_pi()
    ours = args.ours or our_pi()
    machine = describe(version_of(pi) if pi else None)
    with tempfile.TemporaryDirectory(prefix="pi-bench-") as temp:
        run = Run(settings, ours, pi, Path(temp), args.as_is, floor=not args.no_floor)
        if not args.as_is and os.environ.get("PYTHONDONTWRITEBYTECODE"):
            run.notes.append(
                "PYTHONDONTWRITEBYTECODE is set here; our side ran with a bytecode cache in the "
                "run's temp dir (as an installed pi would), warmed by the first run of each "
                "measurement. --as-is measures without it."
            )
        steps: dict[str, Callable[[], None]] = {
            "version": lambda: run.startup("--version"),
            "help": lambda: run.startup("--help"),
            "print": run.print_mode,
            "rpc": run.rpc,
            "session-prompt": run.session_prompt,
            "history": run.history,
            "stream": run.stream,
            "hooks": run.hooks,
            "sessions": run.sessions,
            "tools": run.tools,
            "export": run.export,
            "repl": run.repl,
            "batch": run.batch,
        }
        try:
            for group in GROUPS:
                if group in args.groups:
                    try:
                        steps[group]()
                    except Exception as error:
                        run.failed = True
                        run.notes.append(f"{group}: FAILED — {error}")
                        traceback.print_exc(file=sys.stderr)
        finally:
            run.close()
    if installed is not None:
        shutil.rmtree(installed, ignore_errors=True)
    print(f"our pi: {ours}\npi 0.73.1: {pi or 'not measured (use --pi PATH or --install-pi)'}")
    print("; ".join(f"{key}: {value}" for key, value in machine.items()))
    print(f"settings: {'quick' if args.quick else 'full'} — {settings}\n")
    print(render(run.rows))
    print(f"\n{LEGEND}")
    for note in run.notes:
        print(f"- {note}")
    if args.markdown:
        print(f"\n{markdown(run.rows)}")
    if args.json:
        payload = {
            "machine": machine,
            "quick": args.quick,
            "ours": ours,
            "pi": pi,
            "rows": [row.as_dict() for row in run.rows],
            "notes": run.notes,
        }
        args.json.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
    return 1 if run.failed else 0


if __name__ == "__main__":
    sys.exit(main())
