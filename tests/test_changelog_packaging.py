"""CHANGELOG.md ships inside the `pi-harness` wheel, and `/changelog` reads it from there."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]

READER = """
import pi_core
from pi_core.resources.changelog import changelog_text
print(pi_core.__file__)
print(changelog_text())
"""


def installed_core_wheel(tmp_path: Path) -> Path:
    """Build the pi-harness wheel and unpack it as pip would into site-packages; return that."""
    if importlib.util.find_spec("hatchling") is None:
        pytest.skip("hatchling is not installed")
    subprocess.run(
        [sys.executable, "-m", "hatchling", "build", "-t", "wheel", "-d", str(tmp_path / "dist")],
        cwd=ROOT, check=True, capture_output=True,
    )  # fmt: skip
    (wheel,) = (tmp_path / "dist").glob("pi_harness-*.whl")
    installed = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(installed)
    return installed


def test_wheel_carries_the_changelog_and_the_reader_finds_it(tmp_path: Path) -> None:
    installed = installed_core_wheel(tmp_path)
    expected = (ROOT / "CHANGELOG.md").read_text()
    assert (installed / "pi_core" / "CHANGELOG.md").read_text() == expected
    assert not (installed / "CHANGELOG.md").exists()  # no checkout around the package
    env = {**os.environ, "PYTHONPATH": str(installed)}
    done = subprocess.run([sys.executable, "-c", READER], cwd=tmp_path, env=env,
                          capture_output=True, text=True, check=True)  # fmt: skip
    imported_from, text = done.stdout.split("\n", 1)
    assert imported_from == str(installed / "pi_core" / "__init__.py")
    assert text.rstrip("\n") == expected.rstrip("\n")
