"""Record pi 0.73.1's requests made with a Claude Pro/Max login into `fixtures/`.

Run from the repository root, with pi installed (npm `@mariozechner/pi-coding-agent@0.73.1`):

    PI_REF=/path/to/node_modules python -m tests.requests_vs_pi.record_pi_oauth
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

from tests.requests_vs_pi.oauth_scenarios import SCRIPTS, run

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def main() -> None:
    """Run pi once per script; write `fixtures/anthropic-oauth.<script>.json`."""
    modules = Path(os.environ.get("PI_REF", "/work/pi-ref/node_modules"))
    cli = modules / "@mariozechner" / "pi-coding-agent" / "dist" / "cli.js"
    for script in SCRIPTS:
        with tempfile.TemporaryDirectory() as root:
            requests = run(["node", str(cli)], script, Path(root))
        path = FIXTURES / f"anthropic-oauth.{script}.json"
        path.write_text(json.dumps(requests, indent=1, sort_keys=True) + "\n")
        print(path.name, len(requests), "request(s)", file=sys.stderr)


if __name__ == "__main__":
    main()
