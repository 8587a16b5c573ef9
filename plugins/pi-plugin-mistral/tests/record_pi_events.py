"""Record what pi 0.73.1 makes of each recorded Mistral response in `replays/`: its stream
events and final message (`pi -p --mode json` against the loopback fake serving the recording),
into `fixtures/events/<replay>.json`.

Run from the repository root, with pi installed (npm `@mariozechner/pi-coding-agent@0.73.1`):

    PI_REF=/path/to/node_modules python plugins/pi-plugin-mistral/tests/record_pi_events.py
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE / "helpers")]

from mistral_fake import mistral_stream, run_pi  # noqa: E402
from mistral_replays import ERRORS, REPLAYS, STREAMED, replay_model, summary  # noqa: E402

from pi_core.testing import FakeResponse  # noqa: E402

FIXTURES = HERE / "fixtures" / "events"


def main() -> None:
    """Run pi once per streamed or error replay; write its first answer's events and message."""
    modules = Path(os.environ.get("PI_REF", "/work/pi-ref/node_modules"))
    cli = modules / "@mariozechner" / "pi-coding-agent" / "dist" / "cli.js"
    FIXTURES.mkdir(parents=True, exist_ok=True)
    for path in [*STREAMED, *ERRORS]:
        command = ["node", str(cli), "--model", f"mistral/{replay_model(path)}"]
        args = ["-p", "--mode", "json", "--no-session", "--no-tools", "Go."]
        # a second answer for the turn after a tool call (pi has no such tool: it errors)
        answers = [FakeResponse.replay(path), mistral_stream("Done.")]
        with tempfile.TemporaryDirectory() as root:
            done, _ = run_pi(command, args, answers, Path(root))
        events = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
        out = FIXTURES / f"{path.stem}.json"
        out.write_text(json.dumps(summary(events), indent=1, ensure_ascii=False) + "\n")
        print(out.name, file=sys.stderr)
    assert REPLAYS.is_dir()


if __name__ == "__main__":
    main()
