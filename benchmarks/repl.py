"""The REPL against pi 0.73.1's, both in tmux on the same loopback fake server.

    python benchmarks/repl.py [--runs 5] [--pi-js PATH_TO_PI_0.73.1/dist/cli.js]

Measures, for each side:
- launch → usable editor: from starting the command until a key typed into the editor shows
  (the key is typed as soon as the editor's rule is drawn); and launch → loaded: until the footer
  shows the model (everything loaded: the two are the same moment for pi, which draws its editor
  once everything has loaded, while ours draws the editor first and loads behind it);
- keystroke echo while a 1 MB answer streams: from sending a key until the pane writes it,
  median over several keys, measured two ways on the same run:
  - event-driven (the figure against the target): a tmux control-mode client (`tmux -C`) sends
    the key and receives the pane's output as `%output` notifications the moment the program
    writes it; the echo is the first output, escape sequences stripped, that holds the typed
    character (characters neither the stream nor either UI prints);
  - polled (kept for continuity with earlier figures): `tmux send-keys`, then `capture-pane`
    until the editor shows the key: two subprocesses per poll, a floor of ~12 ms on this
    machine with nothing streaming;
  and the event-driven echo once the answer is over (nothing streaming: the program's own
  cost; the method itself adds ~0.2 ms, measured on `cat` in the same pane);
- 1 MB answer: from sending the prompt until the screen shows the end of the answer.
Targets (issue 16): launch ≤ 0.25 x pi; echo ≤ 16 ms median; the answer never falls behind.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import statistics
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from harness.pi import our_pi
from harness.scenarios import Workspace, make_workspace, stream_answer, with_bytecode_cache

from pi_core.testing import FakeLLMServer

PI_JS = "/tmp/piref/node_modules/@mariozechner/pi-coding-agent/dist/cli.js"
ANSWER_BYTES = 1_000_000
END_MARK = "THE-END-OF-IT"
# Keys for the event-driven echo: never in the stream ("abcdefghi "), the end mark or either
# UI's text (escape sequences are stripped first, one cut between two notifications included).
STREAM_KEYS = "zxvjZXVJ"
IDLE_KEYS = "QGMW"  # typed once the answer is over
# Complete escape sequences: CSI, OSC (BEL or ST ended), and two-byte ones (charset, keypad...).
ESCAPE = re.compile(
    rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-~]|\x1b[^\[\]()]"
)
OCTAL = re.compile(rb"\\([0-7]{3})")


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


class ControlClient:
    """A tmux control-mode client on a pane's server: sends keys and sees the pane's output as
    it is written (`%output` notifications), so an echo is timed without polling the screen."""

    def __init__(self, pane: Pane) -> None:
        self.process = subprocess.Popen(
            ["tmux", "-L", pane.socket, "-C", "attach"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            bufsize=0,
        )
        self.wanted: bytes | None = None
        self.seen_at = 0.0
        self.seen = threading.Event()
        self.attached = threading.Event()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        if not self.attached.wait(10):  # keys sent before this would have no target pane
            raise SystemExit("the tmux control client did not attach")

    def _read(self) -> None:
        """Decode `%output` lines, strip escape sequences (one cut across lines is carried
        over), and note when the wanted character first appears."""
        assert self.process.stdout is not None
        carry = b""
        for line in self.process.stdout:
            now = time.perf_counter()
            if line.startswith(b"%session-changed"):
                self.attached.set()
            if not line.startswith(b"%output "):
                continue
            data = line.rstrip(b"\n").split(b" ", 2)[2] if line.count(b" ") >= 2 else b""
            text = ESCAPE.sub(b"", carry + OCTAL.sub(lambda m: bytes([int(m[1], 8)]), data))
            cut = text.rfind(b"\x1b")
            if cut >= 0 and len(text) - cut < 256:  # a sequence cut by the notification's end
                carry, text = text[cut:], text[:cut]
            else:
                carry = b""
            wanted = self.wanted
            if wanted is not None and wanted in text and not self.seen.is_set():
                self.seen_at = now
                self.seen.set()

    def echo(self, key: str, timeout: float = 60.0) -> float:
        """Send `key` (one character) and return seconds until the pane writes it."""
        assert self.process.stdin is not None
        self.seen.clear()
        self.wanted = key.encode()
        sent = time.perf_counter()
        self.process.stdin.write(f"send-keys -l {key}\n".encode())
        if not self.seen.wait(timeout):
            raise SystemExit(f"no echo of {key!r} within {timeout} s")
        self.wanted = None
        return self.seen_at - sent

    def close(self) -> None:
        """Detach (the server is stopped by the pane)."""
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()


LAUNCH_KEYS = "zq"  # typed at launch: in neither UI's start screen


def editor_ready(screen: str) -> bool:
    """The footer with the model name is drawn."""
    return "fake-model" in screen and "─────" in screen


@dataclass
class LaunchFigures:
    """One launch: seconds until a typed key showed, and until everything had loaded."""

    usable: float
    loaded: float


def launch(command: list[str], workspace: Workspace) -> LaunchFigures:
    """Seconds from start to a usable editor (a typed key shows), and to the loaded footer."""
    pane = Pane(command, workspace)
    try:
        pane.wait(lambda s: "─────" in s)
        pane.tmux("send-keys", "-l", LAUNCH_KEYS)
        usable = pane.wait(lambda s: LAUNCH_KEYS in s) - pane.started
        loaded = pane.wait(editor_ready) - pane.started
        return LaunchFigures(usable, loaded)
    finally:
        pane.close()


@dataclass
class StreamFigures:
    """One streaming run: echo medians (seconds) and the time the whole answer took."""

    echo_events: float
    echo_polled: float
    echo_idle: float
    answer: float


def streaming(command: list[str], workspace: Workspace, server: FakeLLMServer) -> StreamFigures:
    """Echo while a 1 MB answer streams (event-driven, then polled), the answer's duration, and
    the event-driven echo once the answer is over."""
    answer = stream_answer(ANSWER_BYTES)
    end_chunk = {"id": "x", "object": "chat.completion.chunk", "created": 0,
                 "model": "fake-model",
                 "choices": [{"index": 0, "delta": {"content": f" {END_MARK}"},
                              "finish_reason": None}]}  # fmt: skip
    answer.chunks.insert(-3, f"data: {json.dumps(end_chunk)}\n\n".encode())
    server.queue(answer)
    pane = Pane(command, workspace)
    control: ControlClient | None = None
    try:
        pane.wait(editor_ready)
        control = ControlClient(pane)
        pane.tmux("send-keys", "-l", "go")
        pane.tmux("send-keys", "Enter")
        sent = time.perf_counter()
        pane.wait(lambda s: "abcdefghi" in s)
        events = [control.echo(key) for key in STREAM_KEYS]
        polled = []
        for index in range(8):
            letter = "qwertyuiop"[index]
            before = time.perf_counter()
            pane.tmux("send-keys", "-l", letter)
            typed = STREAM_KEYS + "qwertyuiop"[: index + 1]
            after = pane.wait(lambda s, typed=typed: typed in s)
            polled.append(after - before)
        done = pane.wait(lambda s: END_MARK in s, timeout=300)
        idle = [control.echo(key) for key in IDLE_KEYS]
        return StreamFigures(
            statistics.median(events), statistics.median(polled), statistics.median(idle),
            done - sent,
        )  # fmt: skip
    finally:
        if control is not None:
            control.close()
        pane.close()


def main() -> None:
    """Measure both sides and print a table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--pi-js", default=PI_JS)
    parser.add_argument("--ours-only", action="store_true", help="skip pi 0.73.1")
    parser.add_argument("--launch-only", action="store_true", help="skip the streaming run")
    args = parser.parse_args()
    sides = {"ours": [our_pi()]}
    if Path(args.pi_js).exists() and not args.ours_only:
        sides["pi 0.73.1"] = ["node", args.pi_js]
    launches: dict[str, LaunchFigures] = {}
    streams: dict[str, StreamFigures] = {}
    with FakeLLMServer() as server, tempfile.TemporaryDirectory() as tmp:
        for name, command in sides.items():
            workspace = make_workspace(Path(tmp) / name.replace(" ", "-"), server.base_url)
            if name == "ours":
                workspace.env.update(with_bytecode_cache(workspace.env, Path(tmp) / "pycache"))
            (workspace.agent / "settings.json").write_text(
                '{"defaultProvider": "fake", "defaultModel": "fake-model"}'
            )
            launch(command, workspace)  # warm-up: file cache, and our bytecode cache
            runs = [launch(command, workspace) for _ in range(args.runs)]
            launches[name] = LaunchFigures(
                statistics.median(run.usable for run in runs),
                statistics.median(run.loaded for run in runs),
            )
            if not args.launch_only:
                streams[name] = streaming(command, workspace, server)
    rows: list[tuple[str, Callable[[str], float], str]] = [
        ("launch → usable editor (typed key shows), median (s)",
         lambda n: launches[n].usable, "{:.3f}"),
        ("launch → loaded (footer shows the model), median (s)",
         lambda n: launches[n].loaded, "{:.3f}"),
        ("key echo while 1 MB streams, tmux -C (ms)",
         lambda n: streams[n].echo_events * 1000, "{:.1f}"),
        ("key echo while 1 MB streams, polled (ms)",
         lambda n: streams[n].echo_polled * 1000, "{:.1f}"),
        ("key echo, nothing streaming, tmux -C (ms)",
         lambda n: streams[n].echo_idle * 1000, "{:.1f}"),
        ("1 MB answer: prompt → last word on screen (s)",
         lambda n: streams[n].answer, "{:.2f}"),
    ]  # fmt: skip
    if args.launch_only:
        rows = rows[:2]
    print(f"{'figure':<56}" + "".join(f"{name:>12}" for name in sides))
    for label, value, form in rows:
        print(f"{label:<56}" + "".join(f"{form.format(value(name)):>12}" for name in sides))
    if "pi 0.73.1" in launches:
        usable = launches["ours"].usable / launches["pi 0.73.1"].usable
        loaded = launches["ours"].loaded / launches["pi 0.73.1"].loaded
        print(f"launch ratio ours/pi: usable editor {usable:.2f} (target ≤ 0.25), "
              f"loaded {loaded:.2f}; echo target ≤ 16 ms median")  # fmt: skip


if __name__ == "__main__":
    main()
