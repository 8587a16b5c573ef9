"""A real local Ray head for the tests and the benchmark, with its own temp dir."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

STARTED = "Ray runtime started"


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def ray_head(num_cpus: int = 2, timeout: float = 120) -> Iterator[str]:
    """Run `ray start --head --block` in its own process group; yield its address.

    The group is ended by its id afterwards, not with `ray stop`, which would stop every Ray
    on the machine.
    """
    ray = Path(sys.executable).parent / "ray"
    # Ray's socket paths must stay short: a temp dir directly under /tmp.
    temp = tempfile.mkdtemp(prefix="ray", dir="/tmp")
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PI_", "RAY_"))}
    env["HOME"] = temp
    log_path = Path(temp) / "head.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [str(ray), "start", "--head", "--block", "--port", str(port),
             "--node-ip-address", "127.0.0.1", "--num-cpus", str(num_cpus),
             "--disable-usage-stats", "--temp-dir", temp, "--include-dashboard=false",
             "--object-store-memory", str(100 * 1024 * 1024)],
            stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + timeout
        while STARTED not in log_path.read_text(errors="replace"):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"ray start failed:\n{log_path.read_text(errors='replace')}")
            time.sleep(0.2)
        yield f"127.0.0.1:{port}"
    finally:
        _end_group(process)
        shutil.rmtree(temp, ignore_errors=True)


def _end_group(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM the head's process group (it stops its own processes), then SIGKILL what is left."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=15)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()
