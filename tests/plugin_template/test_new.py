"""`pi plugin new`: names, the rendered files, and a result that passes ruff, `mypy --strict`
and its own tests (run with this checkout's pi_core and the dev environment's tools)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import pi_core
from pi_core.plugin_template.names import PluginNameError, plugin_names
from pi_core.plugin_template.render import LAYOUT, core_range
from pi_core.tools.decorator import FunctionSchemaTool

TEMPLATE_FILES = Path(pi_core.__file__).parent / "plugin_template" / "files"


def pi_plugin_new(pi_bin: str, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run `pi plugin new ARGS` in `cwd`."""
    return subprocess.run(
        [pi_bin, "plugin", "new", *args], cwd=cwd, capture_output=True, text=True, timeout=60
    )


def tool(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run `python -m ARGS` with the interpreter running the tests, in `cwd`."""
    env = {**os.environ, "PYTHONPATH": str(cwd / "src")}
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=cwd, env=env, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip


def render(tmp_path_factory: pytest.TempPathFactory, name: str) -> Path:
    """Run `pi plugin new NAME` in an empty folder; return the new distribution's folder."""
    cwd = tmp_path_factory.mktemp("new")
    pi = str(Path(sys.executable).with_name("pi"))
    done = pi_plugin_new(pi, cwd, name, "--author", "Ada Lovelace")
    assert done.returncode == 0, done.stderr
    return cwd / plugin_names(name).dist


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`pi plugin new hello`, run once for the module."""
    return render(tmp_path_factory, "hello")


@pytest.fixture(scope="module", params=["hello", "the-longest-name-allowed"])
def checked(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A one-word name, and a hyphenated one as long as allowed (the lines that hold it)."""
    return render(tmp_path_factory, request.param)


@pytest.mark.parametrize("name", ["hello", "pi-plugin-hello", "pi_plugin_hello", " Hello "])
def test_every_spelling_names_the_same_plugin(name: str) -> None:
    names = plugin_names(name)
    assert (names.dist, names.package, names.entry, names.tool) == (
        "pi-plugin-hello", "pi_plugin_hello", "hello", "hello",
    )  # fmt: skip


def test_a_hyphenated_name_becomes_identifiers() -> None:
    names = plugin_names("word-count")
    assert (names.dist, names.package, names.entry, names.title) == (
        "pi-plugin-word-count", "pi_plugin_word_count", "word_count", "WordCount",
    )  # fmt: skip


@pytest.mark.parametrize(
    "name", ["", "pi-plugin-", "9lives", "two--hyphens", "dots.in.it", "ünï", "x" * 25]
)
def test_names_that_cannot_be_identifiers_are_refused(name: str) -> None:
    with pytest.raises(PluginNameError):
        plugin_names(name)


def test_the_core_range_is_the_current_minor_series() -> None:
    assert core_range("0.1.0") == ">=0.1,<0.2"
    assert core_range("1.12.3") == ">=1.12,<1.13"


def test_every_template_file_is_rendered() -> None:
    on_disk = {p.relative_to(TEMPLATE_FILES).as_posix() for p in TEMPLATE_FILES.rglob("*.tmpl")}
    assert on_disk == set(LAYOUT)


def test_the_distribution_has_its_files(generated: Path) -> None:
    files = {p.relative_to(generated).as_posix() for p in generated.rglob("*") if p.is_file()}
    assert files == {
        "pyproject.toml", "README.md", "LICENSE", ".gitignore",
        "src/pi_plugin_hello/__init__.py", "src/pi_plugin_hello/py.typed",
        "tests/test_hello.py",
    }  # fmt: skip
    assert "Ada Lovelace" in (generated / "LICENSE").read_text()
    assert "pi install -e ." in (generated / "README.md").read_text()


def test_the_project_metadata(generated: Path) -> None:
    project = tomllib.loads((generated / "pyproject.toml").read_text())
    assert project["build-system"]["build-backend"] == "hatchling.build"
    meta = project["project"]
    assert (meta["name"], meta["version"]) == ("pi-plugin-hello", "0.1.0")
    assert meta["dependencies"] == [f"pi-harness{core_range(pi_core.__version__)}"]
    assert meta["entry-points"]["pi"] == {"hello": "pi_plugin_hello"}
    assert meta["authors"] == [{"name": "Ada Lovelace"}]
    assert project["tool"]["mypy"]["strict"] is True


def load_generated(package_dir: Path) -> ModuleType:
    """Import a generated plugin's package from its folder, under a name no test shares."""
    spec = importlib.util.spec_from_file_location(
        f"generated_{package_dir.name}", package_dir / "__init__.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_tool_is_made_with_the_tool_decorator(generated: Path) -> None:
    plugin = load_generated(generated / "src" / "pi_plugin_hello")
    registered: list[Any] = []
    plugin.register_tools(registered.append)
    (made,) = registered
    assert isinstance(made, FunctionSchemaTool)  # from `@tool`, not a hand-written Tool class
    assert (made.name, made.label, made.description) == ("hello", "Hello", "Greet someone by name.")
    assert made.parameters_schema() == {
        "type": "object",
        "properties": {"name": {"type": "string", "description": "Who to greet."}},
        "required": ["name"],
    }


def test_ruff_finds_nothing(checked: Path) -> None:
    linted = tool(checked, "ruff", "check", "--no-cache", ".")
    assert linted.returncode == 0, linted.stdout + linted.stderr
    formatted = tool(checked, "ruff", "format", "--check", "--no-cache", ".")
    assert formatted.returncode == 0, formatted.stdout + formatted.stderr


def test_mypy_strict_finds_nothing(checked: Path, tmp_path: Path) -> None:
    typed = tool(checked, "mypy", "--strict", "--cache-dir", str(tmp_path / "mypy"))
    assert typed.returncode == 0, typed.stdout + typed.stderr
    assert "2 source files" in typed.stdout  # src and tests, from its own config


def test_its_own_tests_pass(checked: Path) -> None:
    ran = tool(checked, "pytest", "-q", "-p", "no:cacheprovider")
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "3 passed" in ran.stdout


def test_an_occupied_folder_is_left_alone(pi_bin: str, tmp_path: Path) -> None:
    target = tmp_path / "mine"
    target.mkdir()
    (target / "notes.txt").write_text("keep me")
    done = pi_plugin_new(pi_bin, tmp_path, "hello", "--dir", str(target))
    assert done.returncode == 1
    assert "already exists" in done.stderr
    assert [p.name for p in target.iterdir()] == ["notes.txt"]


def test_a_bad_name_is_a_usage_error(pi_bin: str, tmp_path: Path) -> None:
    done = pi_plugin_new(pi_bin, tmp_path, "two--hyphens")
    assert done.returncode == 2
    assert "lowercase letters, digits and single hyphens" in done.stderr
    assert list(tmp_path.iterdir()) == [tmp_path / "agent"]


def test_dir_and_description_are_used(pi_bin: str, tmp_path: Path) -> None:
    done = pi_plugin_new(
        pi_bin, tmp_path, "pi-plugin-word-count", "--dir", "wc", "--description", 'Counts "words"'
    )
    assert done.returncode == 0, done.stderr
    project = tomllib.loads((tmp_path / "wc" / "pyproject.toml").read_text())
    assert project["project"]["description"] == 'Counts "words"'
    assert project["project"]["entry-points"]["pi"] == {"word_count": "pi_plugin_word_count"}
    module = (tmp_path / "wc" / "src" / "pi_plugin_word_count" / "__init__.py").read_text()
    assert '@tool(name="word_count", label="WordCount")' in module


def test_help_lists_the_command(pi_bin: str, tmp_path: Path) -> None:
    env = {**os.environ, "PI_NO_HELP_CACHE": "1"}
    done = subprocess.run([pi_bin, "--help"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=60)  # fmt: skip
    assert "pi plugin new <name>" in done.stdout
