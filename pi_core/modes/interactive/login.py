"""`/login` and `/logout`: log in with a subscription, or store or remove an API key.

With subscription logins offered (plugins' `register_login_providers`), `/login` first asks for
the method, as pi does; the flow itself runs in `subscription_login`. A key is typed into a masked
field, never echoed, and written under pi's lock with mode 0600 (AuthStorage.set_api_key).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pi_core.fuzzy import fuzzy_score
from pi_core.modes.interactive.dialogs import Dialog
from pi_core.modes.interactive.selectors.picker import Picker, Row, choose, run_dialog

if TYPE_CHECKING:
    from pi_core.ai.oauth import LoginProvider
    from pi_core.modes.interactive.host import CommandHost

LOGIN_HELP = "Log in with a subscription (Claude Pro/Max, ChatGPT, Copilot) or store an API key"
LOGOUT_HELP = "Remove a provider's stored login or API key from auth.json"
SUBSCRIPTION, API_KEY = "Use a subscription", "Use an API key"


def _providers(app: CommandHost) -> list[str]:
    return sorted({model.provider for model in app.session.model_registry.all_models()})


async def _pick_provider(app: CommandHost, title: str, providers: list[str]) -> str | None:
    def rows(query: str) -> list[Row]:
        scored = [(fuzzy_score(query, p), p) for p in providers]
        return [Row(p, p) for s, p in sorted((s, p) for s, p in scored if s is not None)]

    answer = await run_dialog(app, Picker("picker", title, source=rows))
    return answer if isinstance(answer, str) else None


async def login(app: CommandHost, args: str) -> None:
    """Ask for the method, then a subscription login or a provider and its key."""
    logins = app.session.model_registry.auth.login_providers()
    if not args.strip() and logins:
        method = await choose(app, "Select authentication method:", [SUBSCRIPTION, API_KEY])
        if method is None:
            return
        if method == SUBSCRIPTION:
            await _login_subscription(app, logins)
            return
    providers = _providers(app)
    provider = args.strip() or await _pick_provider(app, "Log in to (API key)", providers)
    if not provider:
        return
    note = "Paste the API key (it is stored in auth.json, not shown)."
    dialog = Dialog("input", f"API key for {provider}", message=note, password=True)
    key = await run_dialog(app, dialog)
    if not key or not key.strip():
        app.transcript.status("Login cancelled")
        return
    auth = app.session.model_registry.auth
    try:
        auth.set_api_key(provider, key.strip())
    except (OSError, ValueError) as error:
        app.transcript.status(f"Error: {error}", "red")
        return
    app.transcript.status(f"✓ Saved the API key for {provider} in {auth.path}", "green")
    if app.session.model is None:
        await _select_default(app, provider)


async def _login_subscription(app: CommandHost, logins: list[LoginProvider]) -> None:
    from pi_core.modes.interactive.subscription_login import subscription_login

    by_name = {login.name: login for login in logins}
    name = await _pick_provider(app, "Log in with a subscription", list(by_name))
    if not name or name not in by_name:
        return
    if await subscription_login(app, by_name[name]) and app.session.model is None:
        await _select_default(app, by_name[name].id)


async def _select_default(app: CommandHost, provider: str) -> None:
    """With no model yet, select the provider's default model (pi's rule), as pi does."""
    from pi_core.ai.provider_defaults import default_model

    model = default_model(app.session.model_registry, provider)
    if model is None:
        app.transcript.status(
            f"{provider} has no models here; use /model to select a model", "yellow"
        )
        return
    try:
        await app.session.set_model(model)
    except ValueError as error:
        app.transcript.status(f"Could not select {model.key}: {error}. Use /model", "yellow")
        return
    app.transcript.status(f"Selected {model.key}; /model picks another", "green")
    app.invalidate()


async def logout(app: CommandHost, args: str) -> None:
    """Remove a provider's entry from auth.json (after choosing it)."""
    auth = app.session.model_registry.auth
    stored = auth.stored_providers()
    if not stored:
        app.transcript.status("No stored credentials in auth.json")
        return
    provider = args.strip() or await _pick_provider(app, "Log out of", stored)
    if not provider:
        return
    if provider not in stored:
        app.transcript.status(f"No stored credentials for {provider}", "yellow")
        return
    subscription = auth.stored_type(provider) == "oauth"
    try:
        auth.remove(provider)
    except (OSError, ValueError) as error:
        app.transcript.status(f"Error: {error}", "red")
        return
    if subscription:  # pi's words, with the login's name
        names = {login.id: login.name for login in auth.login_providers()}
        app.transcript.status(f"Logged out of {names.get(provider, provider)}")
        return
    app.transcript.status(f"Removed the credentials of {provider} from {auth.path}")
