"""One run of a pi, ours or pi 0.73.1, in a fresh home against the loopback fake: the harness the
comparison scenarios share (`requests_vs_pi`, `stream_events_vs_pi`, `images_thinking_vs_pi`),
both in the tests and in the scripts that record pi's fixtures."""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pi_core.testing import console_script

REFERENCE_MODULES = "/work/pi-ref/node_modules"
"""Where pi 0.73.1's npm package is found when `PI_REF` is not set."""

UNSET = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "PI_CACHE_RETENTION")
"""The user's variables that would change what either agent sends."""


def our_pi() -> list[str]:
    """The command that runs this project's `pi`."""
    return [console_script("pi")]


def reference_pi() -> list[str]:
    """The command that runs pi 0.73.1 (its `cli.js` under `$PI_REF`, run with node)."""
    modules = Path(os.environ.get("PI_REF", REFERENCE_MODULES))
    return ["node", str(modules / "@mariozechner" / "pi-coding-agent" / "dist" / "cli.js")]


@dataclass(frozen=True)
class FakeHome:
    """`root/home` as HOME (agent dir `~/.pi/agent`) and `root/project` as the working folder."""

    root: Path

    @property
    def home(self) -> Path:
        """The HOME of the run."""
        return self.root / "home"

    @property
    def agent(self) -> Path:
        """The agent dir (PI_CODING_AGENT_DIR)."""
        return self.home / ".pi" / "agent"

    @property
    def cwd(self) -> Path:
        """The project folder the agent runs in."""
        return self.root / "project"

    @classmethod
    def create(cls, root: Path, files: dict[str, bytes] | None = None) -> FakeHome:
        """Make the folders, with `files` (name: content) in the project."""
        made = cls(root)
        made.agent.mkdir(parents=True)
        made.cwd.mkdir()
        for name, content in (files or {}).items():
            (made.cwd / name).write_bytes(content)
        return made

    def configure(self, models: dict[str, Any], settings: dict[str, Any]) -> None:
        """Write the agent dir's `models.json` and `settings.json`."""
        (self.agent / "models.json").write_text(json.dumps(models))
        (self.agent / "settings.json").write_text(json.dumps(settings))

    def env(self) -> dict[str, str]:
        """This process's environment pointed at the home, offline and without colour or keys."""
        env = {**os.environ, "HOME": str(self.home), "PI_CODING_AGENT_DIR": str(self.agent),
               "PI_OFFLINE": "1", "NO_COLOR": "1"}  # fmt: skip
        for name in UNSET:
            env.pop(name, None)
        return env

    def run(self, argv: list[str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
        """Run `argv` in the project to its end; fail unless it exits 0."""
        done = subprocess.run(
            argv, cwd=self.cwd, env=self.env(), capture_output=True, text=True,
            timeout=timeout, stdin=subprocess.DEVNULL,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr + done.stdout
        return done
