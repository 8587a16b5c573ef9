"""GitHub Copilot subscription login: GitHub's device code flow, then the Copilot token.

As pi: ask for a GitHub Enterprise domain (blank for github.com), show the verification page and
the user code, poll for the GitHub token, exchange it for a Copilot token. The GitHub token is
stored as `refresh` (it is what renews the short-lived Copilot token), the Copilot token as
`access`, and the enterprise domain as `enterpriseUrl`.
"""

from __future__ import annotations

import asyncio
import base64
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from pi_core.ai.oauth import (
    DeviceCode,
    LoginCallbacks,
    LoginPrompt,
    LoginProvider,
    OAuthCredentials,
    OAuthError,
    endpoint,
    poll_device_code,
    request_json,
)

if TYPE_CHECKING:
    from pi_core.providers import LLMContext, Model

CLIENT_ID = base64.b64decode("SXYxLmI1MDdhMDhjODdlY2ZlOTg=").decode()
USER_AGENT = "GitHubCopilotChat/0.35.0"
COPILOT_HEADERS = {
    "User-Agent": USER_AGENT,
    "Editor-Version": "vscode/1.107.0",
    "Editor-Plugin-Version": "copilot-chat/0.35.0",
    "Copilot-Integration-Id": "vscode-chat",
}
"""The client identity pi sends to Copilot's endpoints."""
EXPIRY_MARGIN_MS = 5 * 60 * 1000
DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"


def normalize_domain(text: str) -> str | None:
    """Return the host name of a domain or URL the user typed, or None when it is not one."""
    value = text.strip()
    if not value:
        return None
    host = urlsplit(value if "://" in value else f"https://{value}").hostname
    return host or None


def urls(domain: str) -> dict[str, str]:
    """Return the device-code, access-token and Copilot-token endpoints for a GitHub domain."""
    return {
        "device": endpoint(f"https://{domain}/login/device/code"),
        "token": endpoint(f"https://{domain}/login/oauth/access_token"),
        "copilot": endpoint(f"https://api.{domain}/copilot_internal/v2/token"),
    }


def copilot_base_url(token: str | None, enterprise_domain: str | None) -> str:
    """Return the Copilot API base URL: from the token's `proxy-ep`, else by domain, as pi."""
    for field in (token or "").split(";"):
        name, _, value = field.partition("=")
        if name == "proxy-ep" and value:
            host = value.removeprefix("proxy.")
            return f"https://api.{host}" if value.startswith("proxy.") else f"https://{value}"
    if enterprise_domain:
        return f"https://copilot-api.{enterprise_domain}"
    return "https://api.individual.githubcopilot.com"


def copilot_token(github_token: str, enterprise_domain: str | None) -> OAuthCredentials:
    """Exchange a GitHub token for a Copilot token (blocking); OAuthError on failure."""
    headers = {"Authorization": f"Bearer {github_token}", **COPILOT_HEADERS}
    answer = request_json(
        "GET", urls(enterprise_domain or "github.com")["copilot"], headers=headers
    )
    token, expires_at = answer.get("token"), answer.get("expires_at")
    if not isinstance(token, str) or not isinstance(expires_at, int | float):
        raise OAuthError("Invalid Copilot token response fields")
    return {
        "refresh": github_token,
        "access": token,
        "expires": int(expires_at * 1000) - EXPIRY_MARGIN_MS,
        "enterpriseUrl": enterprise_domain,
    }


def enable_model(token: str, model_id: str, enterprise_domain: str | None) -> bool:
    """Accept a model's policy for the account, as pi does after a login (some models, Claude
    and Grok among them, need it); False when Copilot refused or could not be reached."""
    url = endpoint(f"{copilot_base_url(token, enterprise_domain)}/models/{model_id}/policy")
    headers = {
        "Authorization": f"Bearer {token}",
        **COPILOT_HEADERS,
        "openai-intent": "chat-policy",
        "x-interaction-type": "chat-policy",
    }
    try:
        request_json("POST", url, json_body={"state": "enabled"}, headers=headers)
    except OAuthError:
        return False
    return True


def _post_form(url: str, form: dict[str, str]) -> dict[str, Any]:
    return request_json("POST", url, form=form, headers={"User-Agent": USER_AGENT})


class CopilotLogin(LoginProvider):
    """GitHub Copilot: stored as `github-copilot` in auth.json."""

    id = "github-copilot"
    name = "GitHub Copilot"

    def __init__(self, minimum_poll_seconds: float = 1.0) -> None:
        self.minimum_poll_seconds = minimum_poll_seconds

    async def login(self, callbacks: LoginCallbacks) -> OAuthCredentials:
        """Ask for the domain, run the device flow, fetch the Copilot token."""
        typed = await callbacks.on_prompt(
            LoginPrompt(
                "GitHub Enterprise URL/domain (blank for github.com)",
                "company.ghe.com",
                allow_empty=True,
            )
        )
        enterprise = normalize_domain(typed)
        if typed.strip() and enterprise is None:
            raise OAuthError("Invalid GitHub Enterprise URL/domain")
        endpoints = urls(enterprise or "github.com")
        answer = await asyncio.to_thread(
            _post_form, endpoints["device"], {"client_id": CLIENT_ID, "scope": "read:user"}
        )
        device = DeviceCode.from_response(answer)
        callbacks.on_auth(device.verification_uri, f"Enter code: {device.user_code}")
        form = {
            "client_id": CLIENT_ID,
            "device_code": device.device_code,
            "grant_type": DEVICE_GRANT,
        }

        async def poll() -> dict[str, Any]:
            return await asyncio.to_thread(_post_form, endpoints["token"], form)

        github_token = await poll_device_code(
            device, poll, minimum_interval=self.minimum_poll_seconds
        )
        credentials = await asyncio.to_thread(copilot_token, github_token, enterprise)
        if callbacks.models:
            callbacks.progress("Enabling models...")
            await asyncio.gather(
                *(
                    asyncio.to_thread(enable_model, credentials["access"], model, enterprise)
                    for model in callbacks.models
                )
            )
        return credentials

    def refresh(self, credentials: OAuthCredentials) -> OAuthCredentials:
        """Fetch a new Copilot token with the stored GitHub token."""
        enterprise = credentials.get("enterpriseUrl")
        return copilot_token(str(credentials["refresh"]), enterprise if enterprise else None)

    def base_url(self, credentials: OAuthCredentials) -> str | None:
        """The Copilot API of the stored token (its `proxy-ep`), else of the enterprise domain."""
        enterprise = credentials.get("enterpriseUrl")
        domain = normalize_domain(enterprise) if isinstance(enterprise, str) else None
        access = credentials.get("access")
        return copilot_base_url(access if isinstance(access, str) else None, domain)

    def request_headers(
        self, model: Model, context: LLMContext, api_key: str | None
    ) -> dict[str, str | None]:
        """Copilot's per-request headers (see `pi_plugin_github_copilot.requests`)."""
        from pi_plugin_github_copilot.requests import copilot_headers

        return copilot_headers(model, context, api_key)
