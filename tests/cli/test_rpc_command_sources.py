"""RPC `get_commands`: a plugin's command carries `sourceInfo` naming the plugin's file, as pi
names an auto-discovered extension's (source `auto`, scope `project`, `.pi` as `baseDir`)."""

from __future__ import annotations

from pi_core.testing import console_script
from tests.cli.conftest import Cli
from tests.cli.rpc_script import RpcProcess

PLUGIN = """\
from pi_core import hookimpl


@hookimpl
def register_commands(register):
    register("hello", lambda args, ctx: None, description="Say hello")
"""


def test_a_project_plugin_command_names_its_file(cli: Cli) -> None:
    folder = cli.cwd / ".pi" / "extensions"
    folder.mkdir(parents=True)
    (folder / "greet.py").write_text(PLUGIN)
    pi = console_script("pi")
    process = RpcProcess([pi, "--mode", "rpc", "--no-session"], cli.cwd, cli.env)
    process.send({"id": "1", "type": "get_commands"})
    process.read_until(lambda r: r.get("type") == "response" and r.get("id") == "1")
    process.close()
    commands = process.records[-1]["data"]["commands"]
    hello = next(c for c in commands if c["name"] == "hello")
    assert hello["source"] == "extension"
    assert hello["sourceInfo"] == {
        "path": str(folder / "greet.py"),
        "source": "auto",
        "scope": "project",
        "origin": "top-level",
        "baseDir": str(cli.cwd / ".pi"),
    }
