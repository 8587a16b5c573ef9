"""The REPL against pi 0.73.1's, both in tmux on the same loopback fake server.

    python benchmarks/repl.py [--runs 5] [--pi-js PATH_TO_PI_0.73.1/dist/cli.js]

Measures, for each side:
- launch → usable editor: from starting the command until the footer (model name) is drawn;
- keystroke echo while a 1 MB answer streams: from sending a key until it shows in the editor
  (median over several keys; includes tmux's own latency, the same for both sides);
- 1 MB answer: from sending the prompt until the screen shows the end of the answer.
Targets (issue 16): launch ≤ 0.25 x pi; echo ≤ 16 ms median; the answer never falls behind.
"""

from __future__ import annotations

import argparse
import json
import shlex
import statistics
import subprocess
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from harness.pi import our_pi
from harness.scenarios import Workspace, make_workspace, stream_answer, with_bytecode_cache

from pi_core.testing import FakeLLMServer

PI_JS = "/tmp/piref/node_modules/@mariozechner/pi-coding-agent/dist/cli.js"
ANSWER_BYTES = 1_000_000
END_MARK = "THE-END-OF-IT"


class Pane:
    """One tmux server and pane running a command."""

    def __init__(self, command: list[str], workspace: Workspace) -> None:
        self.socket = f"pi-bench-{uuid.uuid4().hex[:8]}"
        env = " ".join(f"{k}={shlex.quote(v)}" for k, v in workspace.env.items()
                       if k in ("HOME", "PI_CODING_AGENT_DIR", "PI_OFFLINE", "PATH",
                                "PYTHONPYCACHEPREFIX"))  # fmt: skip
        # tmux's server inherits this environment: PYTHONDONTWRITEBYTECODE would make every
        # start compile our modules from source, which an installed pi never does
        script = f"cd {shlex.quote(str(workspace.project))} && env -u PYTHONDONTWRITEBYTECODE "
        script += f"{env} TERM=xterm-256color " + (" ".join(shlex.quote(part) for part in command))
        self.started = time.perf_counter()
        self.tmux("new-session", "-d", "-x", "120", "-y", "40", "sh", "-c", script)

    def tmux(self, *args: str) -> str:
        """Run a tmux command on this pane's server."""
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True,
                              text=True).stdout  # fmt: skip

    def screen(self) -> str:
        """The visible screen."""
        return self.tmux("capture-pane", "-p")

    def wait(self, check: Callable[[str], bool], timeout: float = 60.0) -> float:
        """Poll the screen until `check` holds; return when (perf_counter)."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            if check(self.screen()):
                return time.perf_counter()
            time.sleep(0.002)
        raise SystemExit(f"timed out; screen:\n{self.screen()}")

    def close(self) -> None:
        """Stop the tmux server."""
        self.tmux("kill-server")


def editor_ready(screen: str) -> bool:
    """The footer with the model name is drawn."""
    return "fake-model" in screen and "─────" in screen


def launch(command: list[str], workspace: Workspace) -> float:
    """Seconds from start to a usable editor."""
    pane = Pane(command, workspace)
    try:
        return pane.wait(editor_ready) - pane.started
    finally:
        pane.close()


def streaming(
    command: list[str], workspace: Workspace, server: FakeLLMServer
) -> tuple[float, float]:
    """(median echo seconds while streaming, seconds until the answer's end is on screen)."""
    answer = stream_answer(ANSWER_BYTES)
    end_chunk = {"id": "x", "object": "chat.completion.chunk", "created": 0,
                 "model": "fake-model",
                 "choices": [{"index": 0, "delta": {"content": f" {END_MARK}"},
                              "finish_reason": None}]}  # fmt: skip
    answer.chunks.insert(-3, f"data: {json.dumps(end_chunk)}\n\n".encode())
    server.queue(answer)
    pane = Pane(command, workspace)
    try:
        pane.wait(editor_ready)
        pane.tmux("send-keys", "-l", "go")
        pane.tmux("send-keys", "Enter")
        sent = time.perf_counter()
        pane.wait(lambda s: "abcdefghi" in s)
        echoes = []
        for index in range(8):
            letter = "qwertyuiop"[index]
            before = time.perf_counter()
            pane.tmux("send-keys", "-l", letter)
            typed = "qwertyuiop"[: index + 1]
            after = pane.wait(lambda s, typed=typed: typed in s)
            echoes.append(after - before)
        done = pane.wait(lambda s: END_MARK in s, timeout=300)
        return statistics.median(echoes), done - sent
    finally:
        pane.close()


def main() -> None:
    """Measure both sides and print a table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--pi-js", default=PI_JS)
    args = parser.parse_args()
    sides = {"ours": [our_pi()]}
    if Path(args.pi_js).exists():
        sides["pi 0.73.1"] = ["node", args.pi_js]
    results: dict[str, tuple[float, float, float]] = {}
    with FakeLLMServer() as server, tempfile.TemporaryDirectory() as tmp:
        for name, command in sides.items():
            workspace = make_workspace(Path(tmp) / name.replace(" ", "-"), server.base_url)
            if name == "ours":
                workspace.env.update(with_bytecode_cache(workspace.env, Path(tmp) / "pycache"))
            (workspace.agent / "settings.json").write_text(
                '{"defaultProvider": "fake", "defaultModel": "fake-model"}'
            )
            launch(command, workspace)  # warm-up: file cache, and our bytecode cache
            launches = [launch(command, workspace) for _ in range(args.runs)]
            echo, total = streaming(command, workspace, server)
            results[name] = (statistics.median(launches), echo, total)
    print(
        f"{'side':<12} {'launch→editor s':>16} {'echo ms (1 MB stream)':>22} {'1 MB answer s':>14}"
    )
    for name, (start, echo, total) in results.items():
        print(f"{name:<12} {start:>16.3f} {echo * 1000:>22.1f} {total:>14.2f}")
    if "pi 0.73.1" in results:
        ratio = results["ours"][0] / results["pi 0.73.1"][0]
        print(f"launch ratio ours/pi: {ratio:.2f} (target ≤ 0.25)")


if __name__ == "__main__":
    main()
