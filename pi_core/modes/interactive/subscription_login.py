"""`/login` → "Use a subscription": run a plugin's login flow in the REPL, as pi's login dialog.

The URL is shown (and opened in the browser); a flow with a callback server also takes a pasted
redirect URL, whichever comes first; a device-code flow shows its code while it polls.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from pi_core.ai.oauth import (
    LoginCallbacks,
    LoginPrompt,
    LoginProvider,
    OAuthCredentials,
    OAuthError,
)
from pi_core.ai.oauth.browser import open_browser
from pi_core.modes.interactive.dialogs import Dialog
from pi_core.modes.interactive.selectors.picker import run_dialog

if TYPE_CHECKING:
    from pi_core.modes.interactive.host import CommandHost

CANCELLED = "Login cancelled"
PASTE_MESSAGE = "Paste redirect URL below, or complete login in browser:"


WAITING = "Waiting for browser authentication..."


def _callbacks(
    app: CommandHost, provider: LoginProvider, on_waiting: Callable[[], None]
) -> LoginCallbacks:
    async def ask(message: str) -> str:
        answer = await run_dialog(app, Dialog("input", provider.name, message=message))
        if answer is None:
            raise OAuthError(CANCELLED)
        return str(answer)

    async def on_prompt(prompt: LoginPrompt) -> str:
        return await ask(prompt.message)

    async def pasted() -> str:
        return await ask(PASTE_MESSAGE)

    def on_auth(url: str, instructions: str | None) -> None:
        app.transcript.status(f"Log in to {provider.name}: {url}", "cyan")
        if instructions:
            app.transcript.status(instructions, "yellow")
        open_browser(url)
        if not provider.uses_callback_server:
            on_waiting()
        app.invalidate()

    def on_progress(message: str) -> None:
        app.transcript.status(message)
        app.invalidate()

    manual = pasted if provider.uses_callback_server else None
    models = [m.id for m in app.session.model_registry.all_models() if m.provider == provider.id]
    return LoginCallbacks(on_auth, on_prompt, on_progress, manual, models)


async def subscription_login(app: CommandHost, provider: LoginProvider) -> bool:
    """Run `provider`'s flow and store the login in auth.json; False when it failed or was
    cancelled (and said so)."""
    auth = app.session.model_registry.auth
    dialogs: list[asyncio.Future[None]] = []
    cancelled: list[bool] = []

    async def wait_or_cancel(flow: asyncio.Task[OAuthCredentials]) -> None:
        """A device-code flow polls: offer to cancel it meanwhile (Enter or Esc)."""
        await run_dialog(app, Dialog("select", provider.name, ["Cancel"], message=WAITING))
        cancelled.append(True)
        flow.cancel()

    def on_waiting() -> None:
        dialogs.append(asyncio.ensure_future(wait_or_cancel(flow)))

    flow: asyncio.Task[OAuthCredentials] = asyncio.ensure_future(
        provider.login(_callbacks(app, provider, on_waiting))
    )
    try:
        credentials = await flow
        auth.set_oauth(provider.id, credentials)
    except asyncio.CancelledError:
        if not cancelled:
            raise
        app.transcript.status(CANCELLED)
        return False
    except (OAuthError, OSError, ValueError) as error:
        if str(error) != CANCELLED:
            app.transcript.status(f"Failed to login to {provider.name}: {error}", "red")
        else:
            app.transcript.status(CANCELLED)
        return False
    finally:
        for dialog in dialogs:
            dialog.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await dialog
    app.transcript.status(f"✓ Logged in to {provider.name}; saved in {auth.path}", "green")
    return True
