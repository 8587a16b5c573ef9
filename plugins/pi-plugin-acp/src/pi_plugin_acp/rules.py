"""The "always" answers to ACP permission requests, kept per tool name in the agent folder
(`acp-permissions.json`: `{"allow": [...], "reject": [...]}`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

Verdict = Literal["allow", "reject"]


class PermissionRules:
    """Tool names the user always allows or always rejects, saved in a small JSON file."""

    def __init__(self, path: Path) -> None:
        self._path = path

    def _load(self) -> dict[str, list[str]]:
        try:
            data = json.loads(self._path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {"allow": [], "reject": []}
        if not isinstance(data, dict):
            return {"allow": [], "reject": []}
        return {
            key: [name for name in data.get(key, []) if isinstance(name, str)]
            for key in ("allow", "reject")
        }

    def verdict(self, tool: str) -> Verdict | None:
        """The saved answer for `tool`; a reject rule wins over an allow rule."""
        data = self._load()
        if tool in data["reject"]:
            return "reject"
        if tool in data["allow"]:
            return "allow"
        return None

    def remember(self, tool: str, verdict: Verdict) -> None:
        """Save `verdict` for `tool` for every later session."""
        data = self._load()
        other = "reject" if verdict == "allow" else "allow"
        data[other] = [name for name in data[other] if name != tool]
        if tool not in data[verdict]:
            data[verdict].append(tool)
        self._path.parent.mkdir(parents=True, exist_ok=True)
        self._path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
