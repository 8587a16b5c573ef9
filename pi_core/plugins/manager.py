"""The plugin manager: discover, import, validate, register, and hand out the dispatcher."""

from __future__ import annotations

import dataclasses
import difflib
import inspect
import re
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pluggy

from pi_core import hookspecs
from pi_core.config.paths import agent_dir as default_agent_dir
from pi_core.config.paths import project_dir, resolve_path
from pi_core.plugins import hook_api
from pi_core.plugins.context import CommandContext, ExtensionContext
from pi_core.plugins.dispatch import HookDispatcher
from pi_core.plugins.errors import Diagnostic, PluginLoadError
from pi_core.plugins.foreign import ForeignExtension
from pi_core.plugins.hookimpl_scan import ScanningPluginManager
from pi_core.plugins.importing import import_plugin
from pi_core.plugins.installed import recorded_plugin_errors
from pi_core.plugins.registrations import PluginRegistrations, Registry
from pi_core.plugins.runtime import PluginRuntime, SessionActions, SessionNavigation
from pi_core.plugins.sources import Discovery, Origin, PluginSource, discover
from pi_core.plugins.ui import ExtensionUI
from pi_core.resources.settings import SettingsManager

if TYPE_CHECKING:
    from pi_core.ai.auth import AuthStorage
    from pi_core.ai.model_registry import ModelRegistry


class PluginRejected(Exception):
    """A plugin object that pluggy would accept but pi cannot run (bad hook name, wrapper)."""


@dataclass
class LoadedPlugin:
    """A plugin that loaded: where it came from, its hooks, and what it registered."""

    name: str
    key: str
    source: PluginSource
    obj: Any
    hooks: list[str]
    registrations: PluginRegistrations


@dataclass
class LoadOptions:
    """Which plugins to load, mirroring the CLI: `-e` paths, `--no-extensions`, blocked names."""

    extension_paths: list[str] = field(default_factory=list)
    no_extensions: bool = False
    installed: bool = True
    blocked: list[str] = field(default_factory=list)


class PluginManager:
    """Owns the pluggy manager, the loaded plugins, their registrations and the dispatcher."""

    def __init__(
        self, cwd: str | Path, *, agent_dir: Path | None = None, ui: ExtensionUI | None = None
    ) -> None:
        self.cwd = Path(cwd).resolve()
        self.agent_dir = agent_dir or default_agent_dir()
        self.pm = ScanningPluginManager(hookspecs.PROJECT_NAME)
        self.pm.add_hookspecs(hookspecs)
        self.runtime = PluginRuntime(str(self.cwd), ui, self._report_bus_error)
        self.ctx = ExtensionContext(self.runtime)
        self.command_ctx = CommandContext(self.runtime)
        self.plugins: list[LoadedPlugin] = []
        self.errors: list[PluginLoadError] = []
        self.diagnostics: list[Diagnostic] = []
        self.settings: SettingsManager | None = None
        self.config_problems: list[str] = []
        self.blocked: set[str] = set()
        self.dispatcher = HookDispatcher(self.pm, self.ctx, self.describe)
        self.runtime.tool_call_chain = self.dispatcher.tool_call
        self.runtime.tool_result_chain = self.dispatcher.tool_result
        self.runtime.plugin_tool_operations = lambda: self.registry.tool_operations
        self.options = LoadOptions()
        self._registry: Registry | None = None

    # --- loading --------------------------------------------------------------------------

    def load(self, options: LoadOptions | None = None) -> None:
        """Discover and load every plugin in order; failures are recorded, never raised."""
        options = options or LoadOptions()
        self.options = options
        settings = SettingsManager.create(self.cwd, str(self.agent_dir))
        self.settings = settings
        self.config_problems.extend(str(problem) for problem in settings.errors)
        if options.installed:
            self.errors.extend(recorded_plugin_errors(settings, self.cwd, self.agent_dir))
        self.blocked.update(
            map(normalize_name, [*settings.settings.blocked_plugins, *options.blocked])
        )
        found = self._discover(settings, options, installed=options.installed)
        self.diagnostics.extend(found.diagnostics)
        self.errors.extend(found.errors)
        if not options.no_extensions:
            from pi_core.packages.loading import package_extensions

            in_packages, missing = package_extensions(settings, self.cwd, self.agent_dir)
            found.foreign.extend(in_packages)
            self.errors.extend(missing)
        self.errors.extend(foreign_errors(found.foreign, self.blocked, self.diagnostics))
        for source in found.sources:
            self.load_source(source)

    def move_to(self, cwd: str | Path) -> None:
        """Work in `cwd` from now on (project plugins and settings found there on the next
        discovery); paths given with `-e` keep meaning what they meant where pi started."""
        paths = [str(resolve_path(p, self.cwd)) for p in self.options.extension_paths]
        self.options = dataclasses.replace(self.options, extension_paths=paths)
        self.cwd = Path(cwd).resolve()
        self.runtime.cwd = str(self.cwd)

    def discover_files(self) -> Discovery:
        """Find the plugins from files and folders again, as `load` did (settings read afresh)."""
        settings = SettingsManager.create(self.cwd, str(self.agent_dir))
        return self._discover(settings, self.options, installed=False)

    def _discover(
        self, settings: SettingsManager, options: LoadOptions, installed: bool
    ) -> Discovery:
        return discover(
            cwd=self.cwd,
            agent_dir=self.agent_dir,
            settings_paths=_extension_paths(settings, self.cwd, self.agent_dir),
            cli_paths=[resolve_path(p, self.cwd) for p in options.extension_paths],
            installed=installed,
            extensions=not options.no_extensions,
        )

    def load_source(self, source: PluginSource) -> LoadedPlugin | None:
        """Import, validate and register one plugin; record an error and return None on failure."""
        if self.is_blocked(source):
            self.diagnostics.append(
                Diagnostic(f"plugin {source.name!r} is blocked", source.describe(), "info")
            )
            return None
        try:
            obj = import_plugin(source)
        except BaseException as error:
            if isinstance(error, KeyboardInterrupt):
                raise
            self._fail(source, error)
            return None
        return self.register(obj, source)

    def is_blocked(self, source: PluginSource) -> bool:
        """Return whether `blockedPlugins` / `--block-plugin` name it or its distribution."""
        names = {normalize_name(source.name)}
        if source.distribution:
            names.add(normalize_name(source.distribution))
        return bool(names & self.blocked)

    def register(self, obj: Any, source: PluginSource) -> LoadedPlugin | None:
        """Register an imported plugin object and run its registration hooks."""
        key = self._unique_key(source)
        try:
            self._check_hookimpls(obj)
            self.pm.register(obj, name=key)
        except Exception as error:
            self._fail(source, error)
            return None
        registrations = PluginRegistrations(key)
        try:
            self._run_registration_hooks(obj, registrations)
        except Exception as error:
            self.pm.unregister(obj)
            self._fail(source, error)
            return None
        hooks = sorted(
            caller.name
            for caller in self.pm.get_hookcallers(obj) or []
            if caller.name in hookspecs.EVENT_HOOKS
        )
        plugin = LoadedPlugin(source.name, key, source, obj, hooks, registrations)
        self.plugins.append(plugin)
        self._registry = None
        return plugin

    def prepare(self, obj: Any, source: PluginSource) -> LoadedPlugin:
        """Check a plugin object and run its registration hooks, without making it live (the
        hooks stay unregistered until `replace`); raises what `register` would record."""
        key = self._unique_key(source)
        self._check_hookimpls(obj)
        scratch = ScanningPluginManager(hookspecs.PROJECT_NAME)
        scratch.add_hookspecs(hookspecs)
        scratch.register(obj, name=key)  # pluggy's own validation, as the live manager does it
        try:
            registrations = PluginRegistrations(key)
            self._run_registration_hooks(obj, registrations, scratch)
            hooks = sorted(
                caller.name
                for caller in scratch.get_hookcallers(obj) or []
                if caller.name in hookspecs.EVENT_HOOKS
            )
        finally:
            scratch.unregister(obj)
        return LoadedPlugin(source.name, key, source, obj, hooks, registrations)

    def replace(self, old: list[LoadedPlugin], new: list[LoadedPlugin]) -> None:
        """Make `new` (prepared) live in place of `old`, in one step: on an error `old` are
        registered again and the error is raised."""
        for plugin in old:
            self.pm.unregister(plugin.obj)
        registered: list[LoadedPlugin] = []
        try:
            for plugin in new:
                self.pm.register(plugin.obj, name=plugin.key)
                registered.append(plugin)
        except Exception:
            for plugin in registered:
                self.pm.unregister(plugin.obj)
            for plugin in old:
                self.pm.register(plugin.obj, name=plugin.key)
            raise
        gone = {id(plugin) for plugin in old}
        self.plugins = [p for p in self.plugins if id(p) not in gone] + new
        self._registry = None

    def register_inline(self, obj: Any, name: str) -> LoadedPlugin | None:
        """Register a plugin object given in code (the SDK, tests)."""
        return self.register(obj, PluginSource(name, "inline", "sdk"))

    # --- what was loaded ------------------------------------------------------------------

    @property
    def registry(self) -> Registry:
        """Return the merged registrations of all loaded plugins."""
        if self._registry is None:
            self._registry = Registry.merge([p.registrations for p in self.plugins])
            for flag in self._registry.flags.values():
                self.runtime.flag_values.setdefault(flag.name, flag.default)
        return self._registry

    def describe(self, key: str) -> str:
        """Return where the plugin registered as `key` came from."""
        for plugin in self.plugins:
            if plugin.key == key:
                return plugin.source.describe()
        return key

    def bind(
        self,
        actions: SessionActions,
        navigation: SessionNavigation | None = None,
        model_registry: ModelRegistry | None = None,
    ) -> None:
        """Bind the session: plugin actions work from now on; registered providers are applied."""
        if model_registry is not None:
            self.runtime.model_registry = model_registry
            self.apply_providers(model_registry)
        self.runtime.bind(actions, navigation)

    def apply_providers(self, model_registry: ModelRegistry) -> None:
        """Add the providers plugins registered to `model_registry`."""
        for provider in self.registry.providers:
            model_registry.register_provider(provider.name, provider.config)
        for login in self.registry.login_providers:
            model_registry.auth.add_login_provider(login)

    def model_registry(self, auth: AuthStorage | None = None) -> ModelRegistry:
        """Return a model registry for this agent dir (auth.json, models.json) and the plugins'
        providers."""
        from pi_core.ai.auth import AuthStorage
        from pi_core.ai.model_registry import ModelRegistry

        registry = ModelRegistry(
            auth or AuthStorage(self.agent_dir / "auth.json"), self.agent_dir / "models.json"
        )
        self.apply_providers(registry)
        return registry

    # --- internals ------------------------------------------------------------------------

    def _unique_key(self, source: PluginSource) -> str:
        if source.kind in ("file", "package") and source.path is not None:
            return str(source.path)
        key, n = source.name, 2
        while self.pm.has_plugin(key):
            key, n = f"{source.name}#{n}", n + 1
        return key

    def _check_hookimpls(self, obj: Any) -> None:
        hook_api.check_requirement(obj)  # first: a newer plugin's unknown hooks are explained
        known = set(hookspecs.EVENT_HOOKS) | set(hookspecs.REGISTRATION_HOOKS)
        for attr in dir(obj):
            try:
                opts = self.pm.parse_hookimpl_opts(obj, attr)
            except Exception:
                continue
            if opts is None:
                continue
            hook = opts.get("specname") or attr
            if hook not in known:
                close = difflib.get_close_matches(hook, sorted(known), n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise PluginRejected(f"hookimpl {attr!r} matches no pi hook{hint}")
            if opts.get("wrapper") or opts.get("hookwrapper"):
                raise PluginRejected(
                    f"hookimpl {attr!r}: wrapper impls are not supported for pi hooks"
                )
            self._check_arguments(hook, getattr(obj, attr))

    def _check_arguments(self, hook: str, function: Any) -> None:
        offered = getattr(self.pm.hook, hook).spec.argnames
        try:
            parameters = inspect.signature(function).parameters
        except (TypeError, ValueError):
            return
        unknown = [name for name in parameters if name not in offered]
        if unknown:
            raise PluginRejected(
                f"hookimpl {hook}({', '.join(parameters)}) asks for "
                f"{', '.join(repr(n) for n in unknown)}, but {hook} only offers "
                f"({', '.join(offered)})"
            )

    def _run_registration_hooks(
        self, obj: Any, registrations: PluginRegistrations, pm: pluggy.PluginManager | None = None
    ) -> None:
        for caller in (pm or self.pm).get_hookcallers(obj) or []:
            if caller.name not in hookspecs.REGISTRATION_HOOKS:
                continue
            for impl in caller.get_hookimpls():
                if impl.plugin is not obj:
                    continue
                values = {"register": registrations.register_fn(caller.name), "ctx": self.ctx}
                result = impl.function(*[values[name] for name in impl.argnames])
                if inspect.isawaitable(result):
                    if inspect.iscoroutine(result):
                        result.close()
                    raise TypeError(f"{caller.name} must be a plain def, not async def")

    def _fail(self, source: PluginSource, error: BaseException) -> None:
        self.errors.append(load_error(source, error))

    def _report_bus_error(self, channel: str, error: BaseException) -> None:
        self.dispatcher.publish_error("", "", f"events:{channel}", error)


def _extension_paths(settings: SettingsManager, cwd: Path, agent_dir: Path) -> list[Path]:
    """The `extensions` of global then project settings, each relative to its own folder."""
    scoped = (
        (settings.get_global_settings(), agent_dir),
        (settings.get_project_settings(), project_dir(cwd)),
    )
    return [
        resolve_path(entry, base)
        for values, base in scoped
        for entry in values.get("extensions") or []
        if isinstance(entry, str)
    ]


def foreign_errors(
    found: list[ForeignExtension], blocked: set[str], diagnostics: list[Diagnostic]
) -> list[PluginLoadError]:
    """Return a load error per TypeScript extension not blocked (blocked ones are noted)."""
    errors = []
    for extension in found:
        if normalize_name(extension.name) in blocked:
            message = f"plugin {extension.name!r} is blocked"
            diagnostics.append(Diagnostic(message, str(extension.path), "info"))
        else:
            errors.append(extension.error())
    return errors


def normalize_name(name: str) -> str:
    """Compare plugin and distribution names the way packaging does (`Foo_Bar` == `foo-bar`)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def how_to_skip(source: PluginSource) -> str:
    """Say how to start without a plugin that fails to load (nothing for `-e` and code)."""
    block = f"pi --block-plugin {source.name}"
    if source.kind == "distribution":
        remove = f"pi remove {source.distribution}" if source.distribution else "pip uninstall it"
        return (
            f'to start without it: {block}, or add "{source.name}" to "blockedPlugins" in '
            f"settings.json; to uninstall it: {remove}"
        )
    if source.origin in ("global", "project") and source.path is not None:
        return f"to start without it: move it out of {source.path.parent}, or {block}"
    if source.origin == "settings":
        return f'to start without it: take it out of "extensions" in settings.json, or {block}'
    return ""


def load_error(source: PluginSource, error: BaseException) -> PluginLoadError:
    """Describe a plugin that failed to import or register: its source, the error, the fix."""
    return PluginLoadError(
        name=source.name,
        source=source.describe(),
        error=_describe_error(error),
        traceback="".join(traceback.format_exception(error)),
        kind="distribution" if source.kind == "distribution" else "file",
        fix=how_to_skip(source),
    )


def _describe_error(error: BaseException) -> str:
    if isinstance(error, SyntaxError):
        where = f"line {error.lineno}"
        if error.offset:
            where += f", column {error.offset}"
        if error.filename:
            where = f"{error.filename}, {where}"
        return f"{type(error).__name__}: {error.msg} ({where})"
    text = str(error).strip()
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def load_plugins(
    cwd: str | Path,
    options: LoadOptions | None = None,
    *,
    agent_dir: Path | None = None,
    ui: ExtensionUI | None = None,
) -> PluginManager:
    """Create a PluginManager for `cwd` and load every plugin the options allow."""
    manager = PluginManager(cwd, agent_dir=agent_dir, ui=ui)
    manager.load(options)
    return manager


__all__ = ["LoadOptions", "LoadedPlugin", "Origin", "PluginManager", "load_plugins"]
