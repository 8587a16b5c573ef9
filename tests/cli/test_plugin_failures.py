"""A plugin that fails to load stops `pi` before anything runs, in every run mode (fail closed).

Each case runs the real `pi` command: exit 1, one `Error: Failed to load …` line on stderr naming
the file (or distribution) and the exception, nothing on stdout, no request to the model. `pi
plugins` lists the same failures and exits 0.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from pi_core.testing import chat_stream
from tests.cli.conftest import Cli

MODES = {
    "print": ("-p", "hi"),
    "json": ("--mode", "json", "-p", "hi"),
    "rpc": ("--mode", "rpc"),
}
RPC_INPUT = json.dumps({"type": "get_state"}) + "\n"

# A permission gate whose import fails: were it skipped, `bash` would run unguarded.
BROKEN_GATE = """\
import pi_dependency_that_is_not_installed

from pi_core import hookimpl


@hookimpl
def tool_call(event, ctx):
    if event.tool_name == "bash":
        return {"block": True, "reason": "bash is not allowed here"}
"""


def run_mode(cli: Cli, mode: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run `pi ARGS… <mode>`, with an RPC command on stdin in rpc mode."""
    return cli.run(*args, *MODES[mode], stdin=RPC_INPUT if mode == "rpc" else "")


def assert_stopped(result: subprocess.CompletedProcess[str], message: str) -> None:
    """Exit 1, the error line on stderr, nothing on stdout."""
    assert result.returncode == 1, result.stderr
    assert result.stdout == ""
    assert f"Error: {message}" in result.stderr.splitlines()


@pytest.mark.parametrize("mode", MODES)
def test_a_syntax_error_in_an_e_plugin_stops_every_mode(cli: Cli, mode: str) -> None:
    broken = cli.cwd / "broken.py"
    broken.write_text("def answer(:\n    return 42\n")
    result = run_mode(cli, mode, "-e", "broken.py")
    assert_stopped(
        result,
        f'Failed to load extension "{broken}": SyntaxError: invalid syntax '
        f"({broken}, line 1, column 12)",
    )
    assert cli.server.requests == []
    assert cli.sessions() == []


@pytest.mark.parametrize("mode", MODES)
def test_a_missing_e_path_stops_every_mode(cli: Cli, mode: str) -> None:
    result = run_mode(cli, mode, "-e", "missing.py")
    missing = cli.cwd / "missing.py"
    assert_stopped(
        result, f'Failed to load extension "{missing}": Extension path does not exist: {missing}'
    )


@pytest.mark.parametrize("mode", MODES)
def test_a_broken_plugin_in_the_project_extension_folder_stops_every_mode(
    cli: Cli, mode: str
) -> None:
    folder = cli.cwd / ".pi" / "extensions"
    folder.mkdir(parents=True)
    (folder / "gate.py").write_text(BROKEN_GATE)
    result = run_mode(cli, mode)
    assert_stopped(
        result,
        f'Failed to load extension "{folder / "gate.py"}": ModuleNotFoundError: '
        "No module named 'pi_dependency_that_is_not_installed'",
    )
    assert f"  to start without it: move it out of {folder}, or pi --block-plugin gate" in (
        result.stderr.splitlines()
    )


@pytest.mark.parametrize("mode", MODES)
def test_a_broken_plugin_named_in_settings_extensions_stops_every_mode(cli: Cli, mode: str) -> None:
    plugin = cli.cwd / "tools" / "counter.py"
    plugin.parent.mkdir()
    plugin.write_text("raise RuntimeError('counter needs COUNTER_HOME')\n")
    cli.settings(defaultProvider="fake", defaultModel="fake-model", extensions=[str(plugin)])
    result = run_mode(cli, mode)
    assert_stopped(
        result,
        f'Failed to load extension "{plugin}": RuntimeError: counter needs COUNTER_HOME',
    )


def test_a_missing_path_in_settings_extensions_stops_start_up(cli: Cli) -> None:
    cli.settings(defaultProvider="fake", defaultModel="fake-model", extensions=["gone.py"])
    result = cli.run("-p", "hi")
    gone = cli.agent_dir / "gone.py"
    assert_stopped(
        result, f'Failed to load extension "{gone}": Extension path does not exist: {gone}'
    )


def test_a_registration_hook_that_raises_stops_start_up(cli: Cli) -> None:
    plugin = cli.cwd / "tools.py"
    plugin.write_text(
        "from pi_core import hookimpl\n\n"
        "@hookimpl\n"
        "def register_tools(register):\n"
        "    raise ValueError('no tools today')\n"
    )
    result = cli.run("-e", str(plugin), "-p", "hi")
    assert_stopped(result, f'Failed to load extension "{plugin}": ValueError: no tools today')


def test_a_typescript_extension_named_with_e_stops_start_up(cli: Cli) -> None:
    (cli.cwd / "gate.ts").write_text("export default function (pi) {}\n")
    result = cli.run("-e", "gate.ts", "-p", "hi")
    assert result.returncode == 1
    assert f'Error: Failed to load extension "{cli.cwd / "gate.ts"}": TypeScript' in result.stderr


@pytest.mark.parametrize("mode", ["print", "rpc"])
def test_a_gate_that_fails_to_import_never_lets_bash_run(cli: Cli, mode: str) -> None:
    (cli.cwd / "gate.py").write_text(BROKEN_GATE)
    marker = cli.cwd / "bash-ran"
    cli.server.queue(
        chat_stream(tool_calls=[("bash", {"command": f"touch {marker}"})]), chat_stream("done")
    )
    prompt = json.dumps({"type": "prompt", "message": "clean up"}) + "\n"
    if mode == "rpc":
        result = cli.run("-e", "gate.py", "--mode", "rpc", stdin=prompt)
    else:
        result = cli.run("-e", "gate.py", "-p", "clean up")
    assert result.returncode == 1
    assert "No module named 'pi_dependency_that_is_not_installed'" in result.stderr
    assert cli.server.requests == []
    assert not marker.exists()

    # The same run without the gate does run bash: the check above is not vacuous.
    assert cli.run("-p", "clean up").returncode == 0
    assert marker.exists()


def test_the_verbose_flag_adds_the_traceback(cli: Cli) -> None:
    (cli.cwd / "deep.py").write_text("def load():\n    raise KeyError('x')\n\nload()\n")
    result = cli.run("-e", "deep.py", "--verbose", "-p", "hi")
    assert result.returncode == 1
    assert "Traceback (most recent call last):" in result.stderr
    assert f'File "{cli.cwd / "deep.py"}", line 2, in load' in result.stderr


def test_help_still_works_with_a_broken_plugin(cli: Cli) -> None:
    (cli.cwd / "broken.py").write_text("def (\n")
    result = cli.run("-e", "broken.py", "--help")
    assert result.returncode == 0
    assert "--block-plugin" in result.stdout


def test_pi_plugins_lists_the_failures_and_exits_0(cli: Cli) -> None:
    folder = cli.cwd / ".pi" / "extensions"
    folder.mkdir(parents=True)
    (folder / "gate.py").write_text(BROKEN_GATE)
    (cli.cwd / "broken.py").write_text("def (\n")
    result = cli.run("plugins", "-e", "broken.py")
    assert result.returncode == 0, result.stderr
    assert "2 failed" in result.stdout.splitlines()[0]
    assert f"  gate  {folder / 'gate.py'}" in result.stdout
    assert f"  broken  {cli.cwd / 'broken.py'}" in result.stdout
    report = json.loads(cli.run("plugins", "--json", "-e", "broken.py").stdout)
    assert [e["name"] for e in report["errors"]] == ["gate", "broken"]
    assert report["errors"][0]["error"].startswith("ModuleNotFoundError:")


# --- installed distributions (entry points) ----------------------------------------------------


def install_fake_distribution(site: Path, marker: Path) -> None:
    """Put a distribution `pi-plugin-gate` with a `gate` entry point on a path folder; its import
    writes `marker`, then fails."""
    info = site / "pi_plugin_gate-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: pi-plugin-gate\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[pi]\ngate = pi_plugin_gate\n")
    (site / "pi_plugin_gate.py").write_text(
        f"from pathlib import Path\nPath({str(marker)!r}).write_text('imported')\n"
        "raise ImportError('pi_plugin_gate needs libgate 2')\n"
    )


@pytest.fixture
def broken_distribution(cli: Cli, tmp_path: Path) -> Path:
    marker = tmp_path / "gate-imported"
    install_fake_distribution(tmp_path / "site", marker)
    cli.env["PYTHONPATH"] = str(tmp_path / "site")
    return marker


@pytest.mark.parametrize("mode", MODES)
def test_a_broken_installed_plugin_stops_start_up_with_the_fix(
    cli: Cli, broken_distribution: Path, mode: str
) -> None:
    result = run_mode(cli, mode)
    assert_stopped(
        result,
        'Failed to load plugin "gate" (pi-plugin-gate 1.0 (entry point pi_plugin_gate)): '
        "ImportError: pi_plugin_gate needs libgate 2",
    )
    assert (
        '  to start without it: pi --block-plugin gate, or add "gate" to "blockedPlugins" in '
        "settings.json; to uninstall it: pi remove pi-plugin-gate"
    ) in result.stderr.splitlines()


def test_a_blocked_installed_plugin_is_not_imported(cli: Cli, broken_distribution: Path) -> None:
    cli.server.queue(chat_stream("fine"), chat_stream("still fine"))
    result = cli.run("--block-plugin", "gate", "-p", "hi")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "fine\n"
    assert not broken_distribution.exists()

    cli.settings(
        defaultProvider="fake", defaultModel="fake-model", blockedPlugins=["pi-plugin-gate"]
    )
    result = cli.run("-p", "hi")
    assert result.returncode == 0, result.stderr
    assert not broken_distribution.exists()


def test_a_recorded_plugin_that_is_not_installed_stops_start_up(cli: Cli) -> None:
    cli.settings(defaultProvider="fake", defaultModel="fake-model", plugins=["pi-plugin-zzz"])
    result = cli.run("-p", "hi")
    assert_stopped(
        result,
        f'Failed to load plugin "pi-plugin-zzz" (recorded in {cli.agent_dir / "settings.json"}): '
        "not installed",
    )
    fix = "  drop the record with pi remove pi-plugin-zzz, or install it with: pi install "
    fix += "pi-plugin-zzz"
    assert fix in result.stderr.splitlines()
    assert cli.server.requests == []
