"""Every third-party module a distribution imports is one of its declared dependencies."""

from __future__ import annotations

import ast
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
FIRST_PARTY = {"pi_core"} | {
    path.name.replace("-", "_") for path in (ROOT / "plugins").glob("pi-plugin-*")
}
# (pyproject.toml's folder, the folder of its importable package)
DISTRIBUTIONS = [(ROOT, ROOT / "pi_core")] + [
    (path, path / "src" / path.name.replace("-", "_"))
    for path in sorted((ROOT / "plugins").glob("pi-plugin-*"))
]


def imported_top_levels(package: Path) -> set[str]:
    """Return the top-level names of every absolute import in the package's sources."""
    names: set[str] = set()
    for source in package.rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(), str(source))):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return names


def declared(project_root: Path) -> set[str]:
    """Return the canonical names of the runtime dependencies and non-test extras."""
    project = tomllib.loads((project_root / "pyproject.toml").read_text())["project"]
    texts = list(project.get("dependencies", []))
    for extra, requirements in project.get("optional-dependencies", {}).items():
        if extra not in {"test", "dev"}:
            texts.extend(requirements)
    return {canonicalize_name(Requirement(text).name) for text in texts}


def undeclared(project_root: Path, package: Path) -> dict[str, list[str]]:
    """Return each third-party module imported but not declared, with its distributions."""
    providers = packages_distributions()
    wanted = declared(project_root)
    missing: dict[str, list[str]] = {}
    for name in sorted(imported_top_levels(package)):
        if name in sys.stdlib_module_names or name in FIRST_PARTY:
            continue
        dists: list[str] = [canonicalize_name(dist) for dist in providers.get(name, [name])]
        if not wanted & set(dists):
            missing[name] = dists
    return missing


@pytest.mark.parametrize(
    ("project_root", "package"),
    DISTRIBUTIONS,
    ids=["pi-harness", *(p.name for p, _ in DISTRIBUTIONS[1:])],
)
def test_every_imported_distribution_is_declared(project_root: Path, package: Path) -> None:
    assert undeclared(project_root, package) == {}


def test_the_check_sees_an_undeclared_import(tmp_path: Path) -> None:
    """An import of an installed but undeclared distribution is reported."""
    pyproject = '[project]\nname = "x"\ndependencies = ["pluggy>=1"]\n'
    (tmp_path / "pyproject.toml").write_text(pyproject)
    package = tmp_path / "x"
    package.mkdir()
    (package / "m.py").write_text("import os\nimport pluggy\nfrom yaml import safe_load\n")
    assert undeclared(tmp_path, package) == {"yaml": ["pyyaml"]}
