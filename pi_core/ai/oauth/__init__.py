"""Subscription logins (OAuth): PKCE, the callback server, device codes, tokens in auth.json.

Plugins contribute a `LoginProvider` per vendor (hook `register_login_providers`); `/login` runs
its flow and `AuthStorage` stores the result in pi's auth.json format and refreshes it, under
pi's lock, when a request needs a key and the token has expired. See docs/providers.md.

Each name is imported from its module on first use, so registering a login (a plugin importing
`LoginProvider`) loads neither the other flows nor the callback server until a login runs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pi_core.ai.oauth.authorization_code import receive_code as receive_code
    from pi_core.ai.oauth.authorization_input import AuthorizationInput as AuthorizationInput
    from pi_core.ai.oauth.authorization_input import (
        parse_authorization_input as parse_authorization_input,
    )
    from pi_core.ai.oauth.callback_server import CallbackServer as CallbackServer
    from pi_core.ai.oauth.callbacks import LoginCallbacks as LoginCallbacks
    from pi_core.ai.oauth.callbacks import LoginPrompt as LoginPrompt
    from pi_core.ai.oauth.credentials import OAuthCredentials as OAuthCredentials
    from pi_core.ai.oauth.credentials import is_expired as is_expired
    from pi_core.ai.oauth.credentials import now_ms as now_ms
    from pi_core.ai.oauth.credentials import to_entry as to_entry
    from pi_core.ai.oauth.device_code import DeviceCode as DeviceCode
    from pi_core.ai.oauth.device_code import poll_device_code as poll_device_code
    from pi_core.ai.oauth.endpoints import callback_host as callback_host
    from pi_core.ai.oauth.endpoints import callback_port as callback_port
    from pi_core.ai.oauth.endpoints import endpoint as endpoint
    from pi_core.ai.oauth.errors import OAuthError as OAuthError
    from pi_core.ai.oauth.errors import OAuthRefreshError as OAuthRefreshError
    from pi_core.ai.oauth.pkce import Pkce as Pkce
    from pi_core.ai.oauth.pkce import generate_pkce as generate_pkce
    from pi_core.ai.oauth.pkce import s256_challenge as s256_challenge
    from pi_core.ai.oauth.provider import LoginProvider as LoginProvider
    from pi_core.ai.oauth.refresh import refresh_stored_login as refresh_stored_login
    from pi_core.ai.oauth.token_http import request_json as request_json

_EXPORTS = {
    "AuthorizationInput": "pi_core.ai.oauth.authorization_input",
    "CallbackServer": "pi_core.ai.oauth.callback_server",
    "DeviceCode": "pi_core.ai.oauth.device_code",
    "LoginCallbacks": "pi_core.ai.oauth.callbacks",
    "LoginPrompt": "pi_core.ai.oauth.callbacks",
    "LoginProvider": "pi_core.ai.oauth.provider",
    "OAuthCredentials": "pi_core.ai.oauth.credentials",
    "OAuthError": "pi_core.ai.oauth.errors",
    "OAuthRefreshError": "pi_core.ai.oauth.errors",
    "Pkce": "pi_core.ai.oauth.pkce",
    "callback_host": "pi_core.ai.oauth.endpoints",
    "callback_port": "pi_core.ai.oauth.endpoints",
    "endpoint": "pi_core.ai.oauth.endpoints",
    "generate_pkce": "pi_core.ai.oauth.pkce",
    "is_expired": "pi_core.ai.oauth.credentials",
    "now_ms": "pi_core.ai.oauth.credentials",
    "parse_authorization_input": "pi_core.ai.oauth.authorization_input",
    "poll_device_code": "pi_core.ai.oauth.device_code",
    "receive_code": "pi_core.ai.oauth.authorization_code",
    "refresh_stored_login": "pi_core.ai.oauth.refresh",
    "request_json": "pi_core.ai.oauth.token_http",
    "s256_challenge": "pi_core.ai.oauth.pkce",
    "to_entry": "pi_core.ai.oauth.credentials",
}
"""Each public name → the module defining it: imported on first use (PEP 562)."""


def __getattr__(name: str) -> Any:
    """Import a public name's module on first use (a login's code loads only when needed)."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "AuthorizationInput",
    "CallbackServer",
    "DeviceCode",
    "LoginCallbacks",
    "LoginPrompt",
    "LoginProvider",
    "OAuthCredentials",
    "OAuthError",
    "OAuthRefreshError",
    "Pkce",
    "callback_host",
    "callback_port",
    "endpoint",
    "generate_pkce",
    "is_expired",
    "now_ms",
    "parse_authorization_input",
    "poll_device_code",
    "receive_code",
    "refresh_stored_login",
    "request_json",
    "s256_challenge",
    "to_entry",
]
