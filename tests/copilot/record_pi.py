"""Record pi 0.73.1's requests as a GitHub Copilot user into `fixtures/`, per wire API and script.

Run from the repository root, with pi installed (npm `@mariozechner/pi-coding-agent@0.73.1`):

    PI_REF=/path/to/node_modules python -m tests.copilot.record_pi [API …]

(no APIs: the three of `scenarios.MODELS`). Re-record after changing `scenarios.py`.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

from tests.copilot.scenarios import MODELS, SCRIPTS, run

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def main() -> None:
    """Run pi once per API and script; write `fixtures/<api>.<script>.json`."""
    modules = Path(os.environ.get("PI_REF", "/work/pi-ref/node_modules"))
    cli = modules / "@mariozechner" / "pi-coding-agent" / "dist" / "cli.js"
    FIXTURES.mkdir(exist_ok=True)
    for api in sys.argv[1:] or list(MODELS):
        for script in SCRIPTS:
            with tempfile.TemporaryDirectory() as root:
                requests = run(["node", str(cli)], api, script, Path(root))
            path = FIXTURES / f"{api}.{script}.json"
            path.write_text(json.dumps(requests, indent=1, sort_keys=True) + "\n")
            print(path.name, len(requests), "request(s)", file=sys.stderr)


if __name__ == "__main__":
    main()
