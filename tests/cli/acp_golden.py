"""Golden JSON-RPC transcripts: normalise what varies from run to run, compare, regenerate.

Session, tool call and terminal ids become `<session-1>`, `<tool-1>`, `<terminal-1>` … in the
order they first appear; the test's temporary folder becomes `<tmp>`; times and pi's version
become `<time>` and `<version>`. The agent's messages, the client's messages and the processes'
starts and exits are compared each in their own order: the order between the two directions
depends on timing, the order within one does not, except for answers to concurrent requests (a
terminal's `wait_for_exit` and its `kill`), so each side's answers are compared sorted by
process and id.

Regenerate the files after an intended change with
`ACP_GOLDEN=write .venv/bin/python -m pytest -n 0 tests/cli/test_acpx_client.py`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

Entry = dict[str, Any]

ID_KEYS = {"sessionId": "session", "toolCallId": "tool", "terminalId": "terminal"}
TIME_KEYS = {"updatedAt"}
FOLDER = Path(__file__).with_name("fixtures") / "acpx"
REGENERATE = "ACP_GOLDEN=write .venv/bin/python -m pytest -n 0 tests/cli/test_acpx_client.py"


def read_transcript(path: Path) -> list[Entry]:
    """The entries acp_tee.py logged, in order."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def normalise(transcript: list[Entry], tmp: Path) -> list[Entry]:
    """The transcript with ids, the temporary folder, times and versions replaced."""
    text = json.dumps(transcript)
    for folder in sorted({str(tmp), str(tmp.resolve())}, key=len, reverse=True):
        text = text.replace(folder, "<tmp>")
    names: dict[str, str] = {}
    counts: dict[str, int] = {}
    entries: list[Entry] = json.loads(text)
    for sender in ("agent", "client"):
        for entry in entries:
            if entry["from"] == sender:
                _collect_ids(entry["message"], names, counts)
    return [_replace(entry, names) for entry in entries]


def _collect_ids(value: Any, names: dict[str, str], counts: dict[str, int]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            kind = ID_KEYS.get(key)
            if kind and isinstance(item, str) and item not in names:
                counts[kind] = counts.get(kind, 0) + 1
                names[item] = f"<{kind}-{counts[kind]}>"
            _collect_ids(item, names, counts)
    elif isinstance(value, list):
        for item in value:
            _collect_ids(item, names, counts)


def _replace(value: Any, names: dict[str, str], key: str = "") -> Any:
    if isinstance(value, dict):
        if key == "agentInfo" and "version" in value:
            value = {**value, "version": "<version>"}
        return {k: _replace(v, names, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_replace(item, names) for item in value]
    if isinstance(value, str):
        if key in TIME_KEYS:
            return "<time>"
        return names.get(value, value)
    return value


def by_sender(transcript: list[Entry]) -> dict[str, list[Any]]:
    """Each sender's requests and notifications in order, then its answers by process and id."""
    calls: dict[str, list[Any]] = {"agent": [], "client": [], "tee": []}
    answers: dict[str, list[tuple[int, str, Any]]] = {"agent": [], "client": []}
    process = 0
    for entry in transcript:
        sender, message = entry["from"], entry.get("message", entry)
        process += sender == "tee" and entry["event"] == "start"
        if sender != "tee" and isinstance(message, dict) and "method" not in message:
            answers[sender].append((process, json.dumps(message.get("id")), message))
        else:
            calls[sender].append(message)
    for sender, found in answers.items():
        calls[sender] += [message for *_, message in sorted(found, key=lambda a: a[:2])]
    return calls


def check_golden(name: str, transcript: list[Entry]) -> None:
    """Assert the normalised transcript matches fixtures/acpx/NAME.json (or write it)."""
    path = FOLDER / f"{name}.json"
    if os.environ.get("ACP_GOLDEN") == "write":
        path.parent.mkdir(parents=True, exist_ok=True)
        # one entry a line: readable, and a change shows as a small diff
        path.write_text("[\n" + ",\n".join(json.dumps(e) for e in transcript) + "\n]\n")
        return
    assert path.is_file(), f"no golden transcript {path.name}: {REGENERATE}"
    golden = json.loads(path.read_text())
    expected, actual = by_sender(golden), by_sender(transcript)
    for sender in ("tee", "client", "agent"):
        assert actual[sender] == expected[sender], (
            f"the {sender}'s messages differ from {path.name}; if the change is intended: "
            f"{REGENERATE}"
        )
