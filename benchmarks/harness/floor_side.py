"""The floor as a side of the harness: a launcher for the floor package, run like our `pi`."""

from __future__ import annotations

import shutil
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.floor.session import open_context
from harness.measure import Summary, measure_runs

PACKAGE = Path(__file__).resolve().with_name("floor")

# Like the `pi` console script: a file run by this interpreter that imports the program (so its
# bytecode is cached like ours), without putting the harness's folder on sys.path.
LAUNCHER = """#!{python}
import sys
from importlib.util import module_from_spec, spec_from_file_location

spec = spec_from_file_location(
    "pi_floor", {init!r}, submodule_search_locations=[{package!r}]
)
module = sys.modules["pi_floor"] = module_from_spec(spec)
spec.loader.exec_module(module)
sys.exit(module.main())
"""


def write_launcher(folder: Path) -> str:
    """An executable `pi-floor` in `folder` that runs the floor program; its path."""
    folder.mkdir(parents=True, exist_ok=True)
    launcher = folder / "pi-floor"
    init = str(PACKAGE / "__init__.py")
    launcher.write_text(LAUNCHER.format(python=sys.executable, init=init, package=str(PACKAGE)))
    launcher.chmod(0o755)
    return str(launcher)


def open_context_ms(path: Path, runs: int = 5) -> float:
    """Median ms for the floor to read, parse and build the context of a fresh copy of `path`."""
    samples = []
    for index in range(runs):
        copy = path.with_name(f"{path.stem}.floor{index}.jsonl")
        shutil.copy(path, copy)
        start = time.perf_counter()
        messages = open_context(str(copy))
        samples.append((time.perf_counter() - start) * 1000)
        if not messages:
            raise RuntimeError(f"the floor found no messages in {path}")
        copy.unlink()
    return statistics.median(samples)


@dataclass
class ExportFigures:
    """The floor's export: wall time and peak RSS (median of runs) and the page's size."""

    summary: Summary
    size_mb: float


def export(launcher: str, folder: Path, runs: int) -> ExportFigures:
    """The floor's `--export` of the session export.py generated in `folder` (a fresh copy)."""
    session = folder / "bench-export.jsonl"
    copy, output = folder / "floor.jsonl", folder / "floor.html"

    def fresh_copy() -> None:
        """The session as generated (an export may touch its input)."""
        shutil.copyfile(session, copy)

    summary = measure_runs(
        [launcher, "--export", str(copy), str(output)], runs, cwd=folder, before=fresh_copy
    )
    return ExportFigures(summary, output.stat().st_size / 1e6)


@dataclass
class LaunchFigures:
    """REPL launches: median seconds until a typed key showed, and until the footer did."""

    usable: float
    loaded: float


def launches(launch: Callable[[list[str], Any], Any], command: list[str], workspace: Any,
             runs: int) -> LaunchFigures:  # fmt: skip
    """One warm-up launch, then the medians of `runs` (benchmarks/repl.py's `launch`)."""
    try:
        launch(command, workspace)
        figures = [launch(command, workspace) for _ in range(runs)]
    except SystemExit as error:  # repl.py's way of giving up (a timeout)
        raise RuntimeError(str(error)) from None
    return LaunchFigures(
        statistics.median(f.usable for f in figures), statistics.median(f.loaded for f in figures)
    )
