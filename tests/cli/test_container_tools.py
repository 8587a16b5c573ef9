"""docs/examples/container_tools.py: every built-in tool as a `docker exec` in a named container.

One test runs `pi -p` with a stand-in `docker` on PATH that logs each call and runs it here (so
the example's commands and parsing are proven on every machine); the other runs the operations
in a real container, where docker or podman and a local `alpine` image exist."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pi_core.testing import chat_stream
from tests.cli.conftest import Cli

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "container_tools.py"
ALL_TOOLS = "read,write,edit,bash,ls,find,grep"

STAND_IN = """#!/bin/sh
# docker exec -i [-w DIR] [-e K=V]... NAME ARGV...: log the call, run ARGV here
printf '%s\\n' "$*" >> "$ENGINE_LOG"
shift 2
dir=.
while :; do
  case "$1" in
    -w) dir=$2; shift 2 ;;
    -e) export "$2"; shift 2 ;;
    *) break ;;
  esac
done
shift
cd "$dir" && exec "$@"
"""


def _tool_texts(request: Any) -> list[str]:
    return [m["content"] for m in request.json()["messages"] if m["role"] == "tool"]


def test_pi_runs_every_tool_through_the_container_engine(cli: Cli, tmp_path: Path) -> None:
    engine = tmp_path / "bin" / "docker"
    engine.parent.mkdir()
    engine.write_text(STAND_IN)
    engine.chmod(0o755)
    log = tmp_path / "engine.log"
    (cli.cwd / "notes.txt").write_text("alpha\nbeta\n")
    cli.env.update(
        PATH=f"{engine.parent}:{cli.env['PATH']}", ENGINE_LOG=str(log), PI_CONTAINER="box"
    )
    cli.server.queue(
        chat_stream(
            tool_calls=[
                ("write", {"path": "sub/new.txt", "content": "gamma\n"}),
                ("edit", {"path": "notes.txt", "edits": [{"oldText": "beta", "newText": "BETA"}]}),
                ("bash", {"command": "echo in $PWD"}),
            ]
        ),
        chat_stream(
            tool_calls=[
                ("read", {"path": "notes.txt"}),
                ("ls", {}),
                ("find", {"pattern": "*.txt"}),
                ("grep", {"pattern": "gamma|BETA"}),
            ]
        ),
        chat_stream("done"),
    )

    result = cli.run("-p", "--no-session", "-e", str(EXAMPLE), "--tools", ALL_TOOLS, "go")

    assert result.returncode == 0, result.stderr
    write, edit, bash = _tool_texts(cli.server.requests[1])
    assert write == "Successfully wrote 6 bytes to sub/new.txt"
    assert edit == "Successfully replaced 1 block(s) in notes.txt."
    assert bash.strip() == f"in {cli.cwd}"
    read, listing, found, grep = _tool_texts(cli.server.requests[2])[3:]
    assert read == "alpha\nBETA\n"
    assert listing == "notes.txt\nsub/"
    assert found == "notes.txt\nsub/new.txt"
    assert grep == "notes.txt:2: BETA\nsub/new.txt:1: gamma"
    calls = log.read_text().splitlines()
    assert f"exec -i box cat -- {cli.cwd}/notes.txt" in calls
    assert f"exec -i -w {cli.cwd} box sh -c echo in $PWD" in calls
    assert any(call.startswith(f"exec -i box find {cli.cwd} ") for call in calls)
    assert any(call.startswith("exec -i box grep -rnH") for call in calls)
    assert (cli.cwd / "sub" / "new.txt").read_text() == "gamma\n"  # the stand-in runs here


def _engine() -> str | None:
    for name in ("docker", "podman"):
        path = shutil.which(name)
        if path is None:
            continue
        image = os.environ.get("PI_TEST_CONTAINER_IMAGE", "alpine")
        ready = subprocess.run([path, "image", "inspect", image], capture_output=True, timeout=30)
        if ready.returncode == 0:
            return name
    return None


@pytest.fixture
def container(tmp_path: Path) -> Iterator[tuple[str, str]]:
    engine = _engine()
    if engine is None:
        pytest.skip("no docker or podman with a local alpine image (PI_TEST_CONTAINER_IMAGE)")
    name = f"pi-test-{uuid.uuid4().hex[:8]}"
    image = os.environ.get("PI_TEST_CONTAINER_IMAGE", "alpine")
    mount = f"{tmp_path}:{tmp_path}"
    subprocess.run(
        [engine, "run", "-d", "--rm", "--network=none", "--name", name, "-v", mount, image,
         "sleep", "300"],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    try:
        yield engine, name
    finally:
        subprocess.run([engine, "rm", "-f", name], capture_output=True, timeout=60)


def test_the_operations_run_in_a_real_container(container: tuple[str, str], tmp_path: Path) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("container_tools", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    engine, name = container
    ops = module.container_operations(name, engine)
    target = f"{tmp_path}/made/file.txt"

    async def scenario() -> tuple[bytes, list[str], str]:
        await ops.write.mkdir(f"{tmp_path}/made")
        await ops.write.write_file(target, b"inside\n")
        data = await ops.read.read_file(target)
        names = await ops.ls.readdir(f"{tmp_path}/made")
        chunks: list[bytes] = []
        await ops.bash.exec("cat /etc/os-release | head -1", str(tmp_path), on_data=chunks.append)
        return data, names, b"".join(chunks).decode()

    data, names, release = asyncio.run(scenario())
    assert data == b"inside\n"
    assert names == ["file.txt"]
    assert release.startswith("NAME=")
    assert Path(target).read_text() == "inside\n"  # the mount shows the container's write
