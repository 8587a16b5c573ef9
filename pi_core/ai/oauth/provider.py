"""A subscription login a plugin contributes (hook `register_login_providers`)."""

from __future__ import annotations

from abc import ABC, abstractmethod

from pi_core.ai.oauth.callbacks import LoginCallbacks
from pi_core.ai.oauth.credentials import OAuthCredentials


class LoginProvider(ABC):
    """One vendor's login: run it, refresh what it stored, turn it into a request key.

    `id` is the provider name the credential is stored under in auth.json (pi's ids:
    `anthropic`, `openai-codex`, `github-copilot`); `name` is what `/login` lists.
    """

    id: str
    name: str
    uses_callback_server: bool = False

    @abstractmethod
    async def login(self, callbacks: LoginCallbacks) -> OAuthCredentials:
        """Run the flow; return the credentials to store (without `type`)."""

    @abstractmethod
    def refresh(self, credentials: OAuthCredentials) -> OAuthCredentials:
        """Return fresh credentials for stored ones (blocking); raise OAuthError on failure."""

    def api_key(self, credentials: OAuthCredentials) -> str:
        """Return the key requests send (the access token)."""
        return str(credentials["access"])
