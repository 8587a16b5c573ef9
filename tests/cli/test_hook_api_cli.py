"""A plugin naming a hook pi does not have, or needing a newer hook API, is refused with an
error that names the hook or the version, in `pi plugins` and at start-up."""

from __future__ import annotations

import json

from pi_core import HOOK_API_VERSION
from tests.cli.conftest import Cli

UNKNOWN_HOOK = '''
from pi_core import hookimpl


@hookimpl
def session_pause(event):
    """A hook from some future pi."""
'''


def test_an_unknown_hook_is_named_by_pi_plugins_and_stops_print_mode(cli: Cli) -> None:
    (cli.cwd / "future.py").write_text(UNKNOWN_HOOK)

    report = json.loads(cli.run("plugins", "--json", "-e", "future.py").stdout)
    (error,) = report["errors"]
    assert error["name"] == "future"
    assert "hookimpl 'session_pause' matches no pi hook" in error["error"]

    result = cli.run("-e", "future.py", "-p", "hi")
    assert result.returncode == 1
    assert "hookimpl 'session_pause' matches no pi hook" in result.stderr
    assert cli.server.requests == []


def test_a_plugin_needing_a_newer_hook_api_is_told_so_before_its_hooks_are_checked(
    cli: Cli,
) -> None:
    major, minor = (int(part) for part in HOOK_API_VERSION.split("."))
    wanted = f"{major}.{minor + 1}"
    (cli.cwd / "future.py").write_text(f'PI_HOOK_API = "{wanted}"\n' + UNKNOWN_HOOK)

    report = json.loads(cli.run("plugins", "--json", "-e", "future.py").stdout)
    (error,) = report["errors"]
    assert (
        f"needs hook API {wanted} (PI_HOOK_API), but this pi provides {HOOK_API_VERSION}"
        in (error["error"])
    )
    assert "upgrade pi-harness" in error["error"]
    assert "session_pause" not in error["error"]

    result = cli.run("-e", "future.py", "-p", "hi")
    assert result.returncode == 1
    assert f"needs hook API {wanted}" in result.stderr


def test_a_plugin_requiring_the_current_hook_api_loads(cli: Cli) -> None:
    (cli.cwd / "current.py").write_text(
        f'PI_HOOK_API = "{HOOK_API_VERSION}"\n'
        "from pi_core import hookimpl\n\n@hookimpl\ndef agent_end(event):\n    pass\n"
    )
    report = json.loads(cli.run("plugins", "--json", "-e", "current.py").stdout)
    assert report["errors"] == []
    assert [p["hooks"] for p in report["plugins"] if p["name"] == "current"] == [["agent_end"]]
