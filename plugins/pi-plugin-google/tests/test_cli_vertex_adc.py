"""End to end: the real `pi -p` on Vertex AI with application-default credentials (an
`authorized_user` file whose token endpoint is the loopback fake) runs a `read` tool call."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from gemini_fake import reply

from pi_core.testing import FakeLLMServer, FakeResponse, console_script


def test_pi_runs_a_tool_loop_on_vertex_with_adc(tmp_path: Path) -> None:
    pi = console_script("pi")
    home, cwd = tmp_path / "home", tmp_path / "project"
    agent = home / ".pi" / "agent"
    agent.mkdir(parents=True)
    cwd.mkdir()
    (cwd / "note.txt").write_text("the secret word is heron\n")
    with FakeLLMServer() as server:
        credentials = tmp_path / "adc.json"
        credentials.write_text(
            json.dumps(
                {
                    "type": "authorized_user",
                    "client_id": "cid",
                    "client_secret": "cs",
                    "refresh_token": "rt",
                    "token_uri": f"{server.base_url}/token",
                }
            )
        )
        token = {"access_token": "adc-token", "expires_in": 3600}
        server.route(lambda r: FakeResponse.json_body(token) if r.path == "/token" else None)
        server.queue(reply(calls=(("read", {"path": "note.txt"}),)), reply("The word is heron."))
        models = {"providers": {"google-vertex": {"baseUrl": server.base_url}}}
        (agent / "models.json").write_text(json.dumps(models))
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GOOGLE", "GEMINI"))}
        env.update(
            HOME=str(home),
            PI_CODING_AGENT_DIR=str(agent),
            PI_OFFLINE="1",
            NO_COLOR="1",
            GOOGLE_APPLICATION_CREDENTIALS=str(credentials),
            GOOGLE_CLOUD_PROJECT="proj",
            GOOGLE_CLOUD_LOCATION="us-central1",
        )
        done = subprocess.run(
            [pi, "-p", "--no-session", "--model", "google-vertex/gemini-2.5-flash", "--tools",
             "read", "What does note.txt say?"],
            cwd=cwd, env=env, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        generate = [r for r in server.requests if r.path != "/token"]
        tokens = [r for r in server.requests if r.path == "/token"]
    assert done.returncode == 0, done.stderr
    assert "The word is heron." in done.stdout
    assert len(generate) == 2 and len(tokens) == 1  # one token for both requests
    for request in generate:
        assert (
            request.path
            == "/v1/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse"
        )
        assert request.headers["authorization"] == "Bearer adc-token"
    answer = generate[1].json()["contents"][-1]["parts"][0]["functionResponse"]
    assert answer["name"] == "read"
    assert "the secret word is heron" in answer["response"]["output"]


def test_list_models_shows_both_google_apis_streamed(tmp_path: Path) -> None:
    pi = console_script("pi")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GOOGLE", "GEMINI"))}
    env.update(HOME=str(tmp_path), PI_CODING_AGENT_DIR=str(tmp_path / "agent"), PI_OFFLINE="1")
    env["GEMINI_API_KEY"] = "k"
    done = subprocess.run(
        [pi, "--list-models", "gemini-2.5-pro", "--all"], env=env, capture_output=True,
        text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = {tuple(r.split()[:2]): r.split()[6:] for r in done.stdout.splitlines()[1:]}
    assert rows[("google", "gemini-2.5-pro")] == ["yes", "google-generative-ai"]
    assert rows[("google-vertex", "gemini-2.5-pro")] == ["no", "google-vertex"]
