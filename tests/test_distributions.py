"""Every first-party distribution builds into a wheel and an sdist that could go to PyPI as-is.

Each is built with hatchling (the build backend every pyproject.toml names) into a temporary
folder; the archives are then opened and their files and metadata checked.
"""

from __future__ import annotations

import email
import email.message
import importlib.util
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
ROOTS = [ROOT, *sorted((ROOT / "plugins").glob("pi-plugin-*"))]
SDIST_EXTRAS = {"PKG-INFO", ".gitignore"}
URL_LABELS = {"Homepage", "Source", "Issues", "Changelog"}
FIRST_PARTY = {"pi-harness", *(path.name for path in ROOTS[1:])}
# A markdown link or image whose target has no scheme (`docs/x.md`, `../../docs/x.md`).
RELATIVE_LINK = re.compile(r"\]\((?![a-z][a-z0-9+.-]*:|#)([^)\s]+)\)")

pytestmark = [
    pytest.mark.skipif(
        importlib.util.find_spec("hatchling") is None, reason="hatchling is not installed"
    ),
    pytest.mark.slow,
]


@dataclass
class Built:
    """One distribution's source folder, wheel and sdist."""

    root: Path
    wheel: Path
    sdist: Path

    def wheel_names(self) -> list[str]:
        """Return the file names inside the wheel."""
        with zipfile.ZipFile(self.wheel) as archive:
            return archive.namelist()

    def sdist_names(self) -> list[str]:
        """Return the file names inside the sdist, without its `name-version/` prefix."""
        with tarfile.open(self.sdist) as archive:
            return [name.split("/", 1)[1] for name in archive.getnames() if "/" in name]

    def metadata(self) -> email.message.Message:
        """Return the wheel's METADATA, parsed."""
        with zipfile.ZipFile(self.wheel) as archive:
            (name,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
            return email.message_from_bytes(archive.read(name))


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Built]:
    """Build every distribution's wheel and sdist once for this module."""
    out: dict[str, Built] = {}
    for root in ROOTS:
        dist = tmp_path_factory.mktemp(root.name)
        subprocess.run(
            [sys.executable, "-m", "hatchling", "build", "-t", "wheel", "-t", "sdist",
             "-d", str(dist)],
            cwd=root, check=True, capture_output=True,
        )  # fmt: skip
        (wheel,) = dist.glob("*.whl")
        (sdist,) = dist.glob("*.tar.gz")
        out[_key(root)] = Built(root, wheel, sdist)
    return out


def _key(root: Path) -> str:
    return "pi-harness" if root == ROOT else root.name


def _names() -> list[str]:
    return [_key(root) for root in ROOTS]


@pytest.mark.parametrize("name", _names())
def test_licence_ships_in_wheel_and_sdist(built: dict[str, Built], name: str) -> None:
    dist = built[name]
    license_text = (ROOT / "LICENSE").read_text()
    assert "MIT License" in license_text
    assert (dist.root / "LICENSE").read_text() == license_text
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in dist.wheel_names())
    assert "LICENSE" in dist.sdist_names()


@pytest.mark.parametrize("name", _names())
def test_metadata_is_complete(built: dict[str, Built], name: str) -> None:
    meta = built[name].metadata()
    assert meta["License-Expression"] == "MIT"
    assert meta["License-File"] == "LICENSE"
    assert meta["Author"]
    labels = {url.split(",", 1)[0] for url in meta.get_all("Project-URL") or []}
    assert labels >= URL_LABELS
    classifiers = meta.get_all("Classifier") or []
    assert "Typing :: Typed" in classifiers
    assert "License :: OSI Approved :: MIT License" not in classifiers  # the expression says it
    assert meta["Description-Content-Type"] == "text/markdown"
    assert str(meta.get_payload()).strip()  # the README


@pytest.mark.parametrize("name", _names())
def test_readme_has_no_relative_links(built: dict[str, Built], name: str) -> None:
    description = str(built[name].metadata().get_payload())
    assert RELATIVE_LINK.findall(description) == []


@pytest.mark.parametrize("name", _names())
def test_every_dependency_is_bounded_and_first_party_ones_to_the_core_minor(
    built: dict[str, Built], name: str
) -> None:
    meta = built[name].metadata()
    version = meta["Version"]
    minor = ".".join(version.split(".")[:2])
    requirements = [Requirement(text) for text in meta.get_all("Requires-Dist") or []]
    assert requirements
    for requirement in requirements:
        if requirement.marker is not None and "extra" in str(requirement.marker):
            continue  # development and test tools
        operators = {spec.operator for spec in requirement.specifier}
        assert operators & {">=", "==", "~="}, f"{requirement} has no lower bound"
        if requirement.name in FIRST_PARTY:
            assert version in requirement.specifier, requirement
            assert "<" in operators, f"{requirement} has no upper bound"
            assert str(requirement.specifier) == f"<{_next_minor(minor)},>={minor}", requirement


def _next_minor(minor: str) -> str:
    major, number = minor.split(".")
    return f"{major}.{int(number) + 1}"


def test_all_distributions_share_the_core_version(built: dict[str, Built]) -> None:
    versions = {name: dist.metadata()["Version"] for name, dist in built.items()}
    assert len(set(versions.values())) == 1, versions


def test_pinned_internals_are_bounded_above(built: dict[str, Built]) -> None:
    """The core reaches into httpx/httpcore and prompt_toolkit internals: their minor is pinned."""
    meta = built["pi-harness"].metadata()
    by_name = {r.name: r for r in map(Requirement, meta.get_all("Requires-Dist") or [])}
    for name in ("httpx", "httpcore", "prompt-toolkit"):
        assert any(spec.operator == "<" for spec in by_name[name].specifier), name


@pytest.mark.parametrize("name", _names())
def test_wheel_carries_py_typed(built: dict[str, Built], name: str) -> None:
    packages = {n.split("/", 1)[0] for n in built[name].wheel_names() if "/" in n}
    packages = {p for p in packages if not p.endswith(".dist-info")}
    assert packages
    for package in packages:
        assert f"{package}/py.typed" in built[name].wheel_names()


def test_core_sdist_carries_only_the_core(built: dict[str, Built]) -> None:
    names = built["pi-harness"].sdist_names()
    tops = {name.split("/", 1)[0] for name in names}
    # hatchling always adds PKG-INFO and the repository's .gitignore
    assert (
        tops
        == {"pi_core", "docs", "README.md", "CHANGELOG.md", "LICENSE", "pyproject.toml"}
        | SDIST_EXTRAS
    )
    assert {f"docs/{page.name}" for page in (ROOT / "docs").glob("*.md")} <= set(names)
    # the pages the wheel ships (the system prompt names them), so a wheel built from the sdist
    # is the same
    assert "pi_core/py.typed" in names
    assert not [n for n in names if "__pycache__" in n]


def test_core_carries_the_plugin_template(built: dict[str, Built]) -> None:
    """`pi plugin new` renders these files from the installed package."""
    template = ROOT / "pi_core" / "plugin_template" / "files"
    files = {f"pi_core/plugin_template/files/{p.relative_to(template).as_posix()}"
             for p in template.rglob("*.tmpl")}  # fmt: skip
    assert files
    assert files <= set(built["pi-harness"].wheel_names())
    assert files <= set(built["pi-harness"].sdist_names())


@pytest.mark.parametrize("name", _names()[1:])
def test_plugin_sdist_carries_only_the_plugin(built: dict[str, Built], name: str) -> None:
    package = name.replace("-", "_")
    tops = {n.split("/", 1)[0] for n in built[name].sdist_names()}
    assert tops <= {"src", "tests", "README.md", "LICENSE", "pyproject.toml"} | SDIST_EXTRAS
    sources = {n.split("/")[1] for n in built[name].sdist_names() if n.startswith("src/")}
    assert sources == {package}


def test_twine_accepts_every_archive(built: dict[str, Built]) -> None:
    twine = shutil.which("twine")
    if twine is None:
        pytest.skip("twine is not installed")
    files = [str(path) for dist in built.values() for path in (dist.wheel, dist.sdist)]
    done = subprocess.run([twine, "check", "--strict", *files], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_each_sdist_builds_the_same_wheel(
    built: dict[str, Built], tmp_path_factory: pytest.TempPathFactory
) -> None:
    """What pip does with an sdist: unpack it and build a wheel; nothing may be missing."""
    for name, dist in built.items():
        unpacked = tmp_path_factory.mktemp(f"{name}-unpacked")
        with tarfile.open(dist.sdist) as archive:
            if hasattr(tarfile, "data_filter"):  # Python 3.11.4 and later
                archive.extractall(unpacked, filter="data")
            else:  # our own archive, just built
                archive.extractall(unpacked)
        (source,) = unpacked.iterdir()
        subprocess.run(
            [sys.executable, "-m", "hatchling", "build", "-t", "wheel", "-d", str(unpacked / "w")],
            cwd=source, check=True, capture_output=True,
        )  # fmt: skip
        (wheel,) = (unpacked / "w").glob("*.whl")
        with zipfile.ZipFile(wheel) as archive:
            assert sorted(archive.namelist()) == sorted(dist.wheel_names()), name


def test_core_wheel_and_sdist_ship_the_model_catalog(built: dict[str, Built]) -> None:
    files = {f"pi_core/ai/catalog/{path.name}" for path in (ROOT / "pi_core/ai/catalog").iterdir()}
    assert "pi_core/ai/catalog/index.json" in files and len(files) == 32
    assert files <= set(built["pi-harness"].wheel_names())
    assert files <= set(built["pi-harness"].sdist_names())
