"""RPC: one prompt on a 1 MB session (switch to a fresh copy, prompt, answer), for any side."""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass
from pathlib import Path

from harness.agent_runs import Side, last_text
from harness.rpc import RpcProcess
from harness.scenarios import FINAL_TEXT, MODEL, TimedFakeServer
from pi_core.testing import chat_stream

FIXTURES = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "sessions"
SESSION = FIXTURES / "large-session.jsonl"


def local_copy(session: Path, target: Path, cwd: Path) -> Path:
    """A copy of `session` whose header names `cwd` (pi refuses a stored cwd that is missing)."""
    header, rest = session.read_bytes().split(b"\n", 1)
    fields = json.loads(header)
    fields["cwd"] = str(cwd)
    target.write_bytes(json.dumps(fields).encode() + b"\n" + rest)
    return target


@dataclass
class SessionPromptFigures:
    """Median seconds from `switch_session` sent to agent_end, and the process's peak RSS."""

    seconds: float
    peak_mib: float
    session_mb: float


def rpc_session_prompt(
    side: Side, server: TimedFakeServer, runs: int, session: Path = SESSION
) -> SessionPromptFigures:
    """In one started RPC process, `runs` + 1 times (the first warms up): `switch_session` to a
    fresh copy of `session`, then a prompt answered in text; the time covers opening the session,
    building the context, the request with the whole history, the answer and the session write."""
    argv = [side.executable, "--mode", "rpc", "--model", MODEL, "--tools", "read,ls"]
    folder = side.workspace.root / "session-prompt"
    folder.mkdir(exist_ok=True)
    process = RpcProcess(argv, side.workspace.project, side.workspace.env)
    times = []
    try:
        process.command({"type": "get_state"}, timeout=120)
        # the history is past the fake model's threshold: measure the prompt, not a summary
        process.command({"type": "set_auto_compaction", "enabled": False})
        for index in range(runs + 1):
            copy = local_copy(session, folder / f"copy{index}.jsonl", side.workspace.project)
            server.queue(chat_stream(FINAL_TEXT))
            request_id, sent = process.send({"type": "switch_session", "sessionPath": str(copy)})
            process.wait_for("response", request_id)
            process.send({"type": "prompt", "message": "Summarize where we are"})
            ended, record = process.wait_for("agent_end")
            if last_text(record) != FINAL_TEXT:
                detail = str(record)[-500:]
                raise RuntimeError(f"{side.name} rpc session prompt: no answer: {detail}")
            server.requests.clear()  # each body holds the whole 1 MB history
            if index:
                times.append(ended - sent)
    finally:
        peak = process.close()
    return SessionPromptFigures(statistics.median(times), peak, session.stat().st_size / 1e6)
