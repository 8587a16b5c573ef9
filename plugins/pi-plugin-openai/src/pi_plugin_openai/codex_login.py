"""ChatGPT Plus/Pro (Codex) subscription login: authorisation code with PKCE, as pi runs it.

The browser's redirect reaches a loopback server on pi's port (1455), or the user pastes the
redirect URL. The ChatGPT account id is read from the access token (a JWT), as pi reads it, and
stored beside the tokens as `accountId`.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from typing import Any
from urllib.parse import urlencode

from pi_core.ai.oauth import (
    CallbackServer,
    LoginCallbacks,
    LoginProvider,
    OAuthCredentials,
    OAuthError,
    callback_port,
    endpoint,
    generate_pkce,
    now_ms,
    receive_code,
    request_json,
)
from pi_plugin_openai.codex_auth import CodexTokenError
from pi_plugin_openai.codex_auth import account_id as codex_account_id

CLIENT_ID = "app_EMoamEEZ73f0CkXaXp7hrann"
AUTHORIZE_URL = "https://auth.openai.com/oauth/authorize"
TOKEN_URL = "https://auth.openai.com/oauth/token"
CALLBACK_PORT = 1455
CALLBACK_PATH = "/auth/callback"
SCOPE = "openid profile email offline_access"


def account_id(access_token: str) -> str | None:
    """Return the `chatgpt_account_id` claim of the token's payload, or None."""
    try:
        return codex_account_id(access_token)
    except CodexTokenError:
        return None


def _credentials(answer: dict[str, Any], what: str) -> OAuthCredentials:
    access, refresh, expires_in = (
        answer.get("access_token"),
        answer.get("refresh_token"),
        answer.get("expires_in"),
    )
    if not isinstance(access, str) or not isinstance(refresh, str):
        raise OAuthError(f"OpenAI Codex {what} response missing fields: {json.dumps(answer)}")
    if not isinstance(expires_in, int | float):
        raise OAuthError(f"OpenAI Codex {what} response missing fields: {json.dumps(answer)}")
    account = account_id(access)
    if account is None:
        raise OAuthError("Failed to extract accountId from token")
    expires = now_ms() + int(expires_in * 1000)
    return {"access": access, "refresh": refresh, "expires": expires, "accountId": account}


class CodexLogin(LoginProvider):
    """ChatGPT Plus/Pro (Codex Subscription): stored as `openai-codex` in auth.json."""

    id = "openai-codex"
    name = "ChatGPT Plus/Pro (Codex Subscription)"
    uses_callback_server = True

    async def login(self, callbacks: LoginCallbacks) -> OAuthCredentials:
        """Open the authorisation URL, receive the code, exchange it for tokens."""
        pkce = generate_pkce()
        state = secrets.token_hex(16)
        port = callback_port(CALLBACK_PORT)
        redirect_uri = f"http://localhost:{port}{CALLBACK_PATH}"
        query = {
            "response_type": "code",
            "client_id": CLIENT_ID,
            "redirect_uri": redirect_uri,
            "scope": SCOPE,
            "code_challenge": pkce.challenge,
            "code_challenge_method": "S256",
            "state": state,
            "id_token_add_organizations": "true",
            "codex_cli_simplified_flow": "true",
            "originator": "pi",
        }
        server = CallbackServer.start(port, CALLBACK_PATH, state, "OpenAI")
        try:
            callbacks.on_auth(
                f"{endpoint(AUTHORIZE_URL)}?{urlencode(query)}",
                "A browser window should open. Complete login to finish.",
            )
            received = await receive_code(server, callbacks, state, redirect_uri)
        finally:
            if server is not None:
                server.close()
        if not received.code:
            raise OAuthError("Missing authorization code")
        form = {
            "grant_type": "authorization_code",
            "client_id": CLIENT_ID,
            "code": received.code,
            "code_verifier": pkce.verifier,
            "redirect_uri": redirect_uri,
        }
        answer = await asyncio.to_thread(request_json, "POST", endpoint(TOKEN_URL), form=form)
        return _credentials(answer, "token exchange")

    def refresh(self, credentials: OAuthCredentials) -> OAuthCredentials:
        """Exchange the refresh token for new tokens (and the account id again)."""
        form = {
            "grant_type": "refresh_token",
            "refresh_token": str(credentials["refresh"]),
            "client_id": CLIENT_ID,
        }
        answer = request_json("POST", endpoint(TOKEN_URL), form=form)
        return _credentials(answer, "token refresh")
