"""Record pi 0.73.1 running each scenario (run by hand from the repository root):

    python -m tests.images_thinking_vs_pi.record_pi \
        --pi /work/pi-ref/node_modules/@mariozechner/pi-coding-agent/dist/cli.js

Writes `fixtures/<scenario>.pi.json`: pi's RPC answers and request bodies (images as type and
size). `--pi` is pi's command, or its `cli.js` (run with node).
"""

from __future__ import annotations

import argparse
import json
import shutil
import stat
import tempfile
from pathlib import Path

from tests.images_thinking_vs_pi.scenarios import FIXTURES, SCENARIOS, run


def _command(pi: str, folder: Path) -> str:
    """A command that runs pi (a wrapper when given its `cli.js`)."""
    if not pi.endswith(".js"):
        return pi
    wrapper = folder / "pi"
    wrapper.write_text(f'#!/bin/sh\nexec {shutil.which("node")} {pi} "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IEXEC)
    return str(wrapper)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pi", required=True)
    parser.add_argument("names", nargs="*", help="scenarios to record (default: all)")
    args = parser.parse_args()
    FIXTURES.mkdir(exist_ok=True)
    for scenario in SCENARIOS:
        if args.names and scenario.name not in args.names:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            command = _command(args.pi, Path(tmp))
            result = run(command, scenario, Path(tmp) / "run")
        result.pop("stderr")
        text = json.dumps(result, indent=1, ensure_ascii=False).replace(tmp, "<tmp>")
        (FIXTURES / f"{scenario.name}.pi.json").write_text(text + "\n")
        print(scenario.name, len(result["bodies"]), "requests")


if __name__ == "__main__":
    main()
