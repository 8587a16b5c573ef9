"""`pi --help` lists plugin flags from the last full load while nothing the load read changed."""

from __future__ import annotations

from pathlib import Path

from tests.cli.conftest import Cli

PLUGIN = (
    "from pathlib import Path\n"
    "from pi_core import hookimpl\n\n"
    "with Path(__file__).with_suffix('.imports').open('a') as log:\n"
    "    log.write('imported\\n')\n\n"
    "@hookimpl\n"
    "def register_flags(register):\n"
    "    register('shout', type='boolean', description={description!r})\n"
)


def write_plugin(path: Path, description: str) -> Path:
    """A plugin registering `--shout` that notes each import next to itself."""
    path.write_text(PLUGIN.format(description=description))
    return path


def imports(plugin: Path) -> int:
    """How many times the plugin module was imported."""
    log = plugin.with_suffix(".imports")
    return len(log.read_text().splitlines()) if log.exists() else 0


def test_a_second_help_lists_the_flags_without_importing_the_plugin(cli: Cli) -> None:
    plugin = write_plugin(cli.cwd / "shout.py", "Answer in capitals")
    first = cli.run("-e", str(plugin), "--help")
    second = cli.run("-e", str(plugin), "--help")
    assert first.returncode == second.returncode == 0
    assert "--shout" in second.stdout and "Answer in capitals" in second.stdout
    assert second.stdout == first.stdout
    assert imports(plugin) == 1


def test_an_edited_plugin_is_loaded_again(cli: Cli) -> None:
    plugin = write_plugin(cli.cwd / "shout.py", "Answer in capitals")
    cli.run("-e", str(plugin), "--help")
    write_plugin(plugin, "Answer loudly, in capitals")
    result = cli.run("-e", str(plugin), "--help")
    assert "Answer loudly, in capitals" in result.stdout
    assert imports(plugin) == 2


def test_a_new_extension_file_is_seen(cli: Cli) -> None:
    folder = cli.cwd / ".pi" / "extensions"
    folder.mkdir(parents=True)
    write_plugin(folder / "shout.py", "Answer in capitals")
    assert "--shout" in cli.run("--help").stdout
    (folder / "whisper.py").write_text(
        "from pi_core import hookimpl\n\n"
        "@hookimpl\n"
        "def register_flags(register):\n"
        "    register('whisper', type='boolean', description='Answer quietly')\n"
    )
    result = cli.run("--help")
    assert "--shout" in result.stdout and "--whisper" in result.stdout


def test_other_options_are_another_entry(cli: Cli) -> None:
    plugin = write_plugin(cli.cwd / "shout.py", "Answer in capitals")
    assert "--shout" in cli.run("-e", str(plugin), "--help").stdout
    assert "--shout" not in cli.run("--help").stdout
    assert "--shout" not in cli.run("-e", str(plugin), "--block-plugin", "shout", "--help").stdout


def test_the_cache_can_be_turned_off(cli: Cli) -> None:
    plugin = write_plugin(cli.cwd / "shout.py", "Answer in capitals")
    cli.env["PI_NO_HELP_CACHE"] = "1"
    for _ in range(2):
        assert "--shout" in cli.run("-e", str(plugin), "--help").stdout
    assert imports(plugin) == 2


def test_help_as_an_option_value_still_runs_with_the_plugins_loaded(cli: Cli) -> None:
    plugin = write_plugin(cli.cwd / "shout.py", "Answer in capitals")
    cli.run("-e", str(plugin), "--help")
    result = cli.run("-e", str(plugin), "--shout", "--model", "--help", "-p", "hi")
    assert result.returncode == 1
    assert result.stderr.startswith("Error: Unknown model '--help'")


def test_an_unreadable_cache_is_ignored(cli: Cli, tmp_path: Path) -> None:
    plugin = write_plugin(cli.cwd / "shout.py", "Answer in capitals")
    cache = tmp_path / "cache" / "pi-harness" / "help-flags.json"
    cache.parent.mkdir(parents=True)
    cache.write_text("{not json")
    assert "--shout" in cli.run("-e", str(plugin), "--help").stdout
    assert "--shout" in cli.run("-e", str(plugin), "--help").stdout
    assert imports(plugin) == 1
