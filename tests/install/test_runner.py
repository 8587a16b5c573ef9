"""Which installer runs, the command lines it gets, and how a failure reads."""

from __future__ import annotations

import sys

import pytest

from pi_core.install.errors import InstallerFailed, InstallError
from pi_core.install.runner import InstallTool, choose_tool, run_subprocess

PY = "/env/bin/python"


def pick(env: dict[str, str], *, uv: str | None, pip: bool) -> InstallTool:
    return choose_tool(PY, env, which=lambda _: uv, has_pip=lambda: pip)


def test_pip_when_the_environment_has_it_else_uv() -> None:
    assert pick({}, uv="/bin/uv", pip=True) == InstallTool("pip", PY)
    assert pick({}, uv="/bin/uv", pip=False) == InstallTool("uv", PY, "/bin/uv")
    assert pick({"PI_INSTALLER": "uv"}, uv="/bin/uv", pip=True) == InstallTool("uv", PY, "/bin/uv")
    assert pick({"PI_INSTALLER": " PIP "}, uv="/bin/uv", pip=True).kind == "pip"


@pytest.mark.parametrize(
    ("env", "uv", "pip", "message"),
    [
        ({}, None, False, "has no pip and uv is not on PATH"),
        ({"PI_INSTALLER": "uv"}, None, True, "uv is not on PATH"),
        ({"PI_INSTALLER": "pip"}, "/bin/uv", False, "-m ensurepip"),
        ({"PI_INSTALLER": "conda"}, "/bin/uv", True, "must be 'pip' or 'uv'"),
    ],
)
def test_no_usable_installer(env: dict[str, str], uv: str | None, pip: bool, message: str) -> None:
    with pytest.raises(InstallError, match=message):
        pick(env, uv=uv, pip=pip)


def test_default_is_this_interpreter() -> None:
    tool = choose_tool(environ={}, which=lambda _: None, has_pip=lambda: True)
    assert tool.python == sys.executable


def test_command_lines() -> None:
    pip, uv = InstallTool("pip", PY), InstallTool("uv", PY, "/bin/uv")
    assert pip.install(["pi-plugin-foo"]) == [
        PY, "-m", "pip", "install", "--disable-pip-version-check", "pi-plugin-foo"
    ]  # fmt: skip
    assert pip.install(["x"], upgrade=True, name="x", extra=["--pre"])[-3:] == [
        "--upgrade", "--pre", "x"
    ]  # fmt: skip
    assert pip.uninstall(["x"]) == [
        PY, "-m", "pip", "uninstall", "--disable-pip-version-check", "-y", "x"
    ]  # fmt: skip
    assert uv.install(["-e", "/src/x"]) == [
        "/bin/uv",
        "pip",
        "install",
        "--python",
        PY,
        "-e",
        "/src/x",
    ]
    assert uv.install(["x"], upgrade=True, name="x")[5:] == ["--upgrade-package", "x", "x"]
    assert uv.install(["git+https://h/o/r"], upgrade=True)[5:] == ["--upgrade", "git+https://h/o/r"]
    assert uv.uninstall(["x"]) == ["/bin/uv", "pip", "uninstall", "--python", PY, "x"]
    assert (pip.label, uv.label) == ("pip", "uv pip")


def test_failure_messages() -> None:
    assert str(InstallerFailed("pip install", 2, "")) == (
        "pip install failed (exit 2); it wrote nothing to stderr"
    )
    short = InstallerFailed("pip install", 1, "\nERROR: a\n\nERROR: b\n")
    assert str(short) == "pip install failed (exit 1); its stderr:\n  ERROR: a\n  ERROR: b"


def test_run_subprocess_captures_stderr_and_survives_a_missing_program() -> None:
    result = run_subprocess(
        [sys.executable, "-c", "import sys; sys.stderr.write('boom\\n'); sys.exit(3)"]
    )
    assert (result.returncode, result.stderr) == (3, "boom\n")
    missing = run_subprocess(["/nonexistent/installer"])
    assert missing.returncode == 127 and "cannot run /nonexistent/installer" in missing.stderr
