"""`/model` (and Ctrl+L): pick a model; `/scoped-models`: choose what Ctrl+P cycles through."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from prompt_toolkit.key_binding import KeyPressEvent

from pi_core.fuzzy import fuzzy_score
from pi_core.modes.interactive.selectors.picker import Picker, Row, run_dialog

if TYPE_CHECKING:
    from pi_core.modes.interactive.host import CommandHost


def model_rows(models: list[Any], current: Any, query: str) -> list[Row]:
    """Models matching the query fuzzily (best first), ✓ on the current one."""
    scored = []
    for index, model in enumerate(models):
        score = min(
            (s for s in (fuzzy_score(query, model.key), fuzzy_score(query, model.name or ""))
             if s is not None),
            default=None,
        )  # fmt: skip
        if score is not None:
            scored.append((score, index, model))
    scored.sort(key=lambda item: (item[0], item[1]))
    rows = []
    for _, _, model in scored:
        is_current = current is not None and model.key == current.key
        mark = " ✓" if is_current else ""
        name = f"  {model.name}" if model.name and model.name != model.id else ""
        rows.append(Row(model, f"{model.key}{name}{mark}"))
    return rows


async def select_model(app: CommandHost) -> None:
    """The model selector: only models whose provider has a key; Enter switches."""
    session = app.session
    models = session.model_registry.available_models()
    if not models:
        models_json = session.plugins.agent_dir / "models.json"
        app.transcript.status(
            f"No models available: /login stores an API key, or add a provider to {models_json}",
            "yellow",
        )
        return
    current = session.model
    picker = Picker("picker", "Select model",
                    source=lambda query: model_rows(models, current, query))  # fmt: skip
    if current is not None:
        picker.refresh(current)
    chosen = await run_dialog(app, picker)
    if chosen is None:
        return
    await session.set_model(chosen)
    with_default = getattr(session.settings, "set_default_model_and_provider", None)
    if with_default is not None:
        with_default(chosen.provider, chosen.id)
    app.transcript.status(f"Model: {chosen.key}")


async def scope_models(app: CommandHost) -> None:
    """Toggle models with Enter; Ctrl+S saves them as `enabledModels` for Ctrl+P."""
    session = app.session
    models = session.model_registry.available_models()
    if not models:
        app.transcript.status("No models available", "yellow")
        return
    enabled: list[str] = [model.key for model, _ in session.scoped_models]

    def rows(query: str) -> list[Row]:
        found = model_rows(models, session.model, query)
        for row in found:
            row.text = ("[x] " if row.value.key in enabled else "[ ] ") + row.text
        return found

    picker = Picker("picker", "Scoped models (Ctrl+P cycles through the checked ones)",
                    source=rows)  # fmt: skip
    picker.hint = (
        "type to search  ↑↓ move  enter toggle  ctrl+a all  ctrl+x none  "
        "ctrl+p provider  alt+↑/↓ reorder  ctrl+s save  escape cancel"
    )
    picker.status = lambda: f"{len(enabled)} enabled" if enabled else "none: all models cycle"

    def redraw(keep: Any) -> None:
        picker.refresh(keep)

    def toggle() -> None:
        row = picker.current()
        if row is None:
            return
        key = row.value.key
        if key in enabled:
            enabled.remove(key)
        else:
            enabled.append(key)
        redraw(row.value)

    picker.confirm = toggle  # type: ignore[method-assign]
    kb = picker.key_bindings

    def bind(action: str, handler: Any) -> None:
        for keys in app.keymap.prompt_toolkit_keys(action):
            kb.add(*keys, eager=True)(handler)

    def enable_all(event: KeyPressEvent) -> None:
        enabled[:] = [m.key for m in models]
        redraw(None)

    def clear_all(event: KeyPressEvent) -> None:
        enabled.clear()
        redraw(None)

    def toggle_provider(event: KeyPressEvent) -> None:
        row = picker.current()
        if row is None:
            return
        keys = [m.key for m in models if m.provider == row.value.provider]
        if all(k in enabled for k in keys):
            enabled[:] = [k for k in enabled if k not in keys]
        else:
            enabled.extend(k for k in keys if k not in enabled)
        redraw(row.value)

    def reorder(step: int) -> Any:
        def handler(event: KeyPressEvent) -> None:
            row = picker.current()
            if row is None or row.value.key not in enabled:
                return
            index = enabled.index(row.value.key)
            target = index + step
            if 0 <= target < len(enabled):
                enabled[index], enabled[target] = enabled[target], enabled[index]
            redraw(row.value)

        return handler

    def save(event: KeyPressEvent) -> None:
        picker.answer(list(enabled))

    bind("app.models.enableAll", enable_all)
    bind("app.models.clearAll", clear_all)
    bind("app.models.toggleProvider", toggle_provider)
    bind("app.models.reorderUp", reorder(-1))
    bind("app.models.reorderDown", reorder(1))
    bind("app.models.save", save)
    saved = await run_dialog(app, picker)
    if saved is None:
        app.transcript.status("Scoped models unchanged")
        return
    from pi_core.ai.model_scope import resolve_scope

    session.settings.set_enabled_models(saved or None)
    session.scoped_models = resolve_scope(session.model_registry, saved)
    if saved:
        app.transcript.status(f"Saved {len(saved)} scoped model(s) to enabledModels")
    else:
        app.transcript.status("Cleared enabledModels: Ctrl+P cycles all available models")
