"""The plugin author's path end to end, offline: `pi plugin new hello` in a fresh virtualenv
(pi-harness installed from this checkout's wheel, so the template is what the wheel ships), the
plugin's wheel built and served from a loopback PEP 503 index, `pi install`-ed from there, listed
by `pi plugins`, and run against the fake model: its tool, flag, hook and command. Then
`pi install -e` of the same folder, where an edit applies without reinstalling.

The virtualenv sees nothing of this environment: its packages come from a wheelhouse of this
checkout's wheels (pi-harness, and pi-plugin-openai for the fake model's wire API) and of their
dependencies (and hatchling's, for the editable build) packed from this environment, installed
from files or from the loopback index; pip reads no configuration of this machine.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from pi_core.testing import FakeLLMServer, chat_models_json, chat_stream
from tests.plugin_template.simple_index import SimpleIndex
from tests.plugin_template.wheelhouse import build_wheel, repack_installed, requirement_closure

ROOT = Path(__file__).resolve().parents[2]
DEAD_INDEX = "http://127.0.0.1:9/simple/"  # the discard port: nothing listens on loopback
FIRST_PARTY = {"pi-harness": ROOT, "pi-plugin-openai": ROOT / "plugins" / "pi-plugin-openai"}

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("hatchling") is None, reason="hatchling builds the wheels"
)


@dataclass
class FreshEnv:
    """A virtualenv of its own, with a home and an agent folder of its own."""

    root: Path
    env: dict[str, str]

    @property
    def bin(self) -> Path:
        """Return the folder of its scripts."""
        return self.root / "venv" / "bin"

    @property
    def agent_dir(self) -> Path:
        """Return its PI_CODING_AGENT_DIR."""
        return Path(self.env["PI_CODING_AGENT_DIR"])

    def run(self, *args: str, cwd: Path | None = None, stdin: str | None = None,
            timeout: float = 180, **env: str) -> subprocess.CompletedProcess[str]:  # fmt: skip
        """Run one of its scripts (`pi`, `python`) with ARGS (and more environment variables)."""
        command = [str(self.bin / args[0]), *args[1:]]
        return subprocess.run(
            command, cwd=cwd or self.root, env={**self.env, **env}, input=stdin,
            capture_output=True, text=True, timeout=timeout,
        )  # fmt: skip


def isolated_env(root: Path) -> dict[str, str]:
    """The environment for the fresh virtualenv: no pip configuration of this machine (files or
    PIP_* variables), its own HOME, agent folder and caches."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PIP_", "PYTHON", "VIRTUAL_ENV"))}  # fmt: skip
    for name in ("home", "agent", "cache"):
        (root / name).mkdir()
    env.update(
        PIP_CONFIG_FILE=os.devnull,
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        PIP_NO_INPUT="1",
        HOME=str(root / "home"),
        PI_CODING_AGENT_DIR=str(root / "agent"),
        XDG_CACHE_HOME=str(root / "cache"),
        PATH=f"{root / 'venv' / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
    )
    return env


@pytest.fixture(scope="module")
def wheelhouse(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """This checkout's wheels and every wheel they (and a hatchling build) need."""
    out = tmp_path_factory.mktemp("wheelhouse")
    wheels = [build_wheel(folder, out) for folder in FIRST_PARTY.values()]
    for name in requirement_closure([*FIRST_PARTY, "hatchling"], skip=FIRST_PARTY):
        wheels.append(repack_installed(name, out))
    wheels.append(repack_installed("hatchling", out))
    return wheels


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory, wheelhouse: list[Path]) -> FreshEnv:
    """A new virtualenv (not seeing this one's packages) with pi-harness and pi-plugin-openai
    installed from the wheelhouse and nothing else."""
    root = tmp_path_factory.mktemp("fresh")
    fresh = FreshEnv(root, isolated_env(root))
    made = subprocess.run([sys.executable, "-m", "venv", str(root / "venv")], env=fresh.env,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    if made.returncode != 0:
        pytest.skip(f"cannot create a virtualenv with pip offline: {made.stderr[-400:]}")
    folder = wheelhouse[0].parent
    done = fresh.run("python", "-m", "pip", "install", "--no-index", "--find-links", str(folder),
                     "pi-harness", "pi-plugin-openai")  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    where = fresh.run("python", "-c", "import pi_core; print(pi_core.__file__)")
    assert where.stdout.startswith(str(root / "venv")), where.stdout + where.stderr
    return fresh


@pytest.fixture(scope="module")
def published(fresh: FreshEnv, wheelhouse: list[Path]) -> Iterator[tuple[Path, SimpleIndex]]:
    """`pi plugin new hello` run by the fresh pi, its wheel built, and an index serving it with
    the wheelhouse."""
    made = fresh.run("pi", "plugin", "new", "hello")
    assert made.returncode == 0, made.stderr
    source = fresh.root / "pi-plugin-hello"
    wheel = build_wheel(source, fresh.root / "dist")
    with SimpleIndex([wheel, *wheelhouse]) as index:
        yield source, index


@pytest.fixture
def fake_model(fresh: FreshEnv) -> Iterator[FakeLLMServer]:
    """The fake model server, as provider `fake` in the fresh agent folder's models.json."""
    with FakeLLMServer() as server:
        models = chat_models_json(f"{server.base_url}/v1")
        (fresh.agent_dir / "models.json").write_text(json.dumps(models))
        yield server


def ask_to_greet(fresh: FreshEnv, server: FakeLLMServer, *flags: str) -> list[dict[str, object]]:
    """`pi -p "Greet Ada"` where the fake model calls the `hello` tool; return the two requests."""
    server.queue(chat_stream(tool_calls=[("hello", {"name": "Ada"})]), chat_stream("Greeted."))
    done = fresh.run("pi", "--model", "fake/fake-model", *flags, "-p", "Greet Ada")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == "Greeted."
    first, second = (request.json() for request in server.requests)
    return [first, second]


def tool_messages(request: dict[str, object]) -> list[object]:
    """The tool results a Chat Completions request carries."""
    messages = request["messages"]
    assert isinstance(messages, list)
    return [m["content"] for m in messages if m["role"] == "tool"]


def test_pi_install_from_the_index_then_the_plugin_runs(
    fresh: FreshEnv, published: tuple[Path, SimpleIndex], fake_model: FakeLLMServer
) -> None:
    _, index = published
    done = fresh.run("pi", "install", "pi-plugin-hello", "--index-url", index.url)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "/simple/pi-plugin-hello/" in index.requested
    assert "/files/pi_plugin_hello-0.1.0-py3-none-any.whl" in index.requested
    settings = json.loads((fresh.agent_dir / "settings.json").read_text())
    assert settings["plugins"] == ["pi-plugin-hello"]
    asked = index.requested.count("/simple/pi-plugin-hello/")
    updated = fresh.run("pi", "update", "pi-plugin-hello", "--index-url", index.url)
    assert updated.returncode == 0, updated.stdout + updated.stderr
    assert index.requested.count("/simple/pi-plugin-hello/") > asked

    listed = fresh.run("pi", "plugins", "--json")
    assert listed.returncode == 0, listed.stderr
    (hello,) = [p for p in json.loads(listed.stdout)["plugins"] if p["name"] == "hello"]
    assert "pi-plugin-hello 0.1.0" in hello["source"]
    assert hello["registered"] == {"tools": ["hello"], "commands": ["hello"],
                                   "flags": ["hello-greeting"]}  # fmt: skip
    assert "before_agent_start" in hello["hooks"]

    first, second = ask_to_greet(fresh, fake_model, "--hello-greeting", "Howdy")
    assert "use the hello tool" in json.dumps(first["messages"])  # the hook's system prompt
    assert tool_messages(second) == ["Howdy, Ada!"]  # the tool ran, with the flag's greeting


def test_the_command_answers_in_rpc_mode(
    fresh: FreshEnv, published: tuple[Path, SimpleIndex], fake_model: FakeLLMServer
) -> None:
    _, index = published
    fresh.run("pi", "remove", "pi-plugin-hello")  # if an earlier test installed it
    asked = index.requested.count("/simple/pi-plugin-hello/")
    # The main index is a closed loopback port: the plugin comes from the extra one.
    installed = fresh.run("pi", "install", "pi-plugin-hello", "--extra-index-url", index.url,
                          PIP_INDEX_URL=DEAD_INDEX, PIP_RETRIES="0")  # fmt: skip
    assert installed.returncode == 0, installed.stdout + installed.stderr
    assert index.requested.count("/simple/pi-plugin-hello/") > asked
    rpc = subprocess.Popen(
        [str(fresh.bin / "pi"), "--model", "fake/fake-model", "--hello-greeting", "Hi",
         "--mode", "rpc"],
        cwd=fresh.root, env=fresh.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    watchdog = threading.Timer(60, rpc.kill)
    watchdog.start()
    try:
        assert rpc.stdin is not None and rpc.stdout is not None
        rpc.stdin.write(json.dumps({"type": "prompt", "message": "/hello Grace"}) + "\n")
        rpc.stdin.flush()
        seen = []
        for line in rpc.stdout:  # until the notification arrives (or pi exits)
            seen.append(json.loads(line))
            if seen[-1].get("method") == "notify":
                break
        rpc.stdin.close()
        rpc.wait()
    finally:
        watchdog.cancel()
        rpc.kill()
    assert seen and seen[-1].get("message") == "Hi, Grace!", seen
    assert fake_model.requests == []  # a command, not a prompt for the model


def test_pi_install_editable_runs_the_working_copy(
    fresh: FreshEnv, published: tuple[Path, SimpleIndex], fake_model: FakeLLMServer
) -> None:
    source, index = published
    # pip's isolated editable build asks for `editables`, which this offline wheelhouse may not
    # have (hatchling does not use it for this project): build with the venv's own hatchling.
    added = fresh.run("python", "-m", "pip", "install", "--index-url", index.url, "hatchling")
    assert added.returncode == 0, added.stdout + added.stderr
    done = fresh.run("pi", "install", "-e", "./pi-plugin-hello", "--index-url", index.url,
                     "--", "--no-build-isolation")  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    module = source / "src" / "pi_plugin_hello" / "__init__.py"
    module.write_text(module.read_text().replace('DEFAULT_GREETING = "Hello"',
                                                 'DEFAULT_GREETING = "Ahoy"'))  # fmt: skip

    listed = fresh.run("pi", "plugins", "--json")
    (hello,) = [p for p in json.loads(listed.stdout)["plugins"] if p["name"] == "hello"]
    assert "pi-plugin-hello 0.1.0" in hello["source"]
    settings = json.loads((fresh.agent_dir / "settings.json").read_text())
    assert settings["plugins"] == ["-e ../pi-plugin-hello"]  # from the settings file's folder

    _, second = ask_to_greet(fresh, fake_model)
    assert tool_messages(second) == ["Ahoy, Ada!"]  # the edited source, not an installed copy
