"""At start-up, a plugin recorded in settings but not installed is a diagnostic with the command
that installs it; loading goes on."""

from __future__ import annotations

import json
from pathlib import Path

from pi_core.plugins.manager import LoadOptions, PluginManager


def write(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))


def messages(manager: PluginManager) -> list[str]:
    return [d.message for d in manager.diagnostics]


def test_missing_plugins_are_reported_with_the_command(
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

    found = messages(manager)
    assert (
        f"plugin 'pi-plugin-zzz-missing==1.0' (recorded in {isolated_agent_dir / 'settings.json'})"
        " is not installed; install it with: pi install pi-plugin-zzz-missing==1.0"
    ) in found
    project_file = project / ".pi" / "settings.json"
    assert (
        f"plugin '../plugins/pi-plugin-mine' (recorded in {project_file}) is not installed; "
        "install it with: pi install -l ./plugins/pi-plugin-mine"
    ) in found
    assert any(m.endswith("install it with: pi install -l -e ./dev") for m in found)
    assert not any("pi-plugin-present" in m for m in found)
    assert all(d.level == "warning" for d in manager.diagnostics if "not installed" in d.message)
    assert manager.errors == []


def test_unreadable_records_are_reported_without_failing(
    project: Path, isolated_agent_dir: Path
) -> None:
    write(isolated_agent_dir / "settings.json", {"plugins": ["npm:pi-skills"]})
    write(project / ".pi" / "settings.json", {"plugins": {"not": "a list"}})
    manager = PluginManager(project, agent_dir=isolated_agent_dir)
    manager.load(LoadOptions(no_extensions=True))
    found = messages(manager)
    assert any(
        "plugin 'npm:pi-skills' cannot be read: 'npm:pi-skills' is an npm" in m for m in found
    )
    assert any("`plugins` must be a list of spec strings" in m for m in found)


def test_a_broken_settings_file_is_reported_once(project: Path, isolated_agent_dir: Path) -> None:
    (isolated_agent_dir / "settings.json").write_text('{"plugins": [')
    write(project / ".pi" / "settings.json", {"plugins": ["pi-plugin-zzz-missing"]})
    manager = PluginManager(project, agent_dir=isolated_agent_dir)
    manager.load(LoadOptions(no_extensions=True))
    found = messages(manager)
    assert sum("invalid JSON" in m for m in found) == 1
    assert any("pi install -l pi-plugin-zzz-missing" in m for m in found)


def test_no_check_without_installed_plugins(project: Path, isolated_agent_dir: Path) -> None:
    write(isolated_agent_dir / "settings.json", {"plugins": ["pi-plugin-zzz-missing"]})
    manager = PluginManager(project, agent_dir=isolated_agent_dir)
    manager.load(LoadOptions(installed=False, no_extensions=True))
    assert not any("not installed" in m for m in messages(manager))
