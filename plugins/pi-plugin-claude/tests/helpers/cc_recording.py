"""What Claude Code sent and reported for a case of fixtures/claude_code/record_requests.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

RECORDING = Path(__file__).resolve().parent.parent / "fixtures" / "claude_code" / "requests.json"


def claude_code(case: str, project: Path | None = None) -> dict[str, Any]:
    """The recorded case; `{project}` in its tool results becomes `project`."""
    text = json.dumps(json.loads(RECORDING.read_text())[case])
    if project is not None:
        text = text.replace("{project}", str(project))
    recorded = json.loads(text)
    assert isinstance(recorded, dict)
    return recorded
