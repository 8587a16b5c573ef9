"""`pi plugins` and `pi --version` as a user runs them: the real command, as a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from textwrap import dedent

from pi_core import __version__


def run(pi_bin: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run the installed `pi` command in `cwd`."""
    return subprocess.run(
        [pi_bin, *args],
        cwd=cwd,
        env=os.environ.copy(),
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_version_prints_the_version(pi_bin: str, project: Path) -> None:
    result = run(pi_bin, "--version", cwd=project)
    assert result.returncode == 0
    assert result.stdout.strip() == __version__


def test_plugins_lists_good_and_broken_plugins_and_exits_zero(
    pi_bin: str, project: Path, tmp_path: Path
) -> None:
    extensions = project / ".pi" / "extensions"
    extensions.mkdir(parents=True)
    (extensions / "greeter.py").write_text(
        dedent(
            """
            from pi_core import hookimpl

            @hookimpl
            def session_start(event, ctx):
                pass

            @hookimpl
            def register_commands(register):
                register("greet", lambda args, ctx: None, description="Say hello")
            """
        )
    )
    (extensions / "syntax.py").write_text("def oops(:\n")
    (extensions / "argname.py").write_text(
        "from pi_core import hookimpl\n\n@hookimpl\ndef tool_call(evt, ctx):\n    pass\n"
    )
    (extensions / "eager.py").write_text(
        "from pi_core import hookimpl\n\n@hookimpl\ndef register_tools(register, ctx):\n"
        "    ctx.set_active_tools([])\n"
    )
    (extensions / "legacy.ts").write_text("export default function (pi) {}\n")
    cli_plugin = tmp_path / "from_cli.py"
    cli_plugin.write_text(
        "from pi_core import hookimpl\n\n@hookimpl\nasync def tool_call(event, ctx):\n"
        "    return None\n"
    )

    result = run(pi_bin, "plugins", "-e", str(cli_plugin), cwd=project)

    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert ", 4 failed" in out  # installed distributions may add to the loaded count
    assert "greeter  [project]" in out and "commands: /greet" in out
    assert "hooks: session_start" in out
    assert f"from_cli  [cli]  {cli_plugin}" in out and "hooks: tool_call" in out
    assert str(extensions / "syntax.py") in out and "SyntaxError" in out
    assert str(extensions / "argname.py") in out and "evt" in out
    assert str(extensions / "eager.py") in out and "while plugins are loading" in out
    assert "legacy.ts" in out and "TypeScript/JavaScript extensions do not run here" in out


def test_plugins_json_report(pi_bin: str, project: Path, tmp_path: Path) -> None:
    plugin = tmp_path / "solo.py"
    plugin.write_text(
        "from pi_core import hookimpl\n\n@hookimpl\ndef register_flags(register):\n"
        "    register('verbose-solo', type='boolean', default=False)\n"
    )

    result = run(pi_bin, "plugins", "--json", "-e", str(plugin), cwd=project)

    report = json.loads(result.stdout)
    solo = next(p for p in report["plugins"] if p["name"] == "solo")
    assert solo == {
        "name": "solo",
        "source": str(plugin),
        "origin": "cli",
        "hooks": [],
        "registered": {"flags": ["verbose-solo"]},
    }
    assert report["errors"] == []


def test_plugins_block_flag(pi_bin: str, project: Path, tmp_path: Path) -> None:
    plugin = tmp_path / "blockme.py"
    plugin.write_text("raise RuntimeError('should not be imported')\n")

    result = run(
        pi_bin, "plugins", "--json", "-e", str(plugin), "--block-plugin", "blockme", cwd=project
    )

    report = json.loads(result.stdout)
    assert report["errors"] == []
    assert {"level": "info", "message": "plugin 'blockme' is blocked"} in report["diagnostics"]
