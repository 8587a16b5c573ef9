"""Record pi 0.73.1's Mistral requests for every scenario into `fixtures/requests/`.

Run from the repository root, with pi installed (npm `@mariozechner/pi-coding-agent@0.73.1`):

    PI_REF=/path/to/node_modules python plugins/pi-plugin-mistral/tests/record_pi.py [KEY …]

(no keys: every scenario of `helpers/mistral_scenarios.py`). Re-record after changing it.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE / "helpers")]

from mistral_fake import run_pi  # noqa: E402
from mistral_scenarios import SCENARIOS  # noqa: E402

FIXTURES = HERE / "fixtures" / "requests"


def main() -> None:
    """Run pi once per scenario; write `fixtures/requests/<key>.json`."""
    modules = Path(os.environ.get("PI_REF", "/work/pi-ref/node_modules"))
    cli = modules / "@mariozechner" / "pi-coding-agent" / "dist" / "cli.js"
    FIXTURES.mkdir(parents=True, exist_ok=True)
    for key in sys.argv[1:] or list(SCENARIOS):
        scenario = SCENARIOS[key]
        with tempfile.TemporaryDirectory() as root:
            command = ["node", str(cli), "--model", f"mistral/{scenario.model}"]
            done, requests = run_pi(command, list(scenario.args), scenario.answers(), Path(root))
        assert done.returncode == 0, done.stderr + done.stdout
        path = FIXTURES / f"{key}.json"
        path.write_text(json.dumps(requests, indent=1) + "\n")
        print(path.name, len(requests), "request(s)", file=sys.stderr)


if __name__ == "__main__":
    main()
