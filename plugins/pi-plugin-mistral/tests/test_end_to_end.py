"""The real `pi -p` on a catalog Mistral model, its base URL moved to the loopback fake by
models.json: the model asks for `read`, the file's text reaches the next request, the answer is
printed."""

from __future__ import annotations

import json
from pathlib import Path

from mistral_fake import mistral_stream, pi_command, run_pi


def test_pi_runs_a_tool_loop_on_mistral(tmp_path: Path) -> None:
    pi = pi_command()
    answers = [
        mistral_stream(tool_calls=[("Xy12ab34Z", "read", {"path": "note.txt"})]),
        mistral_stream("The note says hello."),
    ]
    args = ["-p", "--no-session", "--tools", "read", "Read note.txt."]
    done, requests = run_pi(
        [pi, "--model", "mistral/devstral-medium-latest"], args, answers, tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "The note says hello."
    assert [r["path"] for r in requests] == ["/v1/chat/completions"] * 2
    assert requests[0]["headers"]["authorization"] == "Bearer test-key"
    second = json.loads(requests[1]["body"])
    assert second["model"] == "devstral-medium-latest"
    call, result = second["messages"][-2:]
    assert call["tool_calls"][0]["id"] == "Xy12ab34Z"
    assert result == {
        "role": "tool",
        "content": [{"type": "text", "text": "hello"}],
        "tool_call_id": "Xy12ab34Z",
        "name": "read",
    }


def test_without_the_plugin_pi_names_it(tmp_path: Path) -> None:
    args = ["--block-plugin", "mistral", "-p", "--no-session", "hi"]
    done, requests = run_pi(
        [pi_command(), "--model", "mistral/codestral-latest"], args, [], tmp_path
    )
    assert done.returncode == 1
    assert "needs a plugin for the mistral-conversations API" in done.stderr
    assert "Install pi-plugin-mistral to use it." in done.stderr
    assert requests == []
