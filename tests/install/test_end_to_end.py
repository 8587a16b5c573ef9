"""A real plugin distribution, built from its pyproject.toml, installed by `pi install` with pip
into a fresh virtualenv, seen by `pi list` and `pi plugins`, and uninstalled by `pi remove`.

Offline: the virtualenv sees this environment's packages, so pi itself and hatchling, and pip
gets `--no-index --no-build-isolation`. "This environment" is whatever runs the suite: the base
interpreter (seen through `--system-site-packages`) or an outer virtualenv, whose site-packages
a `.pth` file adds, editable installs included. Skipped only when that cannot work here (no
hatchling, or no virtualenv with pip).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shlex
import site
import subprocess
import sys
from pathlib import Path
from textwrap import dedent

import pytest

pytestmark = pytest.mark.slow

OFFLINE = ["--", "--no-index", "--no-build-isolation"]

PYPROJECT = """
[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[project]
name = "pi-plugin-hello"
version = "0.3.0"
dependencies = ["pi-harness"]

[project.entry-points.pi]
hello = "pi_plugin_hello"

[tool.hatch.build.targets.wheel]
packages = ["src/pi_plugin_hello"]
"""

MODULE = """
from pi_core import hookimpl


@hookimpl
def register_commands(register):
    register("hello", lambda args, ctx: None, description="Say hello")
"""


@pytest.fixture(scope="module")
def venv_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtualenv with pip that sees this environment's packages."""
    if importlib.util.find_spec("hatchling") is None:
        pytest.skip("hatchling is not installed, so the plugin cannot be built offline")
    root = tmp_path_factory.mktemp("venv")
    made = subprocess.run(
        [sys.executable, "-m", "venv", "--system-site-packages", str(root / "venv")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    python = root / "venv" / "bin" / "python"
    if made.returncode != 0 or not python.exists():
        pytest.skip(f"cannot create a virtualenv with pip offline: {made.stderr[-400:]}")
    see_outer_site_packages(python)
    return python


def see_outer_site_packages(python: Path) -> None:
    """Make the virtualenv of `python` also see the site-packages of the Python running the tests.

    `--system-site-packages` reaches only the base interpreter's; when the suite itself runs in a
    virtualenv, pi is installed there. `site.addsitedir` (not a plain path line) also runs that
    folder's own .pth files, which is how editable installs are found. The inner site-packages
    stays first on sys.path, so what `pi install` puts there wins and `pip uninstall` removes it.
    """
    outer = [*site.getsitepackages()]
    if site.ENABLE_USER_SITE:
        outer.append(site.getusersitepackages())
    inner = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout.strip()
    lines = [f"import site; site.addsitedir({folder!r})" for folder in outer]
    (Path(inner) / "_pi_outer_environment.pth").write_text("\n".join(lines) + "\n")


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """An empty home folder: pi's settings go to <home>/.pi/agent."""
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


@pytest.fixture
def plugin_source(tmp_path: Path) -> Path:
    """The source folder of a tiny plugin distribution."""
    root = tmp_path / "work" / "pi-plugin-hello"
    package = root / "src" / "pi_plugin_hello"
    package.mkdir(parents=True)
    (root / "pyproject.toml").write_text(dedent(PYPROJECT))
    (package / "__init__.py").write_text(dedent(MODULE))
    return root


def pi(python: Path, home: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run pi with the virtualenv's Python, HOME at `home`, pip kept offline and unconfigured."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PI_", "PIP_")) and key not in ("VIRTUAL_ENV", "PYTHONPATH")
    }
    env.update(HOME=str(home), PIP_CONFIG_FILE=os.devnull, PIP_NO_INPUT="1")
    return subprocess.run(
        [str(python), "-c", "from pi_core.cli import main; main()", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def pip_show(python: Path, name: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(python), "-m", "pip", "show", name], capture_output=True, text=True, timeout=120
    )


def test_install_list_plugins_remove(venv_python: Path, home: Path, plugin_source: Path) -> None:
    cwd = plugin_source.parent
    settings = home / ".pi" / "agent" / "settings.json"

    installed = pi(venv_python, home, cwd, "install", "./pi-plugin-hello", *OFFLINE)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    assert "Installed pi-plugin-hello 0.3.0" in installed.stdout
    assert "warning" not in installed.stderr
    assert pip_show(venv_python, "pi-plugin-hello").returncode == 0
    recorded = os.path.relpath(plugin_source, settings.parent)
    assert json.loads(settings.read_text()) == {"plugins": [recorded]}

    listed = json.loads(pi(venv_python, home, cwd, "list", "--json").stdout)
    assert [(r["spec"], r["status"], r["name"], r["version"], r["entry_points"])
            for r in listed["recorded"]] == [
        (recorded, "installed", "pi-plugin-hello", "0.3.0", ["hello"])
    ]  # fmt: skip
    assert "pi-plugin-hello" not in [u["name"] for u in listed["unrecorded"]]

    report = json.loads(pi(venv_python, home, cwd, "plugins", "--json").stdout)
    hello = next(p for p in report["plugins"] if p["name"] == "hello")
    assert hello["origin"] == "installed"
    assert hello["source"].startswith("pi-plugin-hello 0.3.0")
    assert hello["registered"] == {"commands": ["hello"]}

    # Uninstalled behind pi's back: reported at start-up with the command that brings it back.
    subprocess.run(
        [str(venv_python), "-m", "pip", "uninstall", "-y", "pi-plugin-hello"],
        capture_output=True,
        check=True,
        timeout=120,
    )
    report = json.loads(pi(venv_python, home, cwd, "plugins", "--json").stdout)
    assert all(p["name"] != "hello" for p in report["plugins"])
    hint = next(e["fix"] for e in report["errors"] if e["error"] == "not installed")
    command = hint.split("install it with: ", 1)[1]
    assert command == "pi install ./pi-plugin-hello"
    again = pi(venv_python, home, cwd, *shlex.split(command)[1:], *OFFLINE)
    assert again.returncode == 0, again.stderr
    assert json.loads(settings.read_text()) == {"plugins": [recorded]}

    removed = pi(venv_python, home, cwd, "remove", "./pi-plugin-hello")
    assert removed.returncode == 0, removed.stderr
    assert "Uninstalled pi-plugin-hello 0.3.0" in removed.stdout
    assert pip_show(venv_python, "pi-plugin-hello").returncode == 1
    assert json.loads(settings.read_text()) == {"plugins": []}
    report = json.loads(pi(venv_python, home, cwd, "plugins", "--json").stdout)
    assert all(p["name"] != "hello" for p in report["plugins"])
    assert report["errors"] == []


def test_pip_failure_exits_non_zero_and_records_nothing(
    venv_python: Path, home: Path, tmp_path: Path
) -> None:
    settings = home / ".pi" / "agent" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text('{"theme": "dark"}')

    result = pi(venv_python, home, tmp_path, "install", "pi-plugin-not-anywhere", *OFFLINE)

    assert result.returncode == 1
    assert "Error: pip install failed (exit 1); its stderr" in result.stderr
    assert "No matching distribution found for pi-plugin-not-anywhere" in result.stderr
    assert settings.read_text() == '{"theme": "dark"}'
