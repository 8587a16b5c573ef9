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
        """Store an API key in auth.json (created with mode 0600); a file that could not be read
        is never written over (ValueError), so no stored credential is lost."""
        if self.error is not None:
            raise ValueError(f"refusing to write auth.json: {self.error}; fix or remove it first")
        self._data[provider] = {"type": "api_key", "key": key}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(self._data, handle, indent=2)
        os.chmod(self.path, 0o600)

    def has_credentials(self, provider: str) -> bool:
        """Return whether auth.json or the runtime holds something for `provider`."""
        return provider in self._runtime or provider in self._data

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
