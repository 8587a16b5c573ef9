"""The machine a run happened on: kernel, CPU, cores, Python, node, pi, date."""

from __future__ import annotations

import datetime
import os
import platform
import subprocess
import sys


def cpu_model() -> str:
    """The CPU model name from /proc/cpuinfo (or platform.processor())."""
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def uname() -> str:
    """`uname -a`, or platform.uname() where there is no uname command."""
    try:
        return subprocess.run(
            ["uname", "-a"], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return " ".join(part for part in platform.uname() if part)


def memory() -> str:
    """Total memory from /proc/meminfo, in GiB."""
    try:
        with open("/proc/meminfo") as info:
            for line in info:
                if line.startswith("MemTotal:"):
                    return f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except (OSError, ValueError):
        pass
    return "unknown"


def node_version() -> str:
    """`node --version`, or "not found"."""
    try:
        return subprocess.run(
            ["node", "--version"], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "not found"


def describe(pi_version: str | None) -> dict[str, str]:
    """A dict of facts about this machine and run."""
    return {
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "uname": uname(),
        "cpu": cpu_model(),
        "cores": str(os.cpu_count()),
        "memory": memory(),
        "python": sys.version.split()[0],
        "node": node_version(),
        "pi": pi_version or "not measured",
    }
