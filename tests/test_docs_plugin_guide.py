"""docs/writing-a-plugin.md shows only checked code: each block is a file that mypy --strict
checks and this suite runs, and its example distribution builds, installs and works."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest

from pi_core import TextContent, __version__, make_tool_result_event
from pi_core.events import SessionShutdownEvent, SessionStartEvent
from pi_core.plugins.manager import PluginManager
from pi_core.testing import FakeLLMServer, chat_models_json, chat_stream, execute_tool_call
from tests.test_hook_examples import RecordingUI

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
GUIDE = DOCS / "writing-a-plugin.md"
HELLO = DOCS / "examples" / "pi-plugin-hello"


def load_file(path: Path, name: str) -> ModuleType:
    """Import a Python file as a module."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


sync_examples = load_file(DOCS / "sync_examples.py", "sync_examples")


def sources(page: Path) -> list[Path]:
    """The files the page's `source` markers name."""
    found = re.findall(r"^<!-- source: (\S+) -->$", page.read_text(), re.MULTILINE)
    return [(page.parent / path).resolve() for path in found]


# --- every block has a checked source -----------------------------------------------------


def test_every_code_block_of_the_guide_is_its_source_file() -> None:
    assert sync_examples.check(GUIDE) == []
    shown = sources(GUIDE)
    assert len(shown) >= 8
    assert HELLO / "pyproject.toml" in shown and HELLO / "tests" / "test_hello.py" in shown


def test_a_changed_unsourced_or_invented_block_is_caught(tmp_path: Path) -> None:
    (tmp_path / "plugin.py").write_text("x = 1\ny = 2\n")
    page = tmp_path / "page.md"
    page.write_text(
        "<!-- source: plugin.py -->\n```python\nx = 1\n```\n\n"
        "<!-- excerpt: plugin.py -->\n```python\ny = 3\n```\n\n"
        "```toml\n[project]\n```\n\n```\nplain output is not code\n```\n"
    )
    assert sync_examples.check(page) == [
        "page.md:2: differs from plugin.py (run python docs/sync_examples.py)",
        "page.md:7: is not a run of lines of plugin.py",
        "page.md:11: a ```toml block without a source marker",
    ]
    sync_examples.sync(page)
    assert page.read_text().startswith("<!-- source: plugin.py -->\n```python\nx = 1\ny = 2\n```")


def test_every_python_file_the_guide_shows_is_in_the_strict_mypy_run() -> None:
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]["files"]
    checked: set[Path] = set()
    for pattern in patterns:
        for match in ROOT.glob(pattern):
            checked |= {match} if match.is_file() else set(match.rglob("*.py"))
    shown = [path for path in sources(GUIDE) if path.suffix == ".py"]
    assert [path for path in shown if path not in checked] == []


def test_the_guides_files_pass_mypy_strict() -> None:
    shown = [str(path) for path in sources(GUIDE) if path.suffix == ".py"]
    result = subprocess.run(
        [sys.executable, "-m", "mypy", *shown],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_python_block_of_the_hook_reference_is_a_hook_example() -> None:
    text = (DOCS / "hooks.md").read_text()
    blocks = re.findall(r"^```python\n(.*?)\n```$", text, re.MULTILINE | re.DOTALL)
    examples = {
        path.read_text().split('"""', 2)[2].strip()
        for path in (DOCS / "hook_examples").glob("*.py")
    }
    assert len(blocks) == len(examples)
    assert [block for block in blocks if block.strip() not in examples] == []


# --- the code does what the guide says ---------------------------------------------------


async def test_the_smallest_plugin_hides_keys(manager: PluginManager) -> None:
    manager.register_inline(load_file(DOCS / "examples" / "no_secrets.py", "no_secrets"), "ns")
    event = make_tool_result_event("bash", "c1", {}, [TextContent(text="key sk-123")], None, False)
    patch = await manager.dispatcher.tool_result(event)
    assert patch is not None and patch.content == [TextContent(text="key sk-[hidden]123")]
    clean = make_tool_result_event("bash", "c2", {}, [TextContent(text="nothing")], None, False)
    assert await manager.dispatcher.tool_result(clean) is None


@pytest.fixture
def hello(manager: PluginManager, monkeypatch: pytest.MonkeyPatch) -> Iterator[RecordingUI]:
    """pi-plugin-hello from its source folder, loaded into `manager` with a recording UI."""
    monkeypatch.syspath_prepend(str(HELLO / "src"))
    for name in [name for name in sys.modules if name.startswith("pi_plugin_hello")]:
        monkeypatch.delitem(sys.modules, name)
    import pi_plugin_hello

    ui = RecordingUI()
    manager.runtime.ui = ui
    assert manager.register_inline(pi_plugin_hello, "hello") is not None, manager.errors
    yield ui


async def test_hello_command_and_shout_flag(manager: PluginManager, hello: RecordingUI) -> None:
    command = manager.registry.commands["hello"]
    await command.handler("Ada", manager.command_ctx)
    manager.runtime.flag_values["shout"] = True
    await command.handler("", manager.command_ctx)
    assert hello.notes == [("hello Ada", "info"), ("HELLO WORLD", "info")]


async def test_greet_schema_and_the_status_counting_greetings(
    manager: PluginManager, hello: RecordingUI
) -> None:
    greet = manager.registry.tools["greet"].tool
    assert greet.description == "Greet someone by name."
    assert greet.parameters_schema() == {
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "Who to greet"},
            "style": {"type": "string", "enum": ["plain", "pirate"], "default": "plain",
                      "description": "How to say it."},
            "times": {"type": "integer", "default": 1,
                      "description": "How many greetings, one per line."},
        },
        "required": ["name"],
    }  # fmt: skip
    await manager.dispatcher.emit(SessionStartEvent(reason="startup"))
    outcome = await execute_tool_call(greet, "c1", {"name": "Ada"}, None, None, manager.ctx)
    assert outcome.result.text_content() == "Hello, Ada!" and not outcome.is_error
    await manager.ctx.events.drain()
    assert hello.status == {"hello": "1 greeted"}
    await manager.dispatcher.emit(SessionShutdownEvent(reason="quit"))
    await execute_tool_call(greet, "c2", {"name": "Bo"}, None, None, manager.ctx)
    await manager.ctx.events.drain()
    assert hello.status == {"hello": "1 greeted"}  # no longer listening


async def test_word_count_counts_words_in_the_working_directory(
    manager: PluginManager, hello: RecordingUI, project: Path
) -> None:
    (project / "notes.txt").write_text("one two\nthree")
    word_count = manager.registry.tools["word_count"].tool
    outcome = await execute_tool_call(
        word_count, "c1", {"path": "notes.txt"}, None, None, manager.ctx
    )
    assert outcome.result.text_content() == "3 words" and outcome.result.details == {"words": 3}


# --- the distribution builds, installs and works -------------------------------------------


@pytest.fixture(scope="module")
def hello_site(
    tmp_path_factory: pytest.TempPathFactory, pip_install: Callable[[Path, Path], Path]
) -> Path:
    return pip_install(HELLO, tmp_path_factory.mktemp("hello") / "site")


def env_with(site: Path, agent: Path) -> dict[str, str]:
    path = os.pathsep.join([str(site), *sys.path])
    return {**os.environ, "PYTHONPATH": path, "PI_CODING_AGENT_DIR": str(agent)}


def test_the_built_distribution_declares_what_the_guide_says(hello_site: Path) -> None:
    (info,) = hello_site.glob("pi_plugin_hello-*.dist-info")
    metadata = (info / "METADATA").read_text()
    major, minor = (int(part) for part in __version__.split(".")[:2])
    bound = f"pi-harness<{major}.{minor + 1},>={major}.{minor}"
    assert f"Requires-Dist: {bound}" in metadata
    assert "Version: 0.1.0" in metadata and "License-Expression: MIT" in metadata
    assert "[pi]\nhello = pi_plugin_hello" in (info / "entry_points.txt").read_text()
    assert f"today `pi-harness>={major}.{minor},<{major}.{minor + 1}`" in GUIDE.read_text()


def test_pi_finds_the_installed_plugin(pi_bin: str, hello_site: Path, tmp_path: Path) -> None:
    result = subprocess.run(
        [pi_bin, "plugins", "--json"],
        cwd=tmp_path,
        env=env_with(hello_site, tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    report = json.loads(result.stdout)
    assert report["errors"] == []
    (plugin,) = [p for p in report["plugins"] if p["name"] == "hello"]
    assert plugin["source"].startswith("pi-plugin-hello 0.1.0")
    assert plugin["hooks"] == ["session_shutdown", "session_start"]
    assert plugin["registered"] == {
        "tools": ["greet", "word_count"],
        "commands": ["hello"],
        "flags": ["shout"],
    }


def test_the_installed_greet_tool_answers_the_fake_model(
    pi_bin: str, hello_site: Path, tmp_path: Path
) -> None:
    with FakeLLMServer() as server:
        (tmp_path / "models.json").write_text(json.dumps(chat_models_json(server.base_url)))
        server.queue(
            chat_stream(tool_calls=[("greet", {"name": "Ada", "times": "2"})]),
            chat_stream("Greeted twice."),
        )
        result = subprocess.run(
            [pi_bin, "--model", "fake/fake-model", "-p", "greet Ada twice"],
            cwd=tmp_path,
            env=env_with(hello_site, tmp_path),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip() == "Greeted twice."
        second = server.requests[1].json()
        answers = [m["content"] for m in second["messages"] if m["role"] == "tool"]
        assert answers == ["Hello, Ada!\nHello, Ada!"]


def test_the_examples_own_tests_pass(hello_site: Path, tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(HELLO / "tests")],
        cwd=tmp_path,
        env=env_with(hello_site, tmp_path),
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 passed" in result.stdout
