"""A subscription login for `/login`: an in-house gateway whose tokens come from a form post."""

from collections.abc import Callable

from pi_core import hookimpl
from pi_core.ai.oauth import (
    LoginCallbacks,
    LoginPrompt,
    LoginProvider,
    OAuthCredentials,
    now_ms,
    request_json,
)

TOKEN_URL = "https://sso.example.com/token"


def _credentials(answer: dict[str, object], refresh: str) -> OAuthCredentials:
    expires_in = int(str(answer["expires_in"]))
    return {
        "refresh": str(answer.get("refresh_token") or refresh),
        "access": str(answer["access_token"]),
        "expires": now_ms() + expires_in * 1000 - 5 * 60 * 1000,  # pi's five-minute margin
    }


class GatewayLogin(LoginProvider):
    id = "gateway"  # the provider name the credential is stored under in auth.json
    name = "Example gateway (SSO)"

    async def login(self, callbacks: LoginCallbacks) -> OAuthCredentials:
        callbacks.on_auth("https://sso.example.com/personal-token", "Copy your personal token")
        token = await callbacks.on_prompt(LoginPrompt("Paste the personal token:"))
        form = {"grant_type": "personal_token", "token": token.strip()}
        return _credentials(request_json("POST", TOKEN_URL, form=form), "")

    def refresh(self, credentials: OAuthCredentials) -> OAuthCredentials:
        form = {"grant_type": "refresh_token", "refresh_token": str(credentials["refresh"])}
        return _credentials(request_json("POST", TOKEN_URL, form=form), credentials["refresh"])


@hookimpl
def register_login_providers(register: Callable[..., None]) -> None:
    register(GatewayLogin())
