"""A fake installer: records every command line and "installs" by writing dist-info folders into
a site folder at the front of sys.path, so the real metadata lookups see the result."""

from __future__ import annotations

import importlib
import json
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from pi_core.install.operations import PluginInstaller
from pi_core.install.records import PluginRecords
from pi_core.install.runner import InstallTool, RunResult
from pi_core.install.spec import normalize_name

PYTHON = "/env/bin/python"


@dataclass
class Package:
    """What installing one target puts in the environment."""

    name: str
    version: str = "1.0.0"
    entry_points: dict[str, str] = field(default_factory=lambda: {"demo": "demo_module"})
    direct_url: dict[str, object] | None = None


def write_dist(site: Path, package: Package) -> Path:
    """Write a minimal `.dist-info` folder for `package` into `site`."""
    folder = site / f"{package.name.replace('-', '_')}-{package.version}.dist-info"
    folder.mkdir(parents=True)
    (folder / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {package.name}\nVersion: {package.version}\n"
    )
    if package.entry_points:
        lines = "".join(f"{k} = {v}\n" for k, v in package.entry_points.items())
        (folder / "entry_points.txt").write_text(f"[pi]\n{lines}")
        for module in package.entry_points.values():
            (site / f"{module}.py").write_text('"""A plugin with no hooks."""\n')
    if package.direct_url is not None:
        (folder / "direct_url.json").write_text(json.dumps(package.direct_url))
    importlib.invalidate_caches()
    return folder


def remove_dist(site: Path, name: str) -> bool:
    """Delete the dist-info folders of distribution `name` from `site`."""
    removed = False
    for folder in site.glob("*.dist-info"):
        if normalize_name(
            folder.name.removesuffix(".dist-info").rsplit("-", 1)[0]
        ) == normalize_name(name):
            shutil.rmtree(folder)
            removed = True
    importlib.invalidate_caches()
    return removed


class FakeRunner:
    """Records command lines; `packages` maps an install target to what it installs."""

    def __init__(self, site: Path) -> None:
        self.site = site
        self.calls: list[list[str]] = []
        self.packages: dict[str, Package] = {}
        self.result: RunResult | None = None

    def __call__(self, argv: Sequence[str]) -> RunResult:
        self.calls.append(list(argv))
        if self.result is not None:
            return self.result
        action = argv[3]
        if action == "install":
            package = self.packages.get(argv[-1])
            if package is None:
                return RunResult(1, f"ERROR: No matching distribution found for {argv[-1]}\n")
            remove_dist(self.site, package.name)
            write_dist(self.site, package)
        elif action == "uninstall":
            for name in argv[argv.index("-y") + 1 :]:
                remove_dist(self.site, name)
        return RunResult(0, "")

    def offer(
        self,
        target: str,
        name: str,
        version: str = "1.0.0",
        entry_points: dict[str, str] | None = None,
        direct_url: dict[str, object] | None = None,
    ) -> None:
        """Make `target` installable as distribution `name` (one `pi` entry point by default)."""
        points = {"demo": "demo_module"} if entry_points is None else entry_points
        self.packages[target] = Package(name, version, points, direct_url)

    def preinstall(self, name: str, version: str = "1.0.0", **kwargs: object) -> None:
        """Put a distribution in the environment without a command."""
        points = kwargs.get("entry_points", {"demo": "demo_module"})
        direct = kwargs.get("direct_url")
        write_dist(self.site, Package(name, version, points, direct))  # type: ignore[arg-type]


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty site folder at the front of sys.path."""
    folder = tmp_path / "site"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))
    return folder


@pytest.fixture
def runner(site: Path) -> FakeRunner:
    """A fake pip writing into `site`."""
    return FakeRunner(site)


@dataclass
class Harness:
    """An installer over real settings files, with the fake runner and the messages it gave."""

    installer: PluginInstaller
    runner: FakeRunner
    agent: Path
    project: Path
    said: list[str]
    warned: list[str]

    def settings(self, scope: str = "global") -> dict[str, object]:
        """Return a scope's settings file as JSON."""
        path = self.agent if scope == "global" else self.project / ".pi"
        return json.loads((path / "settings.json").read_text())

    def settings_path(self, scope: str = "global") -> Path:
        """Return a scope's settings file."""
        return (self.agent if scope == "global" else self.project / ".pi") / "settings.json"

    def pip_install(self, *targets: str) -> list[str]:
        """Return the pip install command line the installer runs."""
        return [PYTHON, "-m", "pip", "install", "--disable-pip-version-check", *targets]

    def pip_uninstall(self, *names: str) -> list[str]:
        """Return the pip uninstall command line the installer runs."""
        return [PYTHON, "-m", "pip", "uninstall", "--disable-pip-version-check", "-y", *names]

    def reload(self) -> Harness:
        """Return a fresh installer over the same files (as a new `pi` run would)."""
        self.installer = make_harness(
            self.runner, self.agent, self.project, self.said, self.warned
        ).installer
        return self


def make_harness(
    runner: FakeRunner,
    agent: Path,
    project: Path,
    said: list[str] | None = None,
    warned: list[str] | None = None,
) -> Harness:
    """Build an installer with pip aimed at a fake Python, reporting into lists."""
    said = [] if said is None else said
    warned = [] if warned is None else warned
    installer = PluginInstaller(
        PluginRecords.create(project, agent),
        runner=runner,
        tool=InstallTool("pip", PYTHON),
        say=said.append,
        warn=warned.append,
    )
    return Harness(installer, runner, agent, project, said, warned)


@pytest.fixture
def harness(runner: FakeRunner, isolated_agent_dir: Path, project: Path) -> Harness:
    """An installer for `project` and the isolated agent dir."""
    return make_harness(runner, isolated_agent_dir, project)
