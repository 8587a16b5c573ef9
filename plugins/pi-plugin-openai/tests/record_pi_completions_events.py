"""Record what pi 0.73.1 makes of each recorded Chat Completions exchange in `replays/` (the
streamed ones and the HTTP errors): its stream events and final message (`pi -p --mode json`
against the loopback fake serving the recording), into `fixtures/completions_events/`.

Run from the repository root, with pi installed (npm `@mariozechner/pi-coding-agent@0.73.1`):

    cd plugins/pi-plugin-openai/tests
    PI_REF=/path/to/node_modules python record_pi_completions_events.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "helpers"))

from completions_replays import ERRORS, STREAMED, models_json, summary  # noqa: E402

from pi_core.testing import FakeLLMServer, FakeResponse, chat_stream  # noqa: E402

FIXTURES = HERE / "fixtures" / "completions_events"


def main() -> None:
    """Run pi once per replay; write its first answer's events and message."""
    modules = Path(os.environ.get("PI_REF", "/work/pi-ref/node_modules"))
    cli = modules / "@mariozechner" / "pi-coding-agent" / "dist" / "cli.js"
    FIXTURES.mkdir(parents=True, exist_ok=True)
    for replay in [*STREAMED, *ERRORS]:
        with tempfile.TemporaryDirectory() as root, FakeLLMServer() as server:
            agent = Path(root) / "agent"
            agent.mkdir()
            models = models_json(replay, server.base_url + "/v1")
            (agent / "models.json").write_text(json.dumps(models))
            if replay.status >= 400:  # the same error for each of the SDK's two retries
                server.queue(*(FakeResponse.replay(replay.path) for _ in range(3)))
            else:  # and an answer for the turn after a tool call (pi has no such tool)
                server.queue(FakeResponse.replay(replay.path), chat_stream("Done."))
            env = {**os.environ, "HOME": root, "PI_CODING_AGENT_DIR": str(agent),
                   "PI_OFFLINE": "1", "NO_COLOR": "1"}  # fmt: skip
            model = f"{replay.provider}/{replay.model}"
            args = ["--model", model, "-p", "--mode", "json", "--no-session", "--no-tools", "Go."]
            done = subprocess.run(
                ["node", str(cli), *args], env=env, capture_output=True, text=True, timeout=120
            )
        lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
        out = FIXTURES / f"{replay.key}.json"
        out.write_text(json.dumps(summary(lines), indent=1, ensure_ascii=False) + "\n")
        print(out.name, file=sys.stderr)


if __name__ == "__main__":
    main()
