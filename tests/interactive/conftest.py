"""Drive the real `pi` REPL in tmux against the loopback fake server and read the screen back."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from pi_core.testing import FakeLLMServer, chat_models_json

WAIT_SECONDS = 30.0


@dataclass
class Screen:
    """A tmux pane running `pi`; waits are bounded and synchronised on what the screen shows."""

    socket: str
    server: FakeLLMServer
    cwd: Path
    agent_dir: Path
    home: Path

    def _tmux(self, *args: str) -> str:
        done = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True,
                              text=True, timeout=10)  # fmt: skip
        return done.stdout

    def start(
        self,
        *args: str,
        env: dict[str, str] | None = None,
        width: int = 100,
        raw: Path | None = None,
        tmux_options: tuple[tuple[str, str], ...] = (),
        in_tmux: bool = False,
    ) -> None:
        """Start `pi args…` in a fresh pane; the pane prints EXIT=<code> when pi ends.

        With `raw`, every byte pi writes to the pane is copied to that file (`tmux pipe-pane`),
        from its first byte on: the pane waits for the copy to be set up before it starts pi.
        `tmux_options` are global tmux options set before pi starts (`extended-keys`, `on`).
        pi is not told it runs inside tmux (`$TMUX` empty) unless `in_tmux`: the test server's
        tmux settings are not a user's.
        """
        pi = str(Path(sys.executable).with_name("pi"))
        variables = {"HOME": str(self.home), "PI_CODING_AGENT_DIR": str(self.agent_dir),
                     "TERM": "xterm-256color", "EDITOR": "", "VISUAL": ""}  # fmt: skip
        if not in_tmux:
            variables["TMUX"] = ""
        variables.update(env or {})
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in variables.items())
        command = " ".join(shlex.quote(a) for a in (pi, *args))
        script = (
            f"cd {shlex.quote(str(self.cwd))} && env {exports} {command}; echo EXIT=$?; sleep 60"
        )
        gate = self.home / f"pane-go-{uuid.uuid4().hex[:8]}"
        if raw is not None or tmux_options:
            script = f"while [ ! -e {shlex.quote(str(gate))} ]; do sleep 0.01; done; {script}"
        self._tmux("new-session", "-d", "-x", str(width), "-y", "40", "sh", "-c", script)
        for name, value in tmux_options:
            self._tmux("set-option", "-g", name, value)
        if raw is not None:
            self.record_output(raw)
        gate.touch()

    def start_in_shell(self, *args: str) -> None:
        """Start an interactive bash (job control, as a user has) and run `pi args…` in it."""
        pi = str(Path(sys.executable).with_name("pi"))
        self._tmux("new-session", "-d", "-x", "100", "-y", "40", "-c", str(self.cwd),
                   "env", f"HOME={self.home}", f"PI_CODING_AGENT_DIR={self.agent_dir}", "TMUX=",
                   "PS1=$ ", "bash", "--norc", "--noprofile", "-i")  # fmt: skip
        self.wait_for("$ ")
        self.type(" ".join(shlex.quote(a) for a in (pi, *args)))
        self.keys("Enter")

    def resize(self, width: int, height: int = 40) -> None:
        """Resize the window (pi gets SIGWINCH)."""
        self._tmux("resize-window", "-x", str(width), "-y", str(height))

    def text(self, history: int = 200) -> str:
        """The pane's text, with up to `history` lines scrolled off above it."""
        return self._tmux("capture-pane", "-p", "-J", "-S", f"-{history}")

    def styled(self) -> str:
        """The visible pane with its colours and attributes (SGR escape sequences)."""
        return self._tmux("capture-pane", "-p", "-e")

    def record_output(self, path: Path) -> None:
        """From now on, append every byte written to the pane to `path` (escape codes kept)."""
        path.touch()
        self._tmux("pipe-pane", "-O", f"cat >> {shlex.quote(str(path))}")

    def start_recorded(self, path: Path, *args: str, env: dict[str, str] | None = None) -> None:
        """Start `pi args…` with every byte written to the pane, from the first, appended to
        `path`."""
        self.start(*args, env=env, raw=path)

    def wait_for_output(
        self, path: Path, expected: bytes | Callable[[bytes], bool], timeout: float = WAIT_SECONDS
    ) -> bytes:
        """Wait until the recorded output holds `expected` (or the predicate holds); return all."""
        check = expected if callable(expected) else (lambda data: expected in data)
        deadline = time.monotonic() + timeout
        data = b""
        while time.monotonic() < deadline:
            data = path.read_bytes() if path.exists() else b""
            if check(data):
                return data
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting for {expected!r} in the output: {data[-2000:]!r}")

    def title(self) -> str:
        """The pane's title, as the program set it."""
        return self._tmux("display-message", "-p", "#{pane_title}").strip()

    def keys(self, *keys: str) -> None:
        """Send tmux key names (`Enter`, `Escape`, `C-c`, `M-Enter`)."""
        self._tmux("send-keys", *keys)

    def type(self, text: str) -> None:
        """Type literal text."""
        self._tmux("send-keys", "-l", text)

    def paste(self, text: str) -> None:
        """Paste text as a bracketed paste."""
        self._tmux("set-buffer", "--", text)
        self._tmux("paste-buffer", "-p")

    def wait_for(self, expected: str | Callable[[str], bool], timeout: float = WAIT_SECONDS) -> str:
        """Wait until the screen shows `expected` (or the predicate holds); fail with the screen."""
        check = expected if callable(expected) else (lambda screen: expected in screen)
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.text()
            if check(screen):
                return screen
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting for {expected!r}; screen:\n{screen}")

    def ready(self) -> str:
        """Wait for the editor and footer to be drawn."""
        return self.wait_for("(fake) fake-model")

    def pi_pid(self) -> int:
        """The process id of `pi` in the pane (the shell's child)."""
        shell = self._tmux("display-message", "-p", "#{pane_pid}").strip()
        children = subprocess.run(["pgrep", "-P", shell], capture_output=True, text=True).stdout
        return int(children.split()[0])

    def wait_for_state(self, pid: int, state: str, timeout: float = WAIT_SECONDS) -> None:
        """Wait until the process is in `state` (T stopped, S sleeping) as /proc shows it."""
        deadline = time.monotonic() + timeout
        current = ""
        while time.monotonic() < deadline:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            current = fields[0]
            if current == state:
                return
            time.sleep(0.05)
        raise AssertionError(f"process {pid} stayed in state {current!r}, not {state!r}")

    def sessions(self) -> list[Path]:
        """Session files written so far."""
        return sorted(self.agent_dir.glob("sessions/**/*.jsonl"))

    def close(self) -> None:
        """Stop the tmux server of this test."""
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=10)
        self.socket = f"pi-test-{uuid.uuid4().hex[:8]}"  # a later start() gets a fresh server


@pytest.fixture
def screen(tmp_path: Path, isolated_agent_dir: Path) -> Iterator[Screen]:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    cwd = tmp_path / "project"
    cwd.mkdir()
    with FakeLLMServer() as server:
        models = chat_models_json(server.base_url, reasoning=True)
        (isolated_agent_dir / "models.json").write_text(json.dumps(models))
        (isolated_agent_dir / "settings.json").write_text(
            json.dumps({"defaultProvider": "fake", "defaultModel": "fake-model"})
        )
        pane = Screen(f"pi-test-{uuid.uuid4().hex[:8]}", server, cwd, isolated_agent_dir, tmp_path)
        try:
            yield pane
        finally:
            pane.close()


def session_records(screen: Screen) -> list[dict[str, object]]:
    """Every record of the single session file."""
    files = screen.sessions()
    assert len(files) == 1, files
    return [json.loads(line) for line in files[0].read_text().splitlines() if line.strip()]


def stripped_lines(text: str) -> list[str]:
    """The screen's lines without the padding of coloured backgrounds."""
    return [line.strip() for line in text.splitlines()]


def editor_lines(text: str) -> list[str]:
    """The lines between the editor's two rules (the last two full-width rules on screen)."""
    lines: list[str] = []
    for line in stripped_lines(text):
        # a full-width rule can be joined with the next line by `capture-pane -J`
        rest = line.lstrip("─")
        if line.startswith("──────────") and rest:
            lines += [line[: len(line) - len(rest)], rest.strip()]
        else:
            lines.append(line)
    rules = [i for i, line in enumerate(lines) if line.startswith("──────────")]
    if len(rules) < 2:
        return []
    return lines[rules[-2] + 1 : rules[-1]]
