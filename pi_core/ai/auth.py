"""API keys: `--api-key`, `auth.json` (mode 0600), environment variables, models.json values."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from pi_core.ai.config_value import resolve_config_value


class AuthStorage:
    """Reads and writes `<agent dir>/auth.json` and answers "what is the key for provider X"."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.error: str | None = None
        self._runtime: dict[str, str] = {}
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
        from pi_core.fileio import PRIVATE_MODE, atomic_write, pi_lock

        self.path.parent.mkdir(parents=True, exist_ok=True)
        with pi_lock(self.path):
            self.error = None
            current = self._read()
            if self.error is not None:  # never write over a file we cannot read
                raise ValueError(
                    f"refusing to write auth.json: {self.error}; fix or remove it first"
                )
            current[provider] = {"type": "api_key", "key": key}
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
            return str(entry["access"])
        return None


def env_key(names: list[str]) -> str | None:
    """Return the first set environment variable among `names`."""
    for name in names:
        value = os.environ.get(name)
        if value:
            return value
    return None
