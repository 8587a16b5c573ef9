"""The SDK fails closed too: `create_agent_session` raises PluginLoadFailed, before any session
starts, when a plugin failed to import or register; blocking it by name lets the session start."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from pi_core import PluginLoadFailed, hookimpl
from tests.agent_session.conftest import Harness


async def test_a_plugin_file_that_fails_to_import_raises(harness: Harness) -> None:
    gate = harness.cwd / ".pi" / "extensions" / "gate.py"
    gate.parent.mkdir(parents=True)
    gate.write_text("import pi_dependency_that_is_not_installed\n")
    with pytest.raises(PluginLoadFailed) as caught:
        await harness.session()
    [error] = caught.value.errors
    assert error.name == "gate" and error.source == str(gate)
    assert str(caught.value).startswith(
        f'Failed to load extension "{gate}": ModuleNotFoundError: '
        "No module named 'pi_dependency_that_is_not_installed'"
    )
    assert harness.events == [] and harness.server.requests == []

    (harness.agent_dir / "settings.json").write_text('{"blockedPlugins": ["gate"]}')
    session = await harness.session()
    assert session.plugins.errors == []
    await session.shutdown()


async def test_an_inline_plugin_that_fails_to_register_raises(harness: Harness) -> None:
    def register_tools(register: object) -> None:
        raise RuntimeError("no tools today")

    broken = SimpleNamespace(__name__="broken", register_tools=hookimpl(register_tools))
    with pytest.raises(PluginLoadFailed, match="RuntimeError: no tools today"):
        await harness.session(broken)


async def test_a_project_typescript_extension_raises_until_blocked(harness: Harness) -> None:
    gate = harness.cwd / ".pi" / "extensions" / "gate.ts"
    gate.parent.mkdir(parents=True)
    gate.write_text("export default function (pi) {}\n")
    with pytest.raises(PluginLoadFailed) as caught:
        await harness.session()
    [error] = caught.value.errors
    assert error.name == "gate" and error.source == str(gate)
    assert "TypeScript/JavaScript extensions do not run here" in error.error
    assert harness.events == [] and harness.server.requests == []

    (harness.agent_dir / "settings.json").write_text('{"blockedPlugins": ["gate"]}')
    session = await harness.session()
    assert session.plugins.errors == []
    await session.shutdown()
