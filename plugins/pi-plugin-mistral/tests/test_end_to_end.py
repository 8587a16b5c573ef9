"""The real `pi -p` on Mistral against the loopback fake: a catalog model whose base URL
models.json moves to the fake asks for `read` and the file's text reaches the next request; pi's
default Mistral model with only a Mistral key; a models.json provider on the API; and the
message naming the plugin when it is not installed."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from mistral_fake import mistral_stream, pi_command, run_pi

from pi_core.testing import FakeLLMServer


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


def test_with_only_a_mistral_key_pi_starts_on_pis_default_mistral_model(tmp_path: Path) -> None:
    args = ["-p", "--no-session", "hi"]
    done, requests = run_pi([pi_command()], args, [mistral_stream("ok")], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
    assert json.loads(requests[0]["body"])["model"] == "devstral-medium-latest"


def test_a_models_json_provider_on_the_mistral_api(tmp_path: Path) -> None:
    with FakeLLMServer() as server:
        agent = tmp_path / "agent"
        agent.mkdir()
        entry = {"baseUrl": server.base_url, "api": "mistral-conversations", "apiKey": "k",
                 "models": [{"id": "my-model"}]}  # fmt: skip
        (agent / "models.json").write_text(json.dumps({"providers": {"la-plateforme": entry}}))
        server.queue(mistral_stream("Custom works."))
        env = {**os.environ, "HOME": str(tmp_path), "PI_CODING_AGENT_DIR": str(agent),
               "PI_OFFLINE": "1"}  # fmt: skip
        done = subprocess.run(
            [pi_command(), "--model", "la-plateforme/my-model", "-p", "--no-session", "hi"],
            env=env, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        (request,) = server.requests
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "Custom works."
    assert request.path == "/v1/chat/completions"
    assert request.headers["authorization"] == "Bearer k"
