"""Subscription logins (OAuth): PKCE, the callback server, device codes, tokens in auth.json.

Plugins contribute a `LoginProvider` per vendor (hook `register_login_providers`); `/login` runs
its flow and `AuthStorage` stores the result in pi's auth.json format and refreshes it, under
pi's lock, when a request needs a key and the token has expired. See docs/providers.md.
"""

from __future__ import annotations

from pi_core.ai.oauth.authorization_code import receive_code
from pi_core.ai.oauth.authorization_input import AuthorizationInput, parse_authorization_input
from pi_core.ai.oauth.callback_server import CallbackServer
from pi_core.ai.oauth.callbacks import LoginCallbacks, LoginPrompt
from pi_core.ai.oauth.credentials import OAuthCredentials, is_expired, now_ms, to_entry
from pi_core.ai.oauth.device_code import DeviceCode, poll_device_code
from pi_core.ai.oauth.endpoints import callback_host, callback_port, endpoint
from pi_core.ai.oauth.errors import OAuthError, OAuthRefreshError
from pi_core.ai.oauth.pkce import Pkce, generate_pkce, s256_challenge
from pi_core.ai.oauth.provider import LoginProvider
from pi_core.ai.oauth.refresh import refresh_stored_login
from pi_core.ai.oauth.token_http import request_json

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
