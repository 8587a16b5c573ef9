"""`ctx.settings.get(key, default)`: plugins read the merged settings (project over global) by
their JSON key path, read-only."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pi_core import ExtensionContext, hookimpl
from pi_core.events import SessionStartEvent
from pi_core.plugins.manager import LoadOptions
from pi_core.sdk import create_agent_session


async def test_plugins_read_settings_through_the_context(
    tmp_path: Path, isolated_agent_dir: Path
) -> None:
    project = tmp_path / "project"
    (project / ".pi").mkdir(parents=True)
    global_settings = {"warnings": {"anthropicExtraUsage": False}, "theme": "light"}
    (isolated_agent_dir / "settings.json").write_text(json.dumps(global_settings))
    (project / ".pi" / "settings.json").write_text(json.dumps({"theme": "dark"}))
    seen: dict[str, Any] = {}

    class Reader:
        @hookimpl
        def session_start(self, event: SessionStartEvent, ctx: ExtensionContext) -> None:
            warnings = ctx.settings.get("warnings")
            warnings["anthropicExtraUsage"] = True  # a copy: the settings stay as they are
            seen["extra"] = ctx.settings.get("warnings.anthropicExtraUsage", True)
            seen["theme"] = ctx.settings.get("theme")
            seen["unset"] = ctx.settings.get("compaction.reserveTokens", 123)

    await create_agent_session(
        cwd=project,
        agent_dir=isolated_agent_dir,
        plugins=[Reader()],
        load_options=LoadOptions(extension_paths=[]),
    )
    assert seen == {"extra": False, "theme": "dark", "unset": 123}
