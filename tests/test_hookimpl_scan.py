"""The hookimpl scan of module plugins: pluggy's results, read from the module's namespace."""

from __future__ import annotations

import inspect
import json
import types
from typing import Any

import pluggy
import pytest

from pi_core import hookimpl, hookspecs
from pi_core.plugins.hookimpl_scan import ScanningPluginManager


def _module_plugin() -> types.ModuleType:
    module = types.ModuleType("scan_probe")
    source = (
        "import json\n"
        "from os import getcwd\n"
        "from pi_core import hookimpl\n"
        "LIMIT = 3\n"
        "class Helper:\n"
        "    '''Not a hook.'''\n"
        "def helper() -> int:\n"
        "    return 1\n"
        "@hookimpl\n"
        "def register_tools(register):\n"
        "    pass\n"
        "@hookimpl(tryfirst=True)\n"
        "def session_start(event, ctx):\n"
        "    pass\n"
        "hidden = staticmethod(helper)\n"
        "def odd():\n"
        "    pass\n"
        "odd.pi_impl = True\n"
    )
    exec(source, module.__dict__)
    return module


class _ObjectPlugin:
    """A plugin object, not a module: pluggy's own lookup."""

    json = json

    @hookimpl
    def register_tools(self, register: Any) -> None:
        """Register nothing."""


@pytest.mark.parametrize("make", [_module_plugin, _ObjectPlugin])
def test_the_options_are_pluggy_s_for_every_name(make: Any) -> None:
    plugin = make()
    ours = ScanningPluginManager(hookspecs.PROJECT_NAME)
    theirs = pluggy.PluginManager(hookspecs.PROJECT_NAME)
    names = dir(plugin)
    found = {name: ours.parse_hookimpl_opts(plugin, name) for name in names}
    assert found == {name: theirs.parse_hookimpl_opts(plugin, name) for name in names}
    assert sorted(name for name, opts in found.items() if opts) in (
        ["register_tools", "session_start"],
        ["register_tools"],
    )


def test_registration_hooks_the_same_functions() -> None:
    plugin = _module_plugin()
    manager = ScanningPluginManager(hookspecs.PROJECT_NAME)
    manager.add_hookspecs(hookspecs)
    manager.register(plugin, name="probe")
    callers = sorted(caller.name for caller in manager.get_hookcallers(plugin) or [])
    assert callers == ["register_tools", "session_start"]
    (impl,) = manager.hook.session_start.get_hookimpls()
    assert impl.tryfirst and impl.function is plugin.session_start


def test_a_module_s_names_are_read_from_its_namespace(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    looked_up: list[str] = []
    static = inspect.getattr_static

    def spy(obj: Any, name: str, *default: Any) -> Any:
        looked_up.append(name)
        return static(obj, name, *default)

    monkeypatch.setattr(inspect, "getattr_static", spy)
    plugin = _module_plugin()
    manager = ScanningPluginManager(hookspecs.PROJECT_NAME)
    for name in dir(plugin):
        manager.parse_hookimpl_opts(plugin, name)
    assert not {"json", "getcwd", "LIMIT", "Helper", "register_tools", "helper"} & set(looked_up)
    assert "hidden" in looked_up  # a static method: pluggy's own lookup
