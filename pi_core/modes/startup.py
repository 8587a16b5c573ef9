"""From command-line options to a running AgentSession (shared by print, json and rpc modes)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pi_core.modes.run_options import RunOptions
from pi_core.plugins.manager import LoadOptions, PluginManager

if TYPE_CHECKING:
    from pi_core.agent_session.session import AgentSession
    from pi_core.ai.model_registry import ModelRegistry
    from pi_core.plugins.ui import ExtensionUI
    from pi_core.session.manager import SessionManager

SESSION_DIR_ENV = "PI_CODING_AGENT_SESSION_DIR"


class StartupError(Exception):
    """Something the user asked for cannot be set up; the message says what to do."""


def session_manager_for(options: RunOptions, settings_dir: str | None) -> SessionManager:
    """Pick the session file: none, a given one, the most recent, a fork, or a new one."""
    from pi_core.session.manager import SessionManager

    cwd = str(options.cwd)
    folder = sessions_folder(options, settings_dir)
    if options.no_session:
        return SessionManager.in_memory(cwd)
    if options.resume:
        raise StartupError(
            "--resume picks a session interactively; in this mode pass --session <path|id> "
            "or --continue."
        )
    if options.fork:
        return SessionManager.fork_from(find_session(options.fork, folder), cwd, folder)
    if options.session:
        path = find_session(options.session, folder)
        return _opened_here(SessionManager.open(path, folder), cwd, options.session_in_cwd)
    if options.continue_session:
        return SessionManager.continue_recent(cwd, folder)
    return SessionManager.create(cwd, folder)


def sessions_folder(options: RunOptions, settings_dir: str | None) -> Path:
    """The folder session files are looked up in and written to (pi's order: --session-dir,
    then PI_CODING_AGENT_SESSION_DIR, then the sessionDir setting, else the cwd's own)."""
    from pi_core.session.paths import default_session_dir

    folder_text = options.session_dir or os.environ.get(SESSION_DIR_ENV) or settings_dir
    return Path(folder_text).expanduser() if folder_text else default_session_dir(str(options.cwd))


def _opened_here(manager: SessionManager, cwd: str, in_cwd: bool) -> SessionManager:
    """Refuse a session whose stored folder is gone (MissingSessionCwdError), as pi does, unless
    the user agreed to continue it in `cwd` (the file keeps its header)."""
    from pi_core.session.missing_cwd import MissingSessionCwdError, missing_cwd_of_manager

    issue = missing_cwd_of_manager(manager, cwd)
    if issue is None:
        return manager
    if not in_cwd:
        manager.close()
        raise MissingSessionCwdError(issue)
    manager.cwd = cwd
    return manager


def find_session(reference: str, folder: Path) -> Path:
    """Resolve a session path or a (partial) session id; raise StartupError when none matches."""
    candidate = Path(reference).expanduser()
    if candidate.is_file():
        return candidate.resolve()
    if candidate.suffix == ".jsonl" or os.sep in reference:
        raise StartupError(f"Session file not found: {candidate.resolve()}")
    from pi_core.session.paths import sessions_root

    matches: list[Path] = []
    for root in (folder, sessions_root()):
        matches = session_matches(reference, root)
        if matches:
            break
    unique = matches
    if not unique:
        raise StartupError(f"No session matches {reference!r} (looked in {folder})")
    if len(unique) > 1:
        names = ", ".join(p.name for p in unique[:5])
        raise StartupError(f"{reference!r} matches several sessions: {names}; give more of the id")
    return unique[0]


def session_matches(reference: str, root: Path) -> list[Path]:
    """The session files under `root` whose name holds the (partial) id `reference`, sorted."""
    if not root.is_dir():
        return []
    return sorted({p for p in root.rglob("*.jsonl") if reference in p.stem})


def load_plugins_for(options: RunOptions, ui: ExtensionUI | None = None) -> PluginManager:
    """Load the plugins the options allow (used before parsing plugin flags, and to run)."""
    manager = PluginManager(options.cwd, ui=ui)
    manager.load(
        LoadOptions(
            extension_paths=options.extensions,
            no_extensions=options.no_extensions,
            blocked=options.blocked,
        )
    )
    return manager


def config_warnings(manager: PluginManager, registry: ModelRegistry) -> list[str]:
    """Return one line per config file that could not be (fully) used: settings, models.json,
    auth.json, each with the file and, for JSON errors, line and column."""
    problems = [*manager.config_problems, *registry.errors]
    if registry.auth.error:
        problems.append(registry.auth.error)
    return list(dict.fromkeys(problems))


def problem_lines(manager: PluginManager, registry: ModelRegistry, *, verbose: bool) -> list[str]:
    """Config warnings and plugin load errors, one message per line (with tracebacks if verbose)."""
    lines = [f"Warning: {warning}" for warning in config_warnings(manager, registry)]
    for error in manager.errors:
        lines.append(f"Error: {error.message()}")
        if verbose and error.traceback:
            lines.append(error.traceback.rstrip())
    return lines


def report_problems(manager: PluginManager, registry: ModelRegistry, *, verbose: bool) -> bool:
    """Print config warnings and plugin load errors on stderr; return True when a plugin failed
    (start-up must stop: a plugin that did not load may be a gate)."""
    import click

    for line in problem_lines(manager, registry, verbose=verbose):
        click.echo(line, err=True)
    return bool(manager.errors)


async def open_session(
    options: RunOptions,
    plugins: PluginManager,
    ui: ExtensionUI | None = None,
    model_registry: ModelRegistry | None = None,
) -> AgentSession:
    """Create the AgentSession the options describe (plugins already loaded)."""
    from pi_core.resources.resource_loader import ResourceLoader
    from pi_core.resources.settings import SettingsManager
    from pi_core.sdk import create_agent_session

    settings = plugins.settings or SettingsManager.create(options.cwd, str(plugins.agent_dir))
    registry = model_registry or plugins.model_registry()
    resources = ResourceLoader(
        options.cwd,
        plugins.agent_dir,
        settings,
        skill_paths=options.skills,
        prompt_template_paths=options.prompt_templates,
        theme_paths=options.themes,
        no_skills=options.no_skills,
        no_prompt_templates=options.no_prompt_templates,
        no_themes=options.no_themes,
        no_context_files=options.no_context_files,
        system_prompt=options.system_prompt,
        append_system_prompt=options.append_system_prompt or None,
    )
    resources.reload()
    plugins.runtime.flag_values.update(options.flag_values)
    session_manager = session_manager_for(options, settings.get_session_dir())
    model: Any = model_pattern(options)
    if model is None and options.provider:
        model = provider_default(registry, options.provider)
    thinking = options.thinking
    scope = cli_scope(options, settings, registry)
    if model is None and scope and not session_manager.build_session_context().messages:
        model, scoped_level = start_model(scope, settings, registry)
        thinking = thinking or scoped_level
    session = await create_agent_session(
        cwd=options.cwd,
        agent_dir=plugins.agent_dir,
        model=model,
        thinking_level=thinking,
        tools=options.tools,
        no_tools=options.no_tools,
        no_builtin_tools=options.no_builtin_tools,
        session=session_manager,
        settings=settings,
        resources=resources,
        api_key=options.api_key,
        auth=registry.auth,
        model_registry=registry,
        plugin_manager=plugins,
        ui=ui,
    )
    if scope:
        session.scoped_models = scope
    return session


def cli_scope(
    options: RunOptions, settings: Any, registry: ModelRegistry
) -> list[tuple[Any, str | None]]:
    """Resolve `--models` (else the `enabledModels` setting) as pi does, saying on stderr which
    patterns matched nothing."""
    patterns = options.models or settings.get_enabled_models() or []
    if not patterns:
        return []
    import click

    from pi_core.ai.model_scope import resolve_scope_with_warnings

    scope, warnings = resolve_scope_with_warnings(registry, patterns)
    for warning in warnings:
        click.echo(f"Warning: {warning}", err=True)
    return scope


def start_model(
    scope: list[tuple[Any, str | None]], settings: Any, registry: ModelRegistry
) -> tuple[Any, str | None]:
    """The model a new session starts on under `--models`: the saved default when it is in
    scope, else the first scoped model (each with the level its pattern gave)."""
    provider, model_id = settings.get_default_provider(), settings.get_default_model()
    saved = registry.find(provider, model_id) if provider and model_id else None
    for model, level in scope:
        if saved is not None and model.key == saved.key:
            return model, level
    return scope[0]


def provider_default(registry: ModelRegistry, provider: str) -> str:
    """Return `provider/id` of the provider's default model (for `--provider` alone)."""
    from pi_core.ai.provider_defaults import default_model

    model = default_model(registry, provider)
    if model is not None:
        return model.key
    raise StartupError(f"Unknown provider {provider!r}: no model of it is configured")


def model_pattern(options: RunOptions) -> str | None:
    """Combine `--provider` and `--model` into one pattern (`provider/id[:level]`)."""
    if options.model and options.provider and "/" not in options.model:
        return f"{options.provider}/{options.model}"
    if options.model:
        return options.model
    return None
