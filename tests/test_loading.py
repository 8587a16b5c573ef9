"""Plugin discovery and loading: sources, order, de-duplication, blocking and broken plugins."""

from __future__ import annotations

import json
from pathlib import Path
from textwrap import dedent

import pytest

from pi_core import PluginActionError
from pi_core.events import SessionStartEvent
from pi_core.plugins.manager import LoadOptions, PluginManager

RECORDER = """
from pi_core import hookimpl

CALLS = []

@hookimpl
def session_start(event, ctx):
    import builtins
    builtins.__dict__.setdefault("PI_TEST_CALLS", []).append({name!r})
"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dedent(text))
    return path


def recorder(path: Path, name: str) -> Path:
    return write(path, RECORDER.format(name=name))


@pytest.fixture(autouse=True)
def reset_calls() -> None:
    import builtins

    builtins.__dict__["PI_TEST_CALLS"] = []


def calls() -> list[str]:
    import builtins

    return list(builtins.__dict__["PI_TEST_CALLS"])


def load(manager: PluginManager, **options: object) -> PluginManager:
    manager.load(LoadOptions(installed=False, **options))  # type: ignore[arg-type]
    return manager


async def test_loads_global_project_settings_and_cli_in_order(
    manager: PluginManager, project: Path, isolated_agent_dir: Path, tmp_path: Path
) -> None:
    recorder(isolated_agent_dir / "extensions" / "global_ext.py", "global")
    recorder(project / ".pi" / "extensions" / "project_ext.py", "project")
    pkg = project / ".pi" / "extensions" / "pkg_ext"
    recorder(pkg / "__init__.py", "package")
    settings_ext = recorder(tmp_path / "elsewhere" / "settings_ext.py", "settings")
    write(project / ".pi" / "settings.json", json.dumps({"extensions": [str(settings_ext)]}))
    cli_ext = recorder(tmp_path / "cli_ext.py", "cli")

    load(manager, extension_paths=[str(cli_ext)])

    assert manager.errors == []
    assert [p.source.origin for p in manager.plugins] == [
        "global",
        "project",
        "project",
        "settings",
        "cli",
    ]
    assert [p.name for p in manager.plugins] == [
        "global_ext",
        "pkg_ext",
        "project_ext",
        "settings_ext",
        "cli_ext",
    ]
    await manager.dispatcher.emit(SessionStartEvent())
    # pluggy's call order: the most recently loaded plugin runs first
    assert calls() == ["cli", "settings", "project", "package", "global"]


def test_relative_settings_paths_resolve_against_their_settings_folder(
    manager: PluginManager, project: Path, isolated_agent_dir: Path
) -> None:
    recorder(isolated_agent_dir / "mine" / "a.py", "a")
    recorder(project / ".pi" / "local" / "b.py", "b")
    write(isolated_agent_dir / "settings.json", json.dumps({"extensions": ["mine/a.py"]}))
    write(project / ".pi" / "settings.json", json.dumps({"extensions": ["local"]}))

    load(manager)

    assert [p.name for p in manager.plugins] == ["a", "b"]


def test_same_file_from_two_places_loads_once(manager: PluginManager, project: Path) -> None:
    ext = recorder(project / ".pi" / "extensions" / "dup.py", "dup")
    write(project / ".pi" / "settings.json", json.dumps({"extensions": [str(ext)]}))

    load(
        manager,
        extension_paths=[
            str(ext),
            str(project / ".pi" / "extensions" / ".." / "extensions" / "dup.py"),
        ],
    )

    assert [p.name for p in manager.plugins] == ["dup"]


def test_no_extensions_skips_folders_and_settings_but_keeps_cli(
    manager: PluginManager, project: Path, tmp_path: Path
) -> None:
    recorder(project / ".pi" / "extensions" / "skipped.py", "skipped")
    cli_ext = recorder(tmp_path / "kept.py", "kept")

    load(manager, no_extensions=True, extension_paths=[str(cli_ext)])

    assert [p.name for p in manager.plugins] == ["kept"]


def test_blocked_plugins_are_not_imported(
    manager: PluginManager, project: Path, tmp_path: Path
) -> None:
    write(project / ".pi" / "extensions" / "bomb.py", "raise SystemExit('imported!')")
    recorder(project / ".pi" / "extensions" / "fine.py", "fine")
    write(project / ".pi" / "settings.json", json.dumps({"blockedPlugins": ["fine"]}))

    load(manager, blocked=["bomb"])

    assert manager.plugins == [] and manager.errors == []
    assert {d.message for d in manager.diagnostics} == {
        "plugin 'bomb' is blocked",
        "plugin 'fine' is blocked",
    }


def test_syntax_error_is_reported_with_path_and_line(manager: PluginManager, project: Path) -> None:
    bad = write(project / ".pi" / "extensions" / "bad.py", "def broken(:\n    pass\n")
    recorder(project / ".pi" / "extensions" / "good.py", "good")

    load(manager)

    assert [p.name for p in manager.plugins] == ["good"]
    [error] = manager.errors
    assert error.name == "bad" and error.source == str(bad)
    assert error.error.startswith("SyntaxError:") and "line 1" in error.error


def test_wrong_hookimpl_argument_name_is_reported(manager: PluginManager, project: Path) -> None:
    write(
        project / ".pi" / "extensions" / "typo.py",
        """
        from pi_core import hookimpl

        @hookimpl
        def tool_call(evnt, ctx):
            return None
        """,
    )

    load(manager)

    [error] = manager.errors
    assert "evnt" in error.error and "tool_call" in error.error
    assert manager.plugins == []
    assert not manager.dispatcher.has_impls("tool_call")


def test_unknown_hook_name_is_reported_with_a_suggestion(
    manager: PluginManager, project: Path
) -> None:
    write(
        project / ".pi" / "extensions" / "misspelt.py",
        """
        from pi_core import hookimpl

        @hookimpl
        def tool_cal(event, ctx):
            return None
        """,
    )

    load(manager)

    [error] = manager.errors
    assert "tool_cal" in error.error and "did you mean 'tool_call'" in error.error


def test_calling_an_action_while_loading_is_a_clear_error(
    manager: PluginManager, project: Path
) -> None:
    write(
        project / ".pi" / "extensions" / "eager.py",
        """
        from pi_core import hookimpl

        @hookimpl
        def register_tools(register, ctx):
            ctx.send_user_message("hello")
        """,
    )

    load(manager)

    [error] = manager.errors
    assert error.error.startswith("PluginActionError:")
    assert "send_user_message" in error.error and "while plugins are loading" in error.error


def test_actions_work_after_binding_on_the_same_plugin_objects(
    manager: PluginManager, project: Path
) -> None:
    write(
        project / ".pi" / "extensions" / "keeper.py",
        """
        from pi_core import hookimpl

        SAVED = {}

        @hookimpl
        def register_flags(register, ctx):
            SAVED["ctx"] = ctx
            register("loud", type="boolean", default=True)
        """,
    )
    load(manager)
    [plugin] = manager.plugins
    saved_ctx = plugin.obj.SAVED["ctx"]
    with pytest.raises(PluginActionError):
        saved_ctx.get_session_name()

    class Actions:
        def get_session_name(self) -> str:
            return "bound!"

    manager.bind(Actions())

    assert saved_ctx.get_session_name() == "bound!"
    assert manager.registry.flags["loud"].plugin == plugin.key
    assert saved_ctx.get_flag("loud") is True


def test_typescript_extensions_fail_closed_one_error_each(
    manager: PluginManager, project: Path
) -> None:
    write(project / ".pi" / "extensions" / "old.ts", "export default function () {}")
    write(project / ".pi" / "extensions" / "pkg" / "index.ts", "export default 1")

    load(manager)

    assert manager.plugins == []
    assert [e.name for e in manager.errors] == ["old", "pkg"]
    assert all("do not run here" in e.error for e in manager.errors)


def test_a_blocked_typescript_extension_is_only_noted(
    manager: PluginManager, project: Path
) -> None:
    write(project / ".pi" / "extensions" / "old.ts", "export default function () {}")

    load(manager, blocked=["old"])

    assert manager.errors == []
    assert [d.level for d in manager.diagnostics] == ["info"]


def test_missing_cli_path_is_an_error_not_a_crash(manager: PluginManager, tmp_path: Path) -> None:
    load(manager, extension_paths=[str(tmp_path / "nope.py")])
    [error] = manager.errors
    assert "does not exist" in error.error


def test_malformed_settings_is_reported_and_left_alone(
    manager: PluginManager, project: Path
) -> None:
    settings = write(project / ".pi" / "settings.json", '{"extensions": [\n  "a.py",\n}')
    before = settings.read_text()

    load(manager)

    assert any(
        problem.startswith(f"{settings}:3:1: invalid JSON") for problem in manager.config_problems
    )
    assert settings.read_text() == before


def test_registration_hook_that_raises_unloads_the_plugin(
    manager: PluginManager, project: Path
) -> None:
    write(
        project / ".pi" / "extensions" / "half.py",
        """
        from pi_core import hookimpl

        @hookimpl
        def session_start(event):
            pass

        @hookimpl
        def register_commands(register):
            register("ok", lambda args, ctx: None)
            raise RuntimeError("config missing")
        """,
    )

    load(manager)

    assert manager.plugins == []
    assert manager.errors[0].error == "RuntimeError: config missing"
    assert not manager.dispatcher.has_impls("session_start")
    assert manager.registry.commands == {}


def test_async_registration_hook_is_rejected(manager: PluginManager, project: Path) -> None:
    write(
        project / ".pi" / "extensions" / "asyncreg.py",
        """
        from pi_core import hookimpl

        @hookimpl
        async def register_tools(register):
            pass
        """,
    )
    load(manager)
    assert "must be a plain def" in manager.errors[0].error


def test_wrapper_impls_are_rejected(manager: PluginManager, project: Path) -> None:
    write(
        project / ".pi" / "extensions" / "wrap.py",
        """
        from pi_core import hookimpl

        @hookimpl(wrapper=True)
        def tool_call(event, ctx):
            return (yield)
        """,
    )
    load(manager)
    assert "wrapper impls are not supported" in manager.errors[0].error


def test_registrations_conflicts_later_wins_and_builtins_are_kept(
    manager: PluginManager, project: Path
) -> None:
    tool_plugin = """
    from pydantic import BaseModel
    from pi_core import hookimpl, define_tool, ToolResult

    class Args(BaseModel):
        text: str

    async def run(call_id, params, signal, on_update, ctx):
        return ToolResult.text({label!r})

    @hookimpl
    def register_tools(register):
        register(define_tool(name="echo", description="Echo", parameters=Args, execute=run))

    @hookimpl
    def register_commands(register):
        register("hello", lambda args, ctx: None, description={label!r})
        register("compact", lambda args, ctx: None)
    """
    write(project / ".pi" / "extensions" / "a.py", tool_plugin.format(label="a"))
    write(project / ".pi" / "extensions" / "b.py", tool_plugin.format(label="b"))

    load(manager)
    registry = manager.registry

    assert registry.tools["echo"].plugin.endswith("b.py")
    assert registry.commands["hello"].description == "b"
    assert "compact" not in registry.commands
    messages = [d.message for d in registry.diagnostics]
    assert any("tool 'echo'" in m and "replaced" in m for m in messages)
    assert any("/compact" in m and "built-in" in m for m in messages)


def test_register_rejects_something_that_is_not_a_tool(
    manager: PluginManager, project: Path
) -> None:
    write(
        project / ".pi" / "extensions" / "notatool.py",
        """
        from pi_core import hookimpl

        @hookimpl
        def register_tools(register):
            register(object())
        """,
    )
    load(manager)
    assert "is missing name, description, parameters" in manager.errors[0].error


def test_providers_registered_at_load_are_kept_for_binding(
    manager: PluginManager, project: Path
) -> None:
    write(
        project / ".pi" / "extensions" / "prov.py",
        """
        from pi_core import hookimpl

        @hookimpl
        def register_providers(register):
            register("local", {"baseUrl": "http://127.0.0.1:1/v1", "api": "openai-completions",
                               "models": [{"id": "tiny", "contextWindow": 4096}]})
        """,
    )
    load(manager)
    [provider] = manager.registry.providers
    assert provider.name == "local"
    assert provider.config.models[0].context_window == 4096

    applied: list[tuple[str, object]] = []

    class Registry:
        def register_provider(self, name: str, config: object) -> None:
            applied.append((name, config))

    registry = Registry()
    manager.bind(object(), model_registry=registry)
    assert applied == [("local", provider.config)]
    assert manager.ctx.model_registry is registry


def test_blocked_names_compare_like_distribution_names(manager: PluginManager) -> None:
    from pi_core.plugins.sources import PluginSource

    manager.blocked.update({"pi-plugin-gate", "my-tool"})
    assert manager.is_blocked(
        PluginSource("gate", "distribution", "installed", distribution="Pi_Plugin.Gate")
    )
    assert manager.is_blocked(PluginSource("My_Tool", "file", "cli"))
    assert not manager.is_blocked(PluginSource("gatekeeper", "file", "cli"))
