"""`PI_HTTP_RECORD` / `PI_HTTP_REPLAY`: a real `pi -p` records its provider traffic, then answers
from the recording with the server gone, and names the first request that differs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from pi_core.ai.traffic_record import Recorder
from pi_core.ai.traffic_replay import ReplayDivergence, Replayer
from pi_core.testing import (
    FakeLLMServer,
    FakeResponse,
    RecordedRequest,
    chat_models_json,
    chat_stream,
)

KEY = "sk-secret-recorded-key"


def _pi(agent: Path, cwd: Path, prompt: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("PI_")}
    base.update(PI_CODING_AGENT_DIR=str(agent), HOME=str(agent.parent), PI_OFFLINE="1", **env)
    return subprocess.run(
        [sys.executable, "-m", "pi_core", "-p", "--model", "fake/fake-model", prompt],
        env=base, cwd=cwd, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def _answer(request: RecordedRequest) -> FakeResponse:
    messages = request.json()["messages"]
    return chat_stream(f"echo {messages[-1]['content'][0]['text']}")


def _recorded(tmp_path: Path) -> tuple[Path, Path, FakeLLMServer]:
    """Record one `pi -p` in `tmp_path/a`; return the agent folder, the recording, the server."""
    server = FakeLLMServer().start()
    server.route(_answer)
    agent = tmp_path / "pi-agent"
    agent.mkdir()
    models = chat_models_json(server.base_url)
    models["providers"]["fake"]["apiKey"] = KEY
    (agent / "models.json").write_text(json.dumps(models))
    (tmp_path / "a").mkdir()
    recording = tmp_path / "traffic.jsonl"
    result = _pi(agent, tmp_path / "a", "hello", PI_HTTP_RECORD=str(recording))
    assert result.returncode == 0, result.stderr
    assert result.stdout == "echo hello\n"
    return agent, recording, server


def test_a_recorded_run_replays_without_the_server_from_another_folder(tmp_path: Path) -> None:
    agent, recording, server = _recorded(tmp_path)
    server.stop()
    lines = [json.loads(line) for line in recording.read_text().splitlines()]
    assert [line["type"] for line in lines] == ["meta", "exchange"]
    exchange = lines[1]
    assert exchange["index"] == 1 and exchange["status"] == 200 and exchange["complete"]
    assert exchange["body"]["messages"][-1]["content"][0]["text"] == "hello"
    assert exchange["response_text"].endswith("data: [DONE]\n\n")  # the whole stream
    assert KEY not in recording.read_text()
    assert "authorization" not in {name.lower() for name in exchange["request_headers"]}
    # The system prompt names the working folder: replay normalises it, so another folder works.
    (tmp_path / "b").mkdir()
    replayed = _pi(agent, tmp_path / "b", "hello", PI_HTTP_REPLAY=str(recording))
    assert replayed.returncode == 0, replayed.stderr
    assert replayed.stdout == "echo hello\n"


def test_a_changed_request_names_its_number_and_json_path(tmp_path: Path) -> None:
    agent, recording, server = _recorded(tmp_path)
    server.stop()
    changed = _pi(agent, tmp_path / "a", "hellO", PI_HTTP_REPLAY=str(recording))
    assert changed.returncode != 0
    assert (
        'replay divergence at request 1: $.messages[1].content[0].text: recorded "hello", '
        'sent "hellO"' in changed.stderr
    )
    assert len(server.requests) == 1  # only the recorded run reached the server


async def test_keys_are_left_out_and_failures_replay_as_they_happened(tmp_path: Path) -> None:
    path = tmp_path / "traffic.jsonl"
    answers: list[httpx.Response | Exception] = [
        httpx.Response(
            200,
            headers={"content-type": "text/event-stream", "set-cookie": "s=1", "x-request-id": "r"},
            content=b"data: 1\n\n",
        ),
        httpx.ConnectError("refused"),
    ]

    def network(request: httpx.Request) -> httpx.Response:
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    async def send(transport: httpx.AsyncBaseTransport, text: str) -> httpx.Response:
        async with httpx.AsyncClient(transport=transport) as client:
            response = await client.post(
                "https://llm.example/v1/go?key=SECRET&alt=sse",
                json={"text": text},
                headers={"authorization": "Bearer SECRET", "x-goog-api-key": "SECRET"},
            )
            await response.aread()
            return response

    recording = Recorder(path).wrap(httpx.MockTransport(network))
    assert (await send(recording, "one")).content == b"data: 1\n\n"
    with pytest.raises(httpx.ConnectError):
        await send(recording, "two")
    text = path.read_text()
    assert "SECRET" not in text
    first, second = [json.loads(line) for line in text.splitlines()[1:]]
    assert first["url"] == "https://llm.example/v1/go?key=%3Credacted%3E&alt=sse"
    assert first["response_headers"] == {"content-type": "text/event-stream", "x-request-id": "r"}
    assert second["error"] == {"type": "ConnectError", "message": "refused"}

    replay = Replayer(path)
    replayed = await send(replay, "one")
    assert (replayed.status_code, replayed.content) == (200, b"data: 1\n\n")
    assert replayed.headers["x-request-id"] == "r"
    with pytest.raises(httpx.ConnectError, match="refused"):
        await send(replay, "two")
    with pytest.raises(ReplayDivergence, match="at request 3: the recording ends after request 2"):
        await send(replay, "three")
    # The next process to record into the file starts it afresh: one file holds one run.
    Recorder(path)
    assert [json.loads(line)["type"] for line in path.read_text().splitlines()] == ["meta"]


async def test_a_token_grant_is_recorded_and_replayed_without_its_secrets(tmp_path: Path) -> None:
    path = tmp_path / "traffic.jsonl"
    form = {"grant_type": "refresh_token", "client_id": "cid", "client_secret": "SECRET-1",
            "refresh_token": "SECRET-2"}  # fmt: skip
    grant = {"access_token": "SECRET-3", "expires_in": 3599, "token_type": "Bearer"}

    def network(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json=grant)

    async def post(transport: httpx.AsyncBaseTransport) -> httpx.Response:
        async with httpx.AsyncClient(transport=transport) as client:
            response = await client.post("https://oauth2.example/token", data=form)
            await response.aread()
            return response

    assert (await post(Recorder(path).wrap(httpx.MockTransport(network)))).json() == grant
    text = path.read_text()
    assert "SECRET" not in text
    exchange = json.loads(text.splitlines()[1])
    assert exchange["body_form"] == {**form, "client_secret": "<redacted>",
                                     "refresh_token": "<redacted>"}  # fmt: skip
    replayed = await post(Replayer(path))  # the same form is the same request
    assert replayed.json() == {**grant, "access_token": "<redacted>"}
