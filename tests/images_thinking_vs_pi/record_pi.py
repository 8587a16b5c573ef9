"""Record pi 0.73.1 running each scenario (run by hand from the repository root):

    python -m tests.images_thinking_vs_pi.record_pi \
        --pi /work/pi-ref/node_modules/@mariozechner/pi-coding-agent/dist/cli.js

Writes `fixtures/<scenario>.pi.json`: pi's RPC answers and request bodies (images as type and
size). `--pi` is pi's command, or its `cli.js` (run with node); without it, pi 0.73.1 under
`$PI_REF` (default /work/pi-ref/node_modules).
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from tests.fake_home import reference_pi
from tests.images_thinking_vs_pi.scenarios import FIXTURES, SCENARIOS, run


def _command(pi: str | None) -> list[str]:
    """The command that runs pi: `--pi` (run with node when it is a `cli.js`), else pi 0.73.1
    under `$PI_REF`."""
    if pi is None:
        return reference_pi()
    return ["node", pi] if pi.endswith(".js") else [pi]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pi", help="pi's command or cli.js (default: under $PI_REF)")
    parser.add_argument("names", nargs="*", help="scenarios to record (default: all)")
    args = parser.parse_args()
    FIXTURES.mkdir(exist_ok=True)
    for scenario in SCENARIOS:
        if args.names and scenario.name not in args.names:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            result = run(_command(args.pi), scenario, Path(tmp) / "run")
        result.pop("stderr")
        text = json.dumps(result, indent=1, ensure_ascii=False).replace(tmp, "<tmp>")
        (FIXTURES / f"{scenario.name}.pi.json").write_text(text + "\n")
        print(scenario.name, len(result["bodies"]), "requests")


if __name__ == "__main__":
    main()
