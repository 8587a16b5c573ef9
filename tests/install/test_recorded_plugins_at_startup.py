"""At start-up, a plugin recorded in settings but not installed (or an entry that cannot be read)
is a load error naming the record and saying how to fix it: start-up stops in every run mode,
`pi plugins` lists it. Everything else still loads, so the report is complete."""

from __future__ import annotations

import json
from pathlib import Path

from pi_core.plugins.manager import LoadOptions, PluginManager


def write(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))


def test_missing_plugins_are_errors_with_the_command(
    project: Path, isolated_agent_dir: Path, runner
) -> None:
    write(isolated_agent_dir / "settings.json", {"plugins": ["pi-plugin-zzz-missing==1.0"]})
    write(
        project / ".pi" / "settings.json",
        {"plugins": ["../plugins/pi-plugin-mine", "-e ../dev", "pi-plugin-present"]},
    )
    runner.preinstall("pi-plugin-present")

    manager = PluginManager(project, agent_dir=isolated_agent_dir)
    manager.load(LoadOptions(no_extensions=True))

    by_name = {error.name: error for error in manager.errors}
    assert set(by_name) == {"pi-plugin-zzz-missing==1.0", "../plugins/pi-plugin-mine", "-e ../dev"}
    missing = by_name["pi-plugin-zzz-missing==1.0"]
    assert missing.kind == "recorded" and missing.error == "not installed"
    assert missing.message() == (
        f'Failed to load plugin "pi-plugin-zzz-missing==1.0" (recorded in '
        f"{isolated_agent_dir / 'settings.json'}): not installed\n"
        "  drop the record with pi remove pi-plugin-zzz-missing==1.0, or install it with: "
        "pi install pi-plugin-zzz-missing==1.0"
    )
    project_file = project / ".pi" / "settings.json"
    mine = by_name["../plugins/pi-plugin-mine"]
    assert mine.source == f"recorded in {project_file}"
    assert mine.fix.endswith("install it with: pi install -l ./plugins/pi-plugin-mine")
    assert "pi remove -l ../plugins/pi-plugin-mine" in mine.fix
    assert by_name["-e ../dev"].fix.endswith("install it with: pi install -l -e ./dev")


def test_unreadable_records_are_errors(project: Path, isolated_agent_dir: Path) -> None:
    write(isolated_agent_dir / "settings.json", {"plugins": ["npm:pi-skills"]})
    write(project / ".pi" / "settings.json", {"plugins": {"not": "a list"}})
    manager = PluginManager(project, agent_dir=isolated_agent_dir)
    manager.load(LoadOptions(no_extensions=True))
    errors = [error.error for error in manager.errors]
    assert any(e.startswith("cannot be read: 'npm:pi-skills' is an npm") for e in errors)
    assert any("`plugins` must be a list of spec strings" in e for e in errors)


def test_a_broken_settings_file_is_reported_once(project: Path, isolated_agent_dir: Path) -> None:
    (isolated_agent_dir / "settings.json").write_text('{"plugins": [')
    write(project / ".pi" / "settings.json", {"plugins": ["pi-plugin-zzz-missing"]})
    manager = PluginManager(project, agent_dir=isolated_agent_dir)
    manager.load(LoadOptions(no_extensions=True))
    assert sum("invalid JSON" in problem for problem in manager.config_problems) == 1
    [error] = manager.errors
    assert error.fix.endswith("pi install -l pi-plugin-zzz-missing")


def test_no_check_without_installed_plugins(project: Path, isolated_agent_dir: Path) -> None:
    write(isolated_agent_dir / "settings.json", {"plugins": ["pi-plugin-zzz-missing"]})
    manager = PluginManager(project, agent_dir=isolated_agent_dir)
    manager.load(LoadOptions(installed=False, no_extensions=True))
    assert manager.errors == []
