"""Record the JSON event lines pi 0.73.1 prints for every provider and script into `fixtures/`.

Run from the repository root, with pi installed (npm `@mariozechner/pi-coding-agent@0.73.1`):

    PI_REF=/path/to/node_modules python -m tests.stream_events_vs_pi.record_pi

Re-record after changing `scenarios.py`; the test compares ours against these files.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from tests.fake_home import reference_pi
from tests.stream_events_vs_pi.scenarios import PROVIDER_KEYS, SCRIPTS, run

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def main() -> None:
    """Run pi once per provider and script; write `fixtures/<provider>.<script>.events.ndjson`
    (pi's `--mode json` lines: not named `.jsonl`, which the export tests take for sessions)."""
    command = reference_pi()
    FIXTURES.mkdir(exist_ok=True)
    for key in PROVIDER_KEYS:
        for script in SCRIPTS:
            with tempfile.TemporaryDirectory() as root:
                lines = run(command, key, script, Path(root))
            path = FIXTURES / f"{key}.{script}.events.ndjson"
            path.write_text("".join(json.dumps(line, sort_keys=True) + "\n" for line in lines))
            print(path.name, len(lines), "line(s)", file=sys.stderr)


if __name__ == "__main__":
    main()
