"""Claude Pro/Max subscription login: authorisation code with PKCE, as pi runs it.

The browser is sent to claude.ai; its redirect reaches a loopback server on pi's port (53692), or
the user pastes the redirect URL (or `code#state`). The state is the PKCE verifier, as in pi.
"""

from __future__ import annotations

import asyncio
import base64
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

CLIENT_ID = base64.b64decode("OWQxYzI1MGEtZTYxYi00NGQ5LTg4ZWQtNTk0NGQxOTYyZjVl").decode()
AUTHORIZE_URL = "https://claude.ai/oauth/authorize"
TOKEN_URL = "https://platform.claude.com/v1/oauth/token"
CALLBACK_PORT = 53692
CALLBACK_PATH = "/callback"
SCOPES = (
    "org:create_api_key user:profile user:inference user:sessions:claude_code "
    "user:mcp_servers user:file_upload"
)
EXPIRY_MARGIN_MS = 5 * 60 * 1000
"""pi stores `expires` five minutes early, so a token is refreshed before it dies."""


def _credentials(answer: dict[str, Any]) -> OAuthCredentials:
    try:
        return {
            "refresh": str(answer["refresh_token"]),
            "access": str(answer["access_token"]),
            "expires": now_ms() + int(answer["expires_in"]) * 1000 - EXPIRY_MARGIN_MS,
        }
    except (KeyError, TypeError, ValueError) as error:
        raise OAuthError(f"Anthropic token response lacks {error}") from error


class AnthropicLogin(LoginProvider):
    """Anthropic (Claude Pro/Max): stored as `anthropic` in auth.json."""

    id = "anthropic"
    name = "Anthropic (Claude Pro/Max)"
    uses_callback_server = True

    async def login(self, callbacks: LoginCallbacks) -> OAuthCredentials:
        """Open the authorisation URL, receive the code, exchange it for tokens."""
        pkce = generate_pkce()
        port = callback_port(CALLBACK_PORT)
        redirect_uri = f"http://localhost:{port}{CALLBACK_PATH}"
        server = CallbackServer.start(port, CALLBACK_PATH, pkce.verifier, "Anthropic")
        try:
            query = {
                "code": "true",
                "client_id": CLIENT_ID,
                "response_type": "code",
                "redirect_uri": redirect_uri,
                "scope": SCOPES,
                "code_challenge": pkce.challenge,
                "code_challenge_method": "S256",
                "state": pkce.verifier,
            }
            callbacks.on_auth(
                f"{endpoint(AUTHORIZE_URL)}?{urlencode(query)}",
                "Complete login in your browser. If the browser is on another machine, "
                "paste the final redirect URL here.",
            )
            received = await receive_code(server, callbacks, pkce.verifier, redirect_uri)
        finally:
            if server is not None:
                server.close()
        if not received.code:
            raise OAuthError("Missing authorization code")
        callbacks.progress("Exchanging authorization code for tokens...")
        body = {
            "grant_type": "authorization_code",
            "client_id": CLIENT_ID,
            "code": received.code,
            "state": received.state,
            "redirect_uri": redirect_uri,
            "code_verifier": pkce.verifier,
        }
        answer = await asyncio.to_thread(request_json, "POST", endpoint(TOKEN_URL), json_body=body)
        return _credentials(answer)

    def refresh(self, credentials: OAuthCredentials) -> OAuthCredentials:
        """Exchange the refresh token for new tokens."""
        body = {
            "grant_type": "refresh_token",
            "client_id": CLIENT_ID,
            "refresh_token": str(credentials["refresh"]),
        }
        return _credentials(request_json("POST", endpoint(TOKEN_URL), json_body=body))
