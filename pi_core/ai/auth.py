"""API keys: `--api-key`, `auth.json` (mode 0600), environment variables, models.json values."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pi_core.ai.config_value import resolve_config_value

if TYPE_CHECKING:
    from pi_core.ai.oauth import LoginProvider, OAuthCredentials


class AuthStorage:
    """Reads and writes `<agent dir>/auth.json` and answers "what is the key for provider X"."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.error: str | None = None
        self._runtime: dict[str, str] = {}
        self._logins: dict[str, LoginProvider] = {}
        self._data: dict[str, Any] = self._read()

    def _read(self) -> dict[str, Any]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except OSError as error:
            self.error = f"{self.path}: cannot read: {error.strerror}"
            return {}
        except UnicodeDecodeError as error:
            self.error = f"{self.path}: not UTF-8 text: {error.reason}"
            return {}
        try:
            data = json.loads(text) if text.strip() else {}
        except json.JSONDecodeError as error:
            self.error = (
                f"{self.path}:{error.lineno}:{error.colno}: invalid JSON in auth.json: {error.msg}"
            )
            return {}
        if not isinstance(data, dict):
            self.error = f"{self.path}:1:1: auth.json must be a JSON object"
            return {}
        return data

    def set_runtime_key(self, provider: str, key: str) -> None:
        """Use `key` for `provider` in this process only (the `--api-key` flag)."""
        self._runtime[provider] = key

    def set_api_key(self, provider: str, key: str) -> None:
        """Store an API key in auth.json (0600) under pi's lock; a file that cannot be read is
        never written over (ValueError), so no stored credential is lost."""
        self._store(provider, {"type": "api_key", "key": key})

    def set_oauth(self, provider: str, credentials: OAuthCredentials) -> None:
        """Store a subscription login in auth.json in pi's format (see `set_api_key`)."""
        from pi_core.ai.oauth.credentials import to_entry

        self._store(provider, to_entry(credentials))

    def add_login_provider(self, login: LoginProvider) -> None:
        """Make `login` refresh its stored tokens here; a later one with the same id wins."""
        self._logins[login.id] = login

    def login_for(self, provider: str) -> LoginProvider | None:
        """Return the subscription login a plugin contributed for `provider`, if any."""
        return self._logins.get(provider)

    def oauth_credentials(self, provider: str) -> OAuthCredentials | None:
        """Return `provider`'s stored subscription login (without `type`), if auth.json has one."""
        entry = self._data.get(provider)
        if isinstance(entry, dict) and entry.get("type") == "oauth":
            return {k: v for k, v in entry.items() if k != "type"}
        return None

    def login_providers(self) -> list[LoginProvider]:
        """Return the subscription logins plugins contributed, by name."""
        return sorted(self._logins.values(), key=lambda login: login.name)

    def _store(self, provider: str, entry: dict[str, Any]) -> None:
        from pi_core.fileio import PRIVATE_MODE, atomic_write, pi_lock

        self.path.parent.mkdir(parents=True, exist_ok=True)
        with pi_lock(self.path):
            self.error = None
            current = self._read()
            if self.error is not None:  # never write over a file we cannot read
                raise ValueError(
                    f"refusing to write auth.json: {self.error}; fix or remove it first"
                )
            current[provider] = entry
            atomic_write(self.path, json.dumps(current, indent=2), mode=PRIVATE_MODE)
            self._data = current

    def remove(self, provider: str) -> bool:
        """Delete `provider`'s entry from auth.json under pi's lock; False when it had none.
        A file that cannot be read is never written over (ValueError)."""
        from pi_core.fileio import PRIVATE_MODE, atomic_write, pi_lock

        if not self.path.exists():
            return False
        with pi_lock(self.path):
            self.error = None
            current = self._read()
            if self.error is not None:
                raise ValueError(
                    f"refusing to write auth.json: {self.error}; fix or remove it first"
                )
            if provider not in current:
                return False
            del current[provider]
            atomic_write(self.path, json.dumps(current, indent=2), mode=PRIVATE_MODE)
            self._data = current
        return True

    def stored_providers(self) -> list[str]:
        """Return the providers auth.json holds credentials for."""
        return sorted(self._data)

    def has_credentials(self, provider: str) -> bool:
        """Return whether auth.json or the runtime holds something for `provider`."""
        return provider in self._runtime or provider in self._data

    def stored_type(self, provider: str) -> str | None:
        """Return the kind of auth.json's entry for `provider`: "oauth" (a subscription login),
        "api_key", or None."""
        entry = self._data.get(provider)
        kind = entry.get("type") if isinstance(entry, dict) else None
        return kind if isinstance(kind, str) else None

    def stored_value(self, provider: str) -> str | None:
        """Return auth.json's key value for `provider` as written (`!command`, a name…)."""
        entry = self._data.get(provider)
        if isinstance(entry, dict) and entry.get("type") == "api_key" and entry.get("key"):
            return str(entry["key"])
        return None

    def stored_key(self, provider: str) -> str | None:
        """Return the runtime key or the auth.json key for `provider` (resolved), if any."""
        if provider in self._runtime:
            return self._runtime[provider]
        entry = self._data.get(provider)
        if isinstance(entry, dict) and entry.get("type") == "api_key" and entry.get("key"):
            return resolve_config_value(str(entry["key"]))
        if isinstance(entry, dict) and entry.get("type") == "oauth" and entry.get("access"):
            return self._oauth_key(provider, entry)
        return None

    async def refresh_if_due(self, provider: str) -> None:
        """Refresh `provider`'s expired subscription token in a thread, so the event loop goes on
        (a refresh may wait for pi's lock); OAuthRefreshError as `stored_key`."""
        import asyncio

        from pi_core.ai.oauth.credentials import is_expired, is_oauth_entry

        entry = self._data.get(provider)
        if provider in self._runtime or provider not in self._logins:
            return
        if isinstance(entry, dict) and is_oauth_entry(entry) and is_expired(entry):
            await asyncio.to_thread(self.stored_key, provider)

    def _oauth_key(self, provider: str, entry: dict[str, Any]) -> str | None:
        """The access token, refreshed under pi's lock once expired (OAuthRefreshError if not)."""
        from pi_core.ai.oauth.credentials import is_expired
        from pi_core.ai.oauth.refresh import refresh_stored_login

        login = self._logins.get(provider)
        if login is None or not is_expired(entry):
            return str(entry["access"])
        key, self._data = refresh_stored_login(self.path, login)
        return key


def env_key(names: list[str]) -> str | None:
    """Return the first set environment variable among `names`."""
    for name in names:
        value = os.environ.get(name)
        if value:
            return value
    return None
