"""`--record` and `--replay`: where each attempt's provider traffic is kept, and what replay checks.

The traffic itself is recorded and answered inside the child pi by `pi_core.ai.traffic`
(`PI_HTTP_RECORD` / `PI_HTTP_REPLAY`); this module points each child at its files and judges
the two endings the child cannot see: no recording for the attempt, and a run that stopped
before using all of its recording.
"""

from __future__ import annotations

import json
from pathlib import Path

from pi_plugin_batch.errors import Disposition, Verdict

# pi's documented switches (docs/providers.md): record to / answer from a file.
RECORD_ENV = "PI_HTTP_RECORD"
REPLAY_ENV = "PI_HTTP_REPLAY"
ERROR_CLASS = "replay_divergence"
FOLDER = "recordings"


def recording_path(out: Path, name: str) -> Path:
    """The recording of attempt `name` in the output folder `out`."""
    return out / FOLDER / f"{name}.jsonl"


def traffic_env(out: Path, name: str, record: bool, replay_from: Path | None) -> dict[str, str]:
    """The child's PI_HTTP_RECORD / PI_HTTP_REPLAY (empty values switch an inherited one off).

    A replay is recorded too, so the new folder can be replayed in turn and compared.
    """
    env = {RECORD_ENV: "", REPLAY_ENV: ""}
    if record or replay_from is not None:
        target = recording_path(out, name)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(b"")  # a retried try's traffic is replaced, as its session is
        env[RECORD_ENV] = str(target)
    if replay_from is not None:
        env[REPLAY_ENV] = str(recording_path(replay_from, name))
    return env


def missing_recording(name: str, replay_from: Path | None) -> Verdict | None:
    """A final divergence when the replayed batch has no recording of this attempt."""
    if replay_from is None or recording_path(replay_from, name).is_file():
        return None
    where = recording_path(replay_from, name)
    return _diverged(f"{name}: replay divergence: no recording {where}")


def named(verdict: Verdict, name: str) -> Verdict:
    """Put the attempt's name before a divergence message (the child does not know it)."""
    if verdict.error_class != ERROR_CLASS or (verdict.message or "").startswith(f"{name}:"):
        return verdict
    return _diverged(f"{name}: {verdict.message}")


def shortfall(out: Path, name: str, replay_from: Path | None) -> Verdict | None:
    """A divergence when the replayed run ended before sending every recorded request."""
    if replay_from is None:
        return None
    recorded = _exchanges(recording_path(replay_from, name))
    sent = _exchanges(recording_path(out, name))
    if sent >= recorded:
        return None
    return _diverged(
        f"{name}: replay divergence at request {sent + 1}: the run ended after request "
        f"{sent}; the recording has {recorded}"
    )


def _exchanges(path: Path) -> int:
    try:
        lines = path.read_text().splitlines()
    except OSError:
        return 0
    return sum(1 for line in lines if line and json.loads(line).get("type") == "exchange")


def _diverged(message: str) -> Verdict:
    return Verdict("error", ERROR_CLASS, Disposition.FINAL, message)
