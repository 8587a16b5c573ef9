"""The authorisation-code step of a browser login: the browser's redirect or a pasted one."""

from __future__ import annotations

import asyncio
import contextlib

from pi_core.ai.oauth.authorization_input import AuthorizationInput, parse_authorization_input
from pi_core.ai.oauth.callback_server import CallbackServer
from pi_core.ai.oauth.callbacks import LoginCallbacks, LoginPrompt
from pi_core.ai.oauth.errors import OAuthError


def _checked(text: str, state: str) -> AuthorizationInput:
    parsed = parse_authorization_input(text)
    if parsed.state and parsed.state != state:
        raise OAuthError("OAuth state mismatch")
    return AuthorizationInput(parsed.code, parsed.state or state)


async def receive_code(
    server: CallbackServer | None, callbacks: LoginCallbacks, state: str, placeholder: str
) -> AuthorizationInput:
    """Return the code from the browser's redirect or from what the user pastes, whichever is
    first; with neither, ask for it. A pasted state that differs from `state` raises OAuthError."""
    manual = callbacks.on_manual_code_input
    if server is not None and manual is not None:
        browser = asyncio.ensure_future(server.wait())
        pasted = asyncio.ensure_future(manual())
        done, _ = await asyncio.wait({browser, pasted}, return_when=asyncio.FIRST_COMPLETED)
        if browser in done and browser.result():
            pasted.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await pasted
            return AuthorizationInput(browser.result(), state)
        server.cancel()
        text = await pasted
        if text.strip():
            return _checked(text, state)
    elif server is not None:
        code = await server.wait()
        if code:
            return AuthorizationInput(code, state)
    text = await callbacks.on_prompt(
        LoginPrompt("Paste the authorization code or full redirect URL:", placeholder)
    )
    return _checked(text, state)
