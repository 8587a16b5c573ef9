"""Refresh a stored subscription token under pi's auth.json lock, and write it back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pi_core.ai.oauth.credentials import is_expired, is_oauth_entry, to_entry
from pi_core.ai.oauth.errors import OAuthError, OAuthRefreshError
from pi_core.ai.oauth.lock_keeper import held_lock
from pi_core.ai.oauth.provider import LoginProvider


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8") or "{}")
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise OAuthRefreshError(f"{path}: cannot read auth.json: {error}") from error
    if not isinstance(data, dict):
        raise OAuthRefreshError(f"{path}: auth.json must be a JSON object")
    return data


def refresh_stored_login(path: Path, provider: LoginProvider) -> tuple[str | None, dict[str, Any]]:
    """Return the provider's key and auth.json's content, refreshing an expired token first.

    Holds pi's lock on auth.json throughout and reads the file again inside it, so of several
    processes (pi's and ours) only the first refreshes and the others use what it wrote. A refresh
    that fails raises OAuthRefreshError naming /login and leaves the stored record as it was.
    """
    from pi_core.fileio import LockTimeout

    try:
        with held_lock(path):
            return _refresh_locked(path, provider)
    except LockTimeout as error:
        raise OAuthRefreshError(f"{error}; cannot refresh the {provider.name} login") from error


def _refresh_locked(path: Path, provider: LoginProvider) -> tuple[str | None, dict[str, Any]]:
    from pi_core.fileio import PRIVATE_MODE, atomic_write

    data = _read(path)
    entry = data.get(provider.id)
    if not isinstance(entry, dict) or not is_oauth_entry(entry):
        return None, data
    if not is_expired(entry):
        return provider.api_key(entry), data
    try:
        fresh = provider.refresh({k: v for k, v in entry.items() if k != "type"})
    except (OAuthError, KeyError, TypeError, ValueError) as error:
        raise OAuthRefreshError(
            f"Your {provider.name} login expired and could not be refreshed ({error}). "
            f"Run /login to log in to {provider.name} again."
        ) from error
    data[provider.id] = to_entry(fresh)
    atomic_write(path, json.dumps(data, indent=2), mode=PRIVATE_MODE)
    return provider.api_key(fresh), data
