"""Record pi 0.73.1's Bedrock requests for every script into `fixtures/pi_requests/`.

Run from this plugin's tests folder, with pi installed (npm `@mariozechner/pi-coding-agent@0.73.1`):

    PI_REF=/path/to/node_modules python record_pi.py

Re-record after changing `helpers/bedrock_scenarios.py`; the test compares ours against these.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "helpers"))

from bedrock_scenarios import SCRIPTS, run  # noqa: E402

FIXTURES = HERE / "fixtures" / "pi_requests"


def main() -> None:
    """Run pi once per script; write `fixtures/pi_requests/<script>.json`."""
    modules = Path(os.environ.get("PI_REF", "/work/pi-ref/node_modules"))
    cli = modules / "@mariozechner" / "pi-coding-agent" / "dist" / "cli.js"
    FIXTURES.mkdir(parents=True, exist_ok=True)
    for script in SCRIPTS:
        with tempfile.TemporaryDirectory() as root:
            requests = run(["node", str(cli)], script, Path(root))
        path = FIXTURES / f"{script}.json"
        path.write_text(json.dumps(requests, indent=1, ensure_ascii=False) + "\n")
        print(path.name, len(requests), "request(s)", file=sys.stderr)


if __name__ == "__main__":
    main()
