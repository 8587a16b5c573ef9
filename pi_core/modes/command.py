"""`pi [options] [@files...] [messages...]`: the agent from the command line (pi 0.73.1's options).

Plugins load before the options are parsed, so flags they register appear in `--help` and work.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from pi_core.modes.thinking_option import LenientThinkingLevel

if TYPE_CHECKING:
    from pi_core.ai.model_registry import ModelRegistry
    from pi_core.modes.run_options import RunOptions

THINKING = LenientThinkingLevel()


def _split(value: str | None) -> list[str] | None:
    if value is None:
        return None
    return [part.strip() for part in value.split(",") if part.strip()]


class RunCommand(click.Command):
    """Loads plugins first (with `-e` and `--no-extensions` from argv) to add their flags."""

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Show the usage as `pi`, not as the hidden subcommand."""
        formatter.write_usage("pi", "[OPTIONS] [@FILES]... [MESSAGES]...")

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Add plugin flags as options, then parse as usual; when the REPL can draw its editor
        before the plugins load (no option a plugin could own), they are not loaded here."""
        from pi_core.modes.early_start import early_start_wanted
        from pi_core.modes.export_cli import export_needs_no_plugins

        known = {name for param in self.params for name in param.opts}
        if early_start_wanted(args, known):
            ctx.meta["pi.editor_first"] = True
        elif not {"-v", "--version"} & set(args) and not export_needs_no_plugins(args, known):
            # click parameter names must be identifiers; a flag's own name may hold dashes.
            flag_names: dict[str, str] = ctx.meta.setdefault("pi.flag_names", {})
            for flag in _plugin_flags(ctx, args):
                option = f"--{flag['name']}"
                if option in known:
                    continue
                dest = f"pi_flag_{len(flag_names)}"
                flag_names[dest] = flag["name"]
                if flag["type"] == "boolean":
                    param = click.Option([option, dest], is_flag=True,
                                         default=None, help=flag["description"])  # fmt: skip
                else:
                    param = click.Option([option, dest], default=None,
                                         metavar="VALUE", help=flag["description"])  # fmt: skip
                self.params.append(param)
        return super().parse_args(ctx, args)


def _plugin_flags(ctx: click.Context, args: list[str]) -> list[dict[str, Any]]:
    """Load the plugins (kept in `ctx.meta`) and return their flags; for `--help`, the flags
    remembered from the last load when nothing they depend on changed (`flag_cache`)."""
    cwd = Path.cwd()
    extensions = _prescan(args, ("-e", "--extension"))
    no_extensions = "--no-extensions" in args or "-ne" in args
    blocked = _prescan(args, ("--block-plugin",))
    help_only = bool({"-h", "--help"} & set(args))
    if help_only:
        from pi_core.config.paths import agent_dir
        from pi_core.plugins import flag_cache

        home = agent_dir()
        load_key = {"extensions": extensions, "no_extensions": no_extensions, "blocked": blocked}
        key = flag_cache.cache_key(cwd, home, load_key)
        cached = flag_cache.cached_flags(key)
        if cached is not None:
            return cached
        modules_before = set(sys.modules)
    from pi_core.modes.run_options import RunOptions
    from pi_core.modes.startup import load_plugins_for

    options = RunOptions(
        cwd=cwd, extensions=extensions, no_extensions=no_extensions, blocked=blocked
    )
    if not help_only:  # plugins of the --session's own folder (session_cwd.py)
        from pi_core.modes.fork_first import ask_fork_first
        from pi_core.modes.session_cwd import start_in_session_folder

        options.session = next(iter(_prescan(args, ("--session",))[-1:]), None)
        options.session_dir = next(iter(_prescan(args, ("--session-dir",))[-1:]), None)
        options.fork = next(iter(_prescan(args, ("--fork",))[-1:]), None)
        options.no_session = "--no-session" in args
        ask_fork_first(ctx, options, args)  # pi asks before it loads anything
        start_in_session_folder(options, [])
    manager = load_plugins_for(options)
    ctx.meta["pi.plugins"] = manager
    flags = [
        {"name": flag.name, "type": flag.type, "description": flag.description}
        for flag in manager.registry.flags.values()
    ]
    if help_only and not manager.errors:
        watched = [
            str(home / "settings.json"),
            str(home / "extensions"),
            str(cwd / ".pi" / "settings.json"),
            str(cwd / ".pi" / "extensions"),
        ]
        for plugin in manager.plugins:
            if plugin.source.path is not None:
                watched += [str(plugin.source.path), str(plugin.source.path.parent)]
        flag_cache.store_flags(key, flags, flag_cache.watched_paths(modules_before, watched))
    return flags


def _prescan(args: list[str], names: tuple[str, ...]) -> list[str]:
    values = []
    for index, arg in enumerate(args):
        if arg in names and index + 1 < len(args):
            values.append(args[index + 1])
        for name in names:
            if arg.startswith(name + "="):
                values.append(arg.split("=", 1)[1])
    return values


EPILOG = """\b
Commands:
  pi install <spec> [-l]   Install a plugin distribution and record it in settings
  pi remove <spec> [-l]    Uninstall a recorded plugin
  pi update [spec]         Upgrade recorded plugins
  pi list                  List recorded and installed plugins
  pi plugins               List loaded plugins, what they registered, and load errors
  pi config                List resources; pi config enable|disable <path|plugin>
  pi plugin new <name>     Create pi-plugin-<name>, a plugin distribution to start from

\b
Examples:
  pi -p "List all .py files in src/"
  pi @prompt.md @image.png -p "What color is the sky?"
  pi --model openai/gpt-4o-mini -p "Help me refactor this code"
  pi --tools read,grep,find,ls -p "Review the code in src/"
  pi --mode rpc --no-session
"""


@click.command(
    "run",
    cls=RunCommand,
    context_settings={"help_option_names": ["-h", "--help"]},
    epilog=EPILOG,
    hidden=True,
)
@click.option(
    "-p",
    "--print",
    "print_mode",
    is_flag=True,
    help="Non-interactive: process the prompt and exit.",
)
@click.option(
    "--mode",
    type=click.Choice(["text", "json", "rpc"]),
    default=None,
    help="Output mode: text (default), json, or rpc.",
)
@click.option("--provider", help="Provider name.")
@click.option("--model", help='Model pattern or id ("provider/id", optional ":<thinking>").')
@click.option("--thinking", type=THINKING, help="Thinking level.")
@click.option("--api-key", help="API key (default: auth.json, then environment variables).")
@click.option("--system-prompt", help="System prompt (text or a file).")
@click.option(
    "--append-system-prompt",
    multiple=True,
    help="Append text or a file's contents to the system prompt (repeatable).",
)
@click.option(
    "-c", "--continue", "continue_session", is_flag=True, help="Continue the previous session."
)
@click.option("-r", "--resume", is_flag=True, help="Select a session to resume.")
@click.option("--session", help="Use a specific session file or partial id.")
@click.option("--fork", help="Fork a session file or partial id into a new session.")
@click.option("--session-dir", help="Folder for session storage and lookup.")
@click.option("--no-session", is_flag=True, help="Do not save the session.")
@click.option("--models", help="Comma-separated model patterns for cycling.")
@click.option(
    "-t", "--tools", help="Comma-separated allow-list of tools (built-in, plugin and custom)."
)
@click.option("-nt", "--no-tools", is_flag=True, help="Disable all tools by default.")
@click.option(
    "-nbt", "--no-builtin-tools", is_flag=True, help="Disable built-in tools, keep plugin tools."
)
@click.option(
    "-e",
    "--extension",
    "extensions",
    multiple=True,
    help="Load a plugin file or folder (repeatable).",
)
@click.option(
    "-ne", "--no-extensions", is_flag=True, help="Skip plugin discovery (-e paths still load)."
)
@click.option(
    "--block-plugin",
    "blocked",
    multiple=True,
    metavar="NAME",
    help="Do not load the plugin (or distribution) NAME (repeatable).",
)
@click.option("--skill", "skills", multiple=True, help="Load a skill file or folder (repeatable).")
@click.option("-ns", "--no-skills", is_flag=True, help="Disable skills.")
@click.option(
    "--prompt-template",
    "prompt_templates",
    multiple=True,
    help="Load a prompt template file or folder (repeatable).",
)
@click.option("-np", "--no-prompt-templates", is_flag=True, help="Disable prompt templates.")
@click.option("--theme", "themes", multiple=True, help="Load a theme file or folder (repeatable).")
@click.option("--no-themes", is_flag=True, help="Disable themes.")
@click.option("-nc", "--no-context-files", is_flag=True, help="Do not load AGENTS.md / CLAUDE.md.")
@click.option(
    "--list-models",
    "list_models",
    is_flag=False,
    flag_value="",
    default=None,
    metavar="[SEARCH]",
    help="List available models (optionally matching SEARCH).",
)
@click.option(
    "--all",
    "list_all",
    is_flag=True,
    help="With --list-models: every known model, with or without a key, with key and API "
    "columns (not in pi).",
)
@click.option(
    "--export",
    "export_file",
    metavar="FILE",
    help="Export a session file to HTML and exit (output: the first message, or "
    "pi-session-<name>.html).",
)
@click.option("--verbose", is_flag=True, help="Verbose start-up.")
@click.option("--offline", is_flag=True, help="No start-up network operations (PI_OFFLINE=1).")
@click.argument("arguments", nargs=-1)
@click.pass_context
def run_command(ctx: click.Context, /, arguments: tuple[str, ...], **values: Any) -> None:
    """pi: a terminal coding agent with read, bash, edit and write tools, and plugins."""
    from pi_core.modes.run_options import RunOptions

    if values.pop("offline"):
        os.environ["PI_OFFLINE"] = "1"
    verbose = values.pop("verbose")
    print_mode, mode = values.pop("print_mode"), values.pop("mode")
    list_models, list_all = values.pop("list_models"), values.pop("list_all")
    export_file = values.pop("export_file")
    if export_file is not None:
        from pi_core.modes.export_cli import export_and_exit

        export_and_exit(export_file, [a for a in arguments if not a.startswith("@")])
    flag_names: dict[str, str] = ctx.meta.get("pi.flag_names", {})
    flag_values = {
        flag_names[key]: value
        for key, value in list(values.items())
        if key in flag_names and value is not None
    }
    for key in list(values):
        if key.startswith("pi_flag_"):
            del values[key]
    options = RunOptions(
        cwd=Path.cwd(),
        append_system_prompt=list(values.pop("append_system_prompt")),
        extensions=list(values.pop("extensions")),
        blocked=list(values.pop("blocked")),
        skills=list(values.pop("skills")),
        prompt_templates=list(values.pop("prompt_templates")),
        themes=list(values.pop("themes")),
        models=_split(values.pop("models")) or [],
        tools=_split(values.pop("tools")),
        flag_values=flag_values,
        **values,
    )
    files = [a[1:] for a in arguments if a.startswith("@")]
    messages = [a for a in arguments if not a.startswith("@")]
    from pi_core.modes.fork_first import take_fork_answer
    from pi_core.modes.session_cwd import start_in_session_folder
    from pi_core.modes.session_elsewhere import fork_or_stop

    if not take_fork_answer(ctx, options):  # not asked while the plugins were pre-loaded
        fork_or_stop(options, interactive=mode is None and not print_mode and sys.stdin.isatty())
    files = start_in_session_folder(options, files)  # a --session works in its own folder
    import asyncio

    if ctx.meta.get("pi.editor_first"):
        from pi_core.modes.interactive.launch import run_editor_first

        sys.exit(asyncio.run(run_editor_first(options, messages, files, verbose)))
    from pi_core.modes.startup import load_plugins_for, report_problems
    from pi_core.plugins.manager import PluginManager

    manager: PluginManager | None = ctx.meta.get("pi.plugins")
    if manager is None:  # `--help` was an option's value, and the flags came from the cache
        manager = load_plugins_for(options)
    registry = manager.model_registry()
    must_stop = report_problems(manager, registry, verbose=verbose)
    if list_models is not None:
        from pi_core.modes.list_models import print_models

        # `--list-models --all codestral`: the flag took no value, so the search came as a word
        search = list_models or " ".join(a for a in arguments if not a.startswith("@"))
        sys.exit(print_models(registry, search, everything=list_all))
    if must_stop:
        sys.exit(1)
    from pi_core.modes.lean import exit_process, startup_done

    if mode is None and not print_mode and sys.stdin.isatty():
        from pi_core.modes.interactive import run_interactive

        startup_done()  # the REPL runs long: the GC is back on for it
        sys.exit(asyncio.run(run_interactive(options, manager, messages, files)))

    code = asyncio.run(_run(options, manager, registry, mode or "text", messages, files))
    exit_process(code)  # the session is closed and flushed by now


async def _run(
    options: RunOptions,
    manager: Any,
    registry: ModelRegistry,
    mode: str,
    messages: list[str],
    files: list[str],
) -> int:
    from pi_core.modes.files import FileArgumentError, process_file_arguments
    from pi_core.modes.lean import startup_done
    from pi_core.modes.session_folder_first import refuse_missing_folder
    from pi_core.modes.startup import StartupError, open_session
    from pi_core.session.missing_cwd import MissingSessionCwdError

    try:
        if mode == "rpc":
            from pi_core.modes.rpc import run_rpc_mode
            from pi_core.modes.rpc_ui import RpcUI
            from pi_core.modes.stdout import write_record

            ui = RpcUI(write_record)
            manager.runtime.ui = ui
            session = await open_session(options, manager, ui, registry)
            startup_done()
            if session.model is None:
                await _announce_local_model(session)
            return await run_rpc_mode(session, ui)
        refuse_missing_folder(options)  # pi says so before a bad @file or a missing prompt
        attached = process_file_arguments(files, options.cwd)
        # pi trims piped text and joins it to the @files and first message with nothing between
        stdin_text = None if sys.stdin.isatty() else sys.stdin.read().strip()
        first = "".join(
            part for part in (stdin_text, attached.text, messages[0] if messages else None) if part
        )
        prompts = ([first] if first else []) + messages[1:]
        if not prompts:
            raise StartupError("No prompt given: pass a message, an @file, or pipe text in")
        session = await open_session(options, manager, model_registry=registry)
        startup_done()
    except (StartupError, FileArgumentError, LookupError, OSError, ValueError,
            MissingSessionCwdError) as error:  # fmt: skip
        from pi_core.terminal_text import for_stream

        # the message can quote a session file's header (its cwd): untrusted text
        click.echo(for_stream(f"Error: {error}", sys.stderr), err=True)
        return 1
    if session.model is None and not await _local_model(session, registry):
        await session.shutdown()
        return 1
    from pi_core.modes.print_mode import run_print_mode

    return await run_print_mode(
        session, prompts, images=attached.images or None, json_mode=mode == "json"
    )


async def _local_model(session: Any, registry: ModelRegistry) -> bool:
    """No model: use a local server's, saying so on stderr, or explain how to get one."""
    from pi_core.ai.guidance import cli_no_model
    from pi_core.modes.local_model import discovery_enabled

    if await _announce_local_model(session):
        return True
    if session.model_fallback_message:
        click.echo(f"Warning: {session.model_fallback_message}", err=True)
    agent_dir = session.plugins.agent_dir
    click.echo(cli_no_model(registry, agent_dir, discovery_enabled(session)), err=True)
    return False


async def _announce_local_model(session: Any) -> bool:
    """Select a local server's model when one answers, naming it on stderr."""
    from pi_core.ai.local_servers import describe
    from pi_core.modes.local_model import adopt_local_model

    found, model = await adopt_local_model(session)
    if model is None:
        return False
    click.echo(f"{describe(found)}. Using {model.key}.", err=True)
    return True
