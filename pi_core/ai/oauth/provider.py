"""A subscription login a plugin contributes (hook `register_login_providers`)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING

from pi_core.ai.oauth.callbacks import LoginCallbacks
from pi_core.ai.oauth.credentials import OAuthCredentials

if TYPE_CHECKING:
    from pi_core.ai.model import Model
    from pi_core.ai.protocol import LLMContext


class LoginProvider(ABC):
    """One vendor's login: run it, refresh what it stored, turn it into a request key.

    `id` is the provider name the credential is stored under in auth.json (pi's ids:
    `anthropic`, `openai-codex`, `github-copilot`); `name` is what `/login` lists.

    A vendor whose requests differ from its wire API's defaults overrides `base_url` and
    `request_headers`: they shape every request of the provider `id`'s models (see
    `pi_core.ai.login_requests`).
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

    def base_url(self, credentials: OAuthCredentials) -> str | None:
        """Return the API base URL the stored login dictates for this provider's models (pi's
        `modifyModels`), or None to keep the model's own."""
        return None

    def request_headers(
        self, model: Model, context: LLMContext, api_key: str | None
    ) -> dict[str, str | None]:
        """Return headers for one request of this provider's models, sent whatever the key's
        source; they override the wire API's and the model's (any case), and None removes one."""
        return {}
