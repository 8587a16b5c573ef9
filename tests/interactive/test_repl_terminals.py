"""Odd terminals and odd input: TERM=dumb, a resize mid-stream, tool output that is not UTF-8."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

from pi_core.testing import chat_stream
from tests.interactive.conftest import Screen, stripped_lines


class PtyProcess:
    """`pi` on a pseudo-terminal, read byte for byte (to prove no escape codes are written)."""

    def __init__(self, screen: Screen, env: dict[str, str]) -> None:
        master, slave = os.openpty()
        pi = str(Path(sys.executable).with_name("pi"))
        variables = {**os.environ, "HOME": str(screen.home),
                     "PI_CODING_AGENT_DIR": str(screen.agent_dir), **env}  # fmt: skip
        self.process = subprocess.Popen([pi], cwd=screen.cwd, env=variables, stdin=slave,
                                        stdout=slave, stderr=slave, close_fds=True)  # fmt: skip
        os.close(slave)
        self.master = master
        self.output = b""

    def read_until(self, needle: bytes, timeout: float = 20.0) -> bytes:
        """Read until `needle` has appeared (bounded)."""
        deadline = time.monotonic() + timeout
        while needle not in self.output:
            left = deadline - time.monotonic()
            assert left > 0, f"timed out waiting for {needle!r}; got {self.output!r}"
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    break
                self.output += chunk
        return self.output

    def send(self, data: bytes) -> None:
        """Type into the terminal."""
        os.write(self.master, data)

    def close(self) -> int:
        """Wait for the exit code."""
        code = self.process.wait(timeout=20)
        os.close(self.master)
        return code


def test_a_dumb_terminal_gets_a_plain_line_repl_without_escape_codes(screen: Screen) -> None:
    screen.server.queue(
        chat_stream("Looking.", tool_calls=[("bash", {"command": "echo tool-said-this"})]),
        chat_stream("All **done** here."),
    )
    pty = PtyProcess(screen, {"TERM": "dumb"})
    pty.read_until(b"> ")
    pty.send(b"run it\n")
    pty.read_until(b"All **done** here.")
    pty.read_until(b"> ", timeout=20)
    pty.send(b"!echo from-bang\n")
    pty.read_until(b"from-bang\r\n")
    pty.send(b"\x04")
    assert pty.close() == 0
    assert b"\x1b" not in pty.output
    assert b"[bash]" in pty.output and b"tool-said-this" in pty.output


def test_a_resize_mid_stream_keeps_streaming(screen: Screen) -> None:
    screen.server.queue(chat_stream("resize " * 300 + "END-MARK", piece=10, chunk_delay=0.02))
    screen.start()
    screen.ready()
    screen.type("go")
    screen.keys("Enter")
    screen.wait_for("resize resize")
    screen._tmux("resize-window", "-x", "60", "-y", "30")
    shown = screen.wait_for("END-MARK")
    screen.wait_for("↑10 ↓5")
    assert "(fake) fake-model" in screen.text()
    assert shown


def test_tool_output_that_is_not_utf8_is_shown(screen: Screen) -> None:
    script = screen.cwd / "emit.py"
    script.write_text("import sys\nsys.stdout.buffer.write(b'bad \\xff\\xfe bytes\\n')\n")
    screen.server.queue(
        chat_stream("", tool_calls=[("bash", {"command": f"python3 {script}"})]),
        chat_stream("finished"),
    )
    screen.start()
    screen.ready()
    screen.type("emit")
    screen.keys("Enter")
    shown = screen.wait_for("finished")
    assert any(line.startswith("bad ") and "bytes" in line for line in stripped_lines(shown))


def test_no_tty_without_print_flag_still_runs_print_mode(screen: Screen) -> None:
    screen.server.queue(chat_stream("piped answer"))
    pi = str(Path(sys.executable).with_name("pi"))
    env = {**os.environ, "HOME": str(screen.home), "PI_CODING_AGENT_DIR": str(screen.agent_dir)}
    done = subprocess.run([pi, "question"], cwd=screen.cwd, env=env, input="", text=True,
                          capture_output=True, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "piped answer"
