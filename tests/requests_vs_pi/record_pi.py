"""Record pi 0.73.1's request bodies for every provider and script into `fixtures/`.

Run from the repository root, with pi installed (npm `@mariozechner/pi-coding-agent@0.73.1`):

    PI_REF=/path/to/node_modules python -m tests.requests_vs_pi.record_pi [PROVIDER_KEY …]

(no keys: every provider of `scenarios.PROVIDERS`).
Re-record after changing `scenarios.py`; the test compares ours against these files.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from tests.fake_home import reference_pi
from tests.requests_vs_pi.scenarios import PROVIDERS, run, scripts_for

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def main() -> None:
    """Run pi once per provider and script; write `fixtures/<provider>.<script>.json`."""
    command = reference_pi()
    FIXTURES.mkdir(exist_ok=True)
    for key in sys.argv[1:] or list(PROVIDERS):
        provider = PROVIDERS[key]
        for script in scripts_for(provider):
            with tempfile.TemporaryDirectory() as root:
                bodies = run(command, provider, script, Path(root))
            path = FIXTURES / f"{key}.{script}.json"
            path.write_text(json.dumps(bodies, indent=1, sort_keys=True) + "\n")
            print(path.name, len(bodies), "request(s)", file=sys.stderr)


if __name__ == "__main__":
    main()
