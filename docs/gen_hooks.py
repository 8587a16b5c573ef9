"""Write the hook reference (docs/hooks.md) from pi_core/hookspecs.py, the event models and the
examples in docs/hook_examples/ (one plugin module per hook, run by tests/test_hook_examples.py).

python docs/gen_hooks.py            rewrite docs/hooks.md
python docs/gen_hooks.py --check    exit 1 if docs/hooks.md is out of date
"""

from __future__ import annotations

import ast
import inspect
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel

import pi_core.events as events
from pi_core import hookspecs

OUT = Path(__file__).with_name("hooks.md")
EXAMPLES = Path(__file__).with_name("hook_examples")

# ruff: noqa: E501 - the markdown table rows below are kept on one line each

INTRO = """# Hook reference

Every hook pi calls, generated from `pi_core/hookspecs.py` (run `python docs/gen_hooks.py` after
changing a hook). Implement a hook with `@hookimpl` on a function of the same name in your plugin
module; take any subset of its arguments, as `def` or `async def`.

Each hook below lists its arguments, its result and what the result does, and ends with an example
plugin. The examples live in `docs/hook_examples/` (one module per hook, public imports only) and
the test suite loads each one as a plugin and checks that it does what it says
(`tests/test_hook_examples.py`); copy one into `.pi/extensions/` to try it.

Set `PI_TRACE_PLUGINS=1` to log every event-hook call on stderr: the hook, the plugin, how long it
took and what it returned or raised (`PI_TRACE_PLUGINS=/path/to/file` appends the lines to that file
instead). See docs/writing-a-plugin.md.

## Versions

The hooks on this page are versioned as a whole: `pi_core.HOOK_API_VERSION` (also
`pi_core.hookspecs.HOOK_API_VERSION`), a `"MAJOR.MINOR"` string, now `"1.0"`. The promise:

- a new **minor** only adds: new hooks, new arguments to a hook, new optional fields on an event
  or a result. A plugin written for 1.0 keeps loading and working under every 1.x;
- a new **major** may remove or rename a hook or an argument, or change how a hook's results
  combine. Plugins written for the old major may need changes.

A plugin says which hook API it needs with a module attribute, `PI_HOOK_API = "1.0"`: that
minor or a later one of the same major. A pi whose hook API is older (say 1.0 for a plugin asking
for 1.2) or of another major refuses the plugin with `the plugin needs hook API 1.2 (PI_HOOK_API),
but this pi provides 1.0: upgrade pi-harness …`, in `pi plugins` and at start-up, instead of
failing on the first hook it does not know. Without the attribute, a hook pi does not have is still refused by name
(`hookimpl 'session_pause' matches no pi hook`). The hook API version is separate from the
`pi-harness` version, whose range a distribution declares in its dependencies (see
[writing-a-plugin.md](writing-a-plugin.md#a-complete-distribution)).

For pi's developers: `tests/architecture/hookspecs.lock.json` records every hookspec (name,
argument names, semantics, pluggy flags) with the version.
`tests/architecture/test_hook_api_version.py` fails when the hookspecs differ from it, saying whether the change needs a minor bump (hooks or
arguments added) or a major one (anything removed, renamed or changed); bump `HOOK_API_VERSION` in
`pi_core/hookspecs.py`, then regenerate the snapshot with
`python tests/architecture/test_hook_api_version.py`.

## How results combine

| semantics | rule |
|---|---|
| notify | every impl runs; results are ignored; an exception is reported to the error listeners and the next impl runs |
| cancel | a result with `cancel=True` stops the walk; otherwise the last non-None result stands |
| block | the first result with `block=True` stops the walk and the tool does not run; an exception in an impl also blocks (fail closed) |
| chain | each impl sees what the previous one produced |
| first | the first non-None result wins |
| aggregate | all results are merged, each path tagged with the plugin that gave it |

Results may be the result model or a plain dict in either spelling (`systemPrompt` or
`system_prompt`); anything else is reported as an error of that plugin (and, for `tool_call`,
blocks the tool).

A result of the wrong type is reported like an exception: an `extension_error` (RPC, JSON mode;
`Extension error (<plugin>): …` on stderr in print mode, a notice in the REPL) naming the plugin
and the hook, and pi goes on as if that impl had returned None. That covers a
`before_provider_request` replacement that is not a dict (the payload is kept as it was) and a
`user_bash` answer without a `result` (the next impl, or pi's own shell, runs the command), and a
`cancel` that is not true or false (`{"cancel": "yes"}` cancels nothing; the result is dropped).
Gates stay fail-closed: a wrong `tool_call` result, `{"block": "no"}` included, blocks the tool.

## Order

Impls run in pluggy's call order: impls marked `@hookimpl(tryfirst=True)` first, then the others
with the most recently loaded plugin first, then `@hookimpl(trylast=True)` impls. Plugins load in
this order: installed distributions (sorted by distribution, then entry-point name), the global
extension folder, the project extension folder, settings paths, `-e` paths. So a project plugin's
`tool_call` runs before a globally installed one's.

The cancel events `session_before_compact` and `session_before_tree` carry `earlier_result`: the
result standing when each impl is called. The default compaction and branch summary
(pi-plugin-compaction, `trylast` impls) run last and stand aside when it already holds a
compaction or summary, so any other plugin's wins (see docs/compaction.md).

## Context

Every event hook gets `ctx`, an `ExtensionContext`: `ui`, `has_ui`, `cwd`, `events`, `session`,
`model_registry`, `model`, `settings`, `get_flag()`, `exec()`, `check_tool_call()` work at any
time;
`is_idle()`, `abort()`, `has_pending_messages()`, `shutdown()`, `get_context_usage()`,
`compact()`, `get_system_prompt()`, `send_message()`, `send_user_message()`, `append_entry()`,
`set_session_name()`, `get_session_name()`, `set_label()`, `get_active_tools()`,
`get_all_tools()`, `set_active_tools()`, `register_tool()`, `unregister_tool()`,
`get_commands()`, `set_model()`, `get_thinking_level()` and `set_thinking_level()` raise
`PluginActionError` while plugins load and work once the session is
bound. `register_tool(tool)` adds a tool found late (an MCP server's, say), active at once
(unless `--tools` leaves it out or `--no-tools` is given);
`unregister_tool(name)` takes it away again. `await ctx.check_tool_call(event)` passes a call
the session's own loop did not make (a subagent's, say) through the session's whole `tool_call`
chain and returns the block that wins, or None; `await ctx.patch_tool_result(event)` passes
its result through the `tool_result` chain. A tool that runs another agent uses them so that
every plugin's gate sees that agent's calls too. Command handlers get a
`CommandContext`, which adds `wait_for_idle()`, `new_session()`, `fork()`, `navigate_tree()`,
`switch_session()` and `reload()`.

`ctx.settings.get(key, default=None)` reads the merged settings (project over global) by the
key path written in settings.json (`"warnings.anthropicExtraUsage"`): a copy of the value, or
`default` when no file sets it; plugins cannot change settings through it.

`ctx.ui` is the user interface; `ctx.has_ui` says whether there is one. Dialogs (`select`,
`confirm`, `input`, `editor`, `custom`) are awaited; the rest return at once: `notify`,
`set_status`, `set_widget` (lines, or a component factory), `set_working_message`,
`set_working_visible`, `set_working_indicator`, `set_hidden_thinking_label`, `set_header`,
`set_footer`, `set_title`, `set_editor_text` / `get_editor_text` / `paste_to_editor`,
`set_editor_component` / `get_editor_component`, `on_terminal_input`,
`add_autocomplete_provider`, `theme` / `get_all_themes` / `get_theme` / `set_theme`,
`get_tools_expanded` / `set_tools_expanded`. What each does in the REPL, and what is left of
them in print and RPC mode, is in [repl.md](repl.md#plugins-ctxui).
"""


VARIANTS = (
    "`{0}` is one of `Bash{0}`, `Read{0}`, `Edit{0}`, `Write{0}`, `Grep{0}`, `Find{0}`, "
    "`Ls{0}` and `Custom{0}`; narrow with `isinstance`."
)

NOTES = {
    "tool_call": VARIANTS.format("ToolCallEvent")
    + " For the built-in tools `input` is the tool's parameter model (`BashToolInput`…); "
    "mutate it in place to change the arguments the tool runs with.",
    "tool_result": VARIANTS.format("ToolResultEvent")
    + " `details` is the tool's details model where it has one.",
    "input": "Return `InputContinue()`, `InputTransform(text=…, images=…)` or `InputHandled()` "
    '(or the dicts `{"action": "continue"}` and so on).',
    "user_bash": "`result` is a `BashResult(output, exit_code, cancelled, truncated, "
    "full_output_path)`. A result without `result` (for instance only pi's `operations`, which "
    "pi for Python does not run commands through) is reported as an error of the plugin, and "
    "the next impl runs the command.",
}


def _type_name(annotation: Any) -> str:
    text = repr(annotation) if not isinstance(annotation, type) else annotation.__name__
    for prefix in ("typing.", "pi_core.", "collections.abc."):
        text = text.replace(prefix, "")
    return text.replace("NoneType", "None")


def _fields(model: type[BaseModel]) -> list[str]:
    lines = []
    for name, field in model.model_fields.items():
        if name == "type":
            continue
        alias = field.alias or name
        spelled = name if alias == name else f"{name}` / `{alias}"
        lines.append(f"  - `{spelled}`: {_type_name(field.annotation)}")
    return lines


def _model(name: str) -> type[BaseModel] | None:
    model = getattr(events, name, None)
    return model if isinstance(model, type) and issubclass(model, BaseModel) else None


def _example(name: str) -> list[str]:
    """Return the example for hook `name`: its docstring as a caption, then its code."""
    path = EXAMPLES / f"{name}.py"
    if not path.exists():
        raise SystemExit(f"{path} is missing: every hook needs an example")
    source = path.read_text()
    module = ast.parse(source)
    caption = ast.get_docstring(module)
    if not caption:
        raise SystemExit(f"{path} needs a one-line module docstring saying what it does")
    first = module.body[0]
    assert first.end_lineno is not None
    code = "\n".join(source.splitlines()[first.end_lineno :]).strip()
    return [f"Example: {caption}", "", "```python", code, "```", ""]


def _spec_section(name: str) -> list[str]:
    spec = getattr(hookspecs, name)
    doc = inspect.getdoc(spec) or ""
    signature = inspect.signature(spec)
    lines = [f"### `{name}`", "", doc, ""]
    arg = signature.parameters.get("event")
    if arg is not None:
        event_model = _model(str(arg.annotation))
        lines.append(f"- event: `{arg.annotation}`")
        if event_model is not None:
            lines += _fields(event_model)
    result = str(signature.return_annotation)
    if result not in ("None", "Any"):
        result_name = result.replace(" | None", "")
        lines.append(f"- result: `{result}`")
        result_model = _model(result_name)
        if result_model is not None:
            lines += _fields(result_model)
    elif result == "Any":
        lines.append(
            "- result: the replacement value (for `before_provider_request` a dict, like the "
            "payload; anything else is reported and the payload is kept), or None"
        )
    if name in NOTES:
        lines += ["", NOTES[name]]
    if lines[-1] != "":
        lines.append("")
    return lines + _example(name)


def render() -> str:
    """Return the full text of docs/hooks.md."""
    lines = [INTRO, "## Registration hooks", ""]
    lines.append("Called once per plugin while it loads, with `register` and `ctx`.")
    lines.append("")
    for name in hookspecs.REGISTRATION_HOOKS:
        lines += _spec_section(name)
    groups: dict[str, list[str]] = {}
    for name, semantics in hookspecs.EVENT_HOOKS.items():
        groups.setdefault(semantics, []).append(name)
    lines += ["## Event hooks", ""]
    lines += ["| hook | semantics |", "|---|---|"]
    lines += [f"| `{n}` | {s} |" for n, s in hookspecs.EVENT_HOOKS.items()]
    lines.append("")
    for name in hookspecs.EVENT_HOOKS:
        lines += _spec_section(name)
    return "\n".join(lines).rstrip() + "\n"


def main() -> int:
    text = render()
    if "--check" in sys.argv:
        if OUT.read_text() != text:
            print(f"{OUT} is out of date: run python docs/gen_hooks.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
