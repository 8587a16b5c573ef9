"""Which installer runs, and running it.

pi installs into the environment it runs in (`sys.executable`). It uses that environment's own
pip (`python -m pip`) when it has one, because that is what the environment was set up with and
it honours the user's pip configuration (index URLs, certificates). Environments without pip (those
made by `uv venv` or `uv tool install`) use `uv pip … --python <that python>` when `uv` is on PATH.
`PI_INSTALLER=pip` or `PI_INSTALLER=uv` forces the choice.

Commands run through a `Runner`, a callable taking the argument list, so tests can record them.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from pi_core.install.errors import InstallError

INSTALLER_ENV = "PI_INSTALLER"
ToolKind = Literal["pip", "uv"]


@dataclass(frozen=True)
class RunResult:
    """How an installer command ended: its exit code and what it wrote to stderr."""

    returncode: int
    stderr: str = ""


class Runner(Protocol):
    """Runs one installer command line."""

    def __call__(self, argv: Sequence[str]) -> RunResult:
        """Run `argv` and return how it ended."""
        ...


def run_subprocess(argv: Sequence[str]) -> RunResult:
    """Run `argv` with its stdout passed through to ours and its stderr captured."""
    try:
        completed = subprocess.run(list(argv), stderr=subprocess.PIPE, text=True, check=False)
    except OSError as error:
        return RunResult(127, f"cannot run {argv[0]}: {error}")
    return RunResult(completed.returncode, completed.stderr or "")


@dataclass(frozen=True)
class InstallTool:
    """pip or uv, aimed at one Python environment; builds the command lines."""

    kind: ToolKind
    python: str
    uv: str = "uv"

    @property
    def label(self) -> str:
        """Return the name to show users: `pip` or `uv pip`."""
        return "pip" if self.kind == "pip" else "uv pip"

    def _command(self, action: str) -> list[str]:
        if self.kind == "pip":
            return [self.python, "-m", "pip", action, "--disable-pip-version-check"]
        return [self.uv, "pip", action, "--python", self.python]

    def install(
        self,
        targets: Sequence[str],
        *,
        upgrade: bool = False,
        name: str | None = None,
        extra: Sequence[str] = (),
    ) -> list[str]:
        """Return the command that installs `targets` (upgrading them when asked)."""
        argv = self._command("install")
        if upgrade:
            # uv's --upgrade would upgrade every dependency too; pip's upgrades only what it must.
            argv += ["--upgrade-package", name] if self.kind == "uv" and name else ["--upgrade"]
        return [*argv, *extra, *targets]

    def uninstall(self, names: Sequence[str]) -> list[str]:
        """Return the command that uninstalls the distributions `names`, without asking."""
        argv = self._command("uninstall")
        return [*argv, "-y", *names] if self.kind == "pip" else [*argv, *names]


def _has_pip() -> bool:
    return importlib.util.find_spec("pip") is not None


def choose_tool(
    python: str | None = None,
    environ: Mapping[str, str] | None = None,
    which: Callable[[str], str | None] = shutil.which,
    has_pip: Callable[[], bool] = _has_pip,
) -> InstallTool:
    """Pick pip or uv for the environment pi runs in; raise InstallError when neither works."""
    python = python or sys.executable
    environ = os.environ if environ is None else environ
    wanted = environ.get(INSTALLER_ENV, "").strip().lower()
    if wanted not in ("", "pip", "uv"):
        raise InstallError(f"{INSTALLER_ENV} must be 'pip' or 'uv', not {wanted!r}")
    uv = which("uv")
    if wanted == "uv":
        if uv is None:
            raise InstallError(f"{INSTALLER_ENV}=uv, but uv is not on PATH")
        return InstallTool("uv", python, uv)
    if has_pip():
        return InstallTool("pip", python)
    if wanted == "pip":
        raise InstallError(
            f"{INSTALLER_ENV}=pip, but {python} has no pip; run `{python} -m ensurepip` first"
        )
    if uv is not None:
        return InstallTool("uv", python, uv)
    raise InstallError(
        f"cannot install: {python} has no pip and uv is not on PATH; "
        f"run `{python} -m ensurepip` or install uv"
    )
