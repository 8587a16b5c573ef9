"""Record pi 0.73.1's requests on Azure and Codex into `fixtures/pi_requests/`.

Run from the repository root, with pi installed (npm `@mariozechner/pi-coding-agent@0.73.1`):

    PI_REF=/path/to/node_modules python plugins/pi-plugin-openai/tests/helpers/record_azure_codex.py

The test `test_azure_codex_requests_vs_pi.py` runs our `pi` the same way and compares.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

from pi_runs import PROVIDERS, SCRIPTS, run

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "pi_requests"


def main() -> None:
    """Run pi once per provider and script; write `<provider>.<script>.json`."""
    modules = Path(os.environ.get("PI_REF", "/work/pi-ref/node_modules"))
    cli = modules / "@mariozechner" / "pi-coding-agent" / "dist" / "cli.js"
    FIXTURES.mkdir(parents=True, exist_ok=True)
    for key in sys.argv[1:] or list(PROVIDERS):
        for script in SCRIPTS:
            with tempfile.TemporaryDirectory() as root:
                requests = run(["node", str(cli)], key, script, Path(root))
            path = FIXTURES / f"{key}.{script}.json"
            path.write_text(json.dumps(requests, indent=1) + "\n")
            print(path.name, len(requests), "request(s)", file=sys.stderr)


if __name__ == "__main__":
    main()
