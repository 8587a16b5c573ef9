"""The ChatGPT (Codex) backend's identity headers: the account id from the access token's JWT
claims, and pi's `originator` and user agent."""

from __future__ import annotations

import base64
import json
import platform

JWT_CLAIM = "https://api.openai.com/auth"
_ARCH = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "i386": "ia32", "i686": "ia32"}


class CodexTokenError(ValueError):
    """The access token is not a JWT carrying a ChatGPT account id."""


def account_id(token: str) -> str:
    """Return the `chatgpt_account_id` claim of the access token (a JWT)."""
    parts = token.split(".")
    try:
        if len(parts) != 3:
            raise ValueError("not a JWT")
        encoded = parts[1] + "=" * (-len(parts[1]) % 4)
        claims = json.loads(base64.urlsafe_b64decode(encoded))
        found = claims[JWT_CLAIM]["chatgpt_account_id"]
        if not isinstance(found, str) or not found:
            raise ValueError("no account id")
    except (ValueError, KeyError, TypeError) as error:
        raise CodexTokenError("Failed to extract accountId from token") from error
    return found


def user_agent() -> str:
    """Return pi's user agent for the backend: `pi (<platform> <release>; <arch>)`."""
    system = platform.system().lower()
    system = {"windows": "win32"}.get(system, system)
    machine = platform.machine().lower()
    return f"pi ({system} {platform.release()}; {_ARCH.get(machine, machine)})"
