"""Which heavy modules each start-up path imports, and when: before or after the first request.

    python benchmarks/imports.py [--python PYTHON]

Runs `python -X importtime -m pi_core --version`, the same for `--help`, and `pi -p` (a two-turn
conversation with one `read` call) against the loopback fake LLM server. For `pi -p` an audit hook
writes a marker into the importtime stream at the first connection to the fake server, so every
import is known to come before or after the first request; for the watched modules it also notes
which of our functions triggered the import. Exit code 1 if httpx, openai, anthropic, rich or
prompt_toolkit is imported by `--version`, `--help`, or by `-p` before its first request.
"""

from __future__ import annotations

import argparse
import itertools
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from harness.scenarios import MODEL, make_workspace, print_answers, with_bytecode_cache

from pi_core.testing import FakeLLMServer

# Never imported before the first request (DESIGN.md §8: providers import their HTTP client
# lazily; the vendors' SDKs are not used at all and must never come back on this path).
FORBIDDEN = ("httpx", "openai", "anthropic", "rich", "prompt_toolkit")
# Worth watching: what the HTTP client brings with it, and our own big dependencies.
WATCHED = (
    *FORBIDDEN,
    "httpx2",
    "httpcore",
    "anyio",
    "h11",
    "ssl",
    "certifi",
    "pydantic",
    "pydantic_core",
    "click",
    "pluggy",
    "asyncio",
    "jiter",
    "distro",
    "pi_core",
    "pi_plugin_openai",
    "pi_plugin_anthropic",
    "pi_plugin_tools",
)

MAIN = "@@main"
MARK = "@@first-request"
STREAM = "@@stream-start"
TRIGGER = "@@import-trigger"
# The agent loop's function that asks the provider for a response: an import made under it
# belongs to the first request, not to start-up.
STREAM_FUNCTION = "stream_assistant_response"

# Run as `python [-X importtime] -c BOOTSTRAP <pi arguments>`: stamp (time.monotonic) the start of
# our code, the first import under STREAM_FUNCTION and the first connection to the fake server,
# note who imports a watched package first, then run our `pi` entry point.
BOOTSTRAP = r"""
import os, sys, time
os.write(2, f"@@main {time.monotonic()}\n".encode())
PORT, WATCHED = int(os.environ["BENCH_PORT"]), set(os.environ["BENCH_WATCHED"].split(","))
MARK, STREAM, TRIGGER = "@@first-request", "@@stream-start", "@@import-trigger"
FUNCTION = os.environ["BENCH_FUNCTION"]
state = {"connected": False, "streaming": False}
def ours(frame):
    name = frame.f_code.co_filename
    return ("pi_core" in name or "pi_plugin" in name) and "importlib" not in name
def hook(event, args):
    if event == "socket.connect" and not state["connected"]:
        address = args[1]
        if isinstance(address, tuple) and len(address) >= 2 and address[1] == PORT:
            state["connected"] = True
            os.write(2, f"{MARK} {time.monotonic()}\n".encode())
    elif event == "import" and args[0] not in sys.modules:
        frame = sys._getframe(1)
        if not state["streaming"]:
            probe = frame
            while probe is not None and probe.f_code.co_name != FUNCTION:
                probe = probe.f_back
            if probe is not None:
                state["streaming"] = True
                os.write(2, f"{STREAM} {time.monotonic()}\n".encode())
        if args[0] in WATCHED:
            where = []
            while frame is not None and len(where) < 3:
                if ours(frame):
                    path = frame.f_code.co_filename.split("/site-packages/")[-1]
                    path = path.split("/src/")[-1].split("/main/")[-1]
                    where.append(f"{path}:{frame.f_lineno} {frame.f_code.co_name}")
                frame = frame.f_back
            chain = " <- ".join(where) or "interpreter start-up"
            os.write(2, f"{TRIGGER} {args[0]} <- {chain}\n".encode())
sys.addaudithook(hook)
sys.argv = ["pi", *sys.argv[1:]]
from pi_core.cli import main
sys.exit(main())
"""

LINE = re.compile(r"^import time:\s+(\d+) \|\s+(\d+) \| (\s*)(\S+)$")


@dataclass
class Stage:
    """Imports seen in one stretch of a run: module → its own (self) import time in µs."""

    name: str
    modules: dict[str, int] = field(default_factory=dict)

    def packages(self) -> dict[str, int]:
        """Watched top-level packages with modules imported here, and their summed self µs."""
        found: dict[str, int] = {}
        for module, self_us in self.modules.items():
            top = module.split(".")[0]
            if top in WATCHED:
                found[top] = found.get(top, 0) + self_us
        return found

    def total_us(self) -> int:
        """Summed self time of every import in the stage."""
        return sum(self.modules.values())


def parse(stderr: str, names: tuple[str, ...]) -> tuple[list[Stage], list[str]]:
    """Split importtime output at the stream-start and first-request markers; also triggers."""
    stages = [Stage(name) for name in names]
    index, triggers = 0, []
    for line in stderr.splitlines():
        if line.startswith(STREAM) and len(stages) > 1:
            index = 1
        elif line.startswith(MARK) and len(stages) > 2:
            index = 2
        elif line.startswith(TRIGGER):
            triggers.append(f"{line[len(TRIGGER) + 1 :]}  [{stages[index].name}]")
        elif match := LINE.match(line):
            stages[index].modules[match.group(4)] = int(match.group(1))
    return stages, triggers


def importtime(
    python: str, args: list[str], env: dict[str, str] | None = None, cwd: Path | None = None
) -> str:
    """Run `python -X importtime <args>` and return its stderr."""
    completed = subprocess.run(
        [python, "-X", "importtime", *args], capture_output=True, text=True, env=env, cwd=cwd
    )
    if completed.returncode != 0:
        raise SystemExit(f"{args} failed:\n{completed.stderr[-3000:]}")
    return completed.stderr


PRINT_ARGS = ["-p", "Read notes.txt and summarize it", "--model", MODEL]


def bootstrap_env(env: dict[str, str], port: str, cache: Path | None) -> dict[str, str]:
    """The environment BOOTSTRAP reads its settings from (bytecode cached in `cache` if set)."""
    if cache is not None:
        env = with_bytecode_cache(env, cache)
    return dict(
        env, BENCH_PORT=port, BENCH_WATCHED=",".join(WATCHED), BENCH_FUNCTION=STREAM_FUNCTION
    )


def timeline(python: str, temp: Path, runs: int, cache: Path | None) -> dict[str, float]:
    """Median ms of each part of `pi -p` (no importtime): the wall time split at the markers."""
    parts: dict[str, list[float]] = {name: [] for name in TIMELINE}
    for index in range(runs + 1):
        with FakeLLMServer() as server:
            workspace = make_workspace(temp / f"timeline{index}", server.base_url)
            server.queue(*print_answers())
            env = bootstrap_env(workspace.env, server.base_url.rsplit(":", 1)[1], cache)
            start = time.monotonic()
            completed = subprocess.run(
                [python, "-c", BOOTSTRAP, *PRINT_ARGS],
                capture_output=True,
                text=True,
                env=env,
                cwd=workspace.project,
            )
            end = time.monotonic()
        if completed.returncode != 0 or len(server.requests) != 2:
            raise SystemExit(f"pi -p failed:\n{completed.stderr[-3000:]}")
        stamps = {}
        for line in completed.stderr.splitlines():
            for marker in (MAIN, STREAM, MARK):
                if line.startswith(marker + " ") and marker not in stamps:
                    stamps[marker] = float(line.split()[1])
        if len(stamps) < 3:
            raise SystemExit(f"pi -p: markers missing ({sorted(stamps)})")
        points = [start, stamps[MAIN], stamps[STREAM], stamps[MARK], end]
        if index:  # the first run warms the caches
            for name, (begin, finish) in zip(TIMELINE, itertools.pairwise(points), strict=True):
                parts[name].append((finish - begin) * 1000)
    return {name: statistics.median(values) for name, values in parts.items()}


TIMELINE = (
    "spawn → our code runs (interpreter and site start-up)",
    "our code → the agent loop streams (imports, plugins, session, prompt)",
    "streaming starts → first request (HTTP client import, client)",
    "first request → exit (2 turns, the read tool, session writes, shutdown)",
)

PRINT_STAGES = (
    "pi -p, start-up (until the agent loop asks the provider for the first response)",
    "pi -p, first response being prepared (provider streaming starts, before the request)",
    "pi -p, after the first request",
)


def print_path(python: str, temp: Path, cache: Path | None) -> tuple[list[Stage], list[str], bool]:
    """`pi -p` two turns with one read call, in three stages; False if a marker was missing."""
    with FakeLLMServer() as server:
        workspace = make_workspace(temp, server.base_url)
        server.queue(*print_answers())
        port = server.base_url.rsplit(":", 1)[1]
        env = bootstrap_env(workspace.env, port, cache)
        stderr = importtime(python, ["-c", BOOTSTRAP, *PRINT_ARGS], env, workspace.project)
        if len(server.requests) != 2:
            raise SystemExit(f"pi -p made {len(server.requests)} requests, expected 2")
    stages, triggers = parse(stderr, PRINT_STAGES)
    return stages, triggers, STREAM in stderr and MARK in stderr


def slowest(stage: Stage, count: int) -> str:
    """The `count` modules with the largest self import time in the stage."""
    ranked = sorted(stage.modules.items(), key=lambda item: -item[1])[:count]
    return ", ".join(f"{name} {us / 1000:.1f} ms" for name, us in ranked)


def describe(stage: Stage) -> tuple[str, list[str]]:
    """A summary line for a stage and the forbidden packages it imports."""
    packages = stage.packages()
    listed = ", ".join(
        f"{name} {us / 1000:.1f} ms"
        for name, us in sorted(packages.items(), key=lambda item: -item[1])
    )
    forbidden = [name for name in FORBIDDEN if name in packages]
    summary = (
        f"{stage.name}: {len(stage.modules)} modules, {stage.total_us() / 1000:.0f} ms "
        f"of imports; watched (own modules' time): {listed or 'none'}"
    )
    return summary, forbidden


def main() -> int:
    """Print, stage by stage, the modules imported and whether a forbidden one is among them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--top", type=int, default=6, help="slowest modules to list per stage")
    parser.add_argument("--runs", type=int, default=5, help="`pi -p` runs for the timeline")
    parser.add_argument(
        "--as-is",
        action="store_true",
        help="keep the environment's bytecode settings (default: a bytecode cache in a temp dir)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        temp = Path(folder)
        cache = None if args.as_is else temp / "pycache"
        # The timeline runs first: its warm-up run fills the bytecode cache.
        parts = timeline(args.python, temp, args.runs, cache) if args.runs else {}
        env = make_workspace(temp / "plain", "http://127.0.0.1:9").env
        if cache is not None:
            env = with_bytecode_cache(env, cache)
        version = parse(
            importtime(args.python, ["-m", "pi_core", "--version"], env),
            ("python -X importtime -m pi_core --version",),
        )[0][0]
        helps = parse(
            importtime(args.python, ["-m", "pi_core", "--help"], env),
            ("python -X importtime -m pi_core --help",),
        )[0][0]
        (startup, streaming, after), triggers, marked = print_path(
            args.python, temp / "print", cache
        )
    bad = False
    for stage in (version, helps, startup, streaming, after):
        summary, forbidden = describe(stage)
        print(summary)
        if args.top and stage.modules:
            print(f"  slowest: {slowest(stage, args.top)}")
        if stage in (version, helps, startup):
            verdict = f"IMPORTED: {', '.join(forbidden)}" if forbidden else "none imported"
            print(f"  {' / '.join(FORBIDDEN)}: {verdict}")
            bad = bad or bool(forbidden)
    if not marked:
        print("warning: a stage marker was not seen; the stages above may be merged")
    print("first import of each watched package in `pi -p` (our innermost frames first):")
    for trigger in triggers:
        print(f"  {trigger}")
    if args.runs:
        print(f"where `pi -p` spends its wall time (median of {args.runs}, no importtime):")
        for name, ms in parts.items():
            print(f"  {ms:7.0f} ms  {name}")
        print(f"  {sum(parts.values()):7.0f} ms  total")
    print("result:", "a forbidden module is imported too early" if bad else "lazy as required")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
