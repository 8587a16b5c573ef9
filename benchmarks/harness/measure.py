"""Run a command in a fresh child and measure its wall time and peak memory."""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path


def _gnu_time() -> str | None:
    """GNU time, if installed: it reports the peak RSS of the command alone."""
    for candidate in ("/usr/bin/time", shutil.which("gtime")):
        if candidate and os.access(candidate, os.X_OK):
            probe = subprocess.run(
                [candidate, "-f", "%M", "true"], capture_output=True, text=True, check=False
            )
            lines = probe.stderr.split()
            if probe.returncode == 0 and lines and lines[-1].isdigit():
                return candidate
    return None


GNU_TIME = _gnu_time()


class PeakProbe:
    """Peak RSS of one child, read through GNU time when present.

    A child that Python spawns starts as a (v)fork of this process, and Linux carries that
    high-water mark across exec into the child's ru_maxrss; so wait4 alone reports at least the
    harness's own size. GNU time forks the command from a tiny process instead. Without it the
    figure falls back to wait4's and `exact` is False.
    """

    def __init__(self) -> None:
        """Make the file GNU time writes to."""
        handle, self.path = tempfile.mkstemp(prefix="peak-")
        os.close(handle)
        self.exact = GNU_TIME is not None

    def wrap(self, command: list[str]) -> list[str]:
        """`command`, run under GNU time when available."""
        if GNU_TIME is None:
            return command
        return [GNU_TIME, "-f", "%M", "-o", self.path, *command]

    def peak_mib(self, usage: resource.struct_rusage) -> float:
        """The command's peak RSS in MiB (Linux reports KiB), then forget the file."""
        try:
            if GNU_TIME is not None:
                words = Path(self.path).read_text().split()
                if words and words[-1].isdigit():
                    return int(words[-1]) / 1024
            return usage.ru_maxrss / 1024
        finally:
            Path(self.path).unlink(missing_ok=True)


@dataclass
class Sample:
    """One run of a child process: wall seconds, peak RSS in MiB, exit code and output."""

    wall: float
    peak_mib: float
    returncode: int
    stdout: bytes
    stderr: bytes
    cpu: float = 0.0  # user + system seconds of the command and the children it waited for


def run_once(
    command: list[str], cwd: Path | None = None, env: Mapping[str, str] | None = None
) -> Sample:
    """Run `command` once: wall time from spawn to reap, and its peak RSS."""
    probe = PeakProbe()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        process = subprocess.Popen(
            probe.wrap(command), cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err
        )
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        cpu = usage.ru_utime + usage.ru_stime
        peak = probe.peak_mib(usage)
        return Sample(wall, peak, process.returncode, out.read(), err.read(), cpu)


@dataclass
class Summary:
    """Median and best wall time and the largest peak RSS over several runs."""

    median: float
    best: float
    peak_mib: float
    runs: int


def summarize(samples: list[Sample]) -> Summary:
    """Median and minimum wall time and maximum peak RSS of `samples`."""
    walls = [sample.wall for sample in samples]
    peaks = [sample.peak_mib for sample in samples]
    return Summary(statistics.median(walls), min(walls), max(peaks), len(samples))


def measure_runs(
    command: list[str],
    runs: int,
    *,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    warmup: int = 1,
    before: Callable[[], None] | None = None,
    check: Callable[[Sample], None] | None = None,
) -> Summary:
    """Run `command` warmup + runs times (`before` each, `check` after); summarize timed runs."""
    samples = []
    for index in range(warmup + runs):
        if before is not None:
            before()
        sample = run_once(command, cwd, env)
        if sample.returncode != 0:
            detail = sample.stderr.decode(errors="replace")[-2000:]
            raise RuntimeError(f"{' '.join(command)} exited {sample.returncode}:\n{detail}")
        if check is not None:
            check(sample)
        if index >= warmup:
            samples.append(sample)
    return summarize(samples)


def measure(command: list[str], runs: int) -> tuple[float, float, float]:
    """Return (median wall s, min wall s, peak RSS MiB) of `command` over `runs` runs."""
    summary = measure_runs(command, runs, warmup=0)
    return summary.median, summary.best, summary.peak_mib
