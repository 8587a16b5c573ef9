"""`pi batch --token-ids --logprobs N`: the child sessions ask for them and keep `tokenData`."""

from __future__ import annotations

import json
import os
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from batch_helpers import COST, pi_batch_command, records, write_tasks
from vllm_wire import TokenAnswer, token_stream

from pi_core.messages import TokenData
from pi_core.testing import FakeLLMServer, FakeResponse, RecordedRequest, chat_models_json

MODEL = "fake/fake-model"


@dataclass
class VllmFake:
    """Answers `mark <id>` with a `bash` call, then a text; each with vLLM-shaped token data."""

    server: FakeLLMServer
    agent_dir: Path
    bodies: list[dict[str, Any]] = field(default_factory=list)
    answers: dict[tuple[str, bool], TokenAnswer] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answer(self, request: RecordedRequest) -> FakeResponse:
        """Token ids from the task's number and the turn, so any order gives the same ids."""
        body = request.json()
        prompt = next(m["content"] for m in body["messages"] if m["role"] == "user")
        if isinstance(prompt, list):
            prompt = "".join(part.get("text", "") for part in prompt)
        task_id = prompt.split()[-1]
        finished = any(m.get("role") == "tool" for m in body["messages"])
        number = int(task_id.lstrip("t")) * 100 + (2 if finished else 1)
        prompt_ids = [number, 7, 7]
        if finished:
            reply = token_stream(1000 * number, f"done {task_id}", prompt_token_ids=prompt_ids)
        else:
            call = ("bash", {"command": f"printf %s {task_id} > marker.txt"})
            reply = token_stream(1000 * number, "ok", call, prompt_token_ids=prompt_ids)
        with self.lock:
            self.bodies.append(body)
            self.answers[(task_id, finished)] = reply
        return reply.response


@pytest.fixture
def vllm(tmp_path: Path) -> Iterator[VllmFake]:
    """The fake on 127.0.0.1 and an agent folder whose models.json points at it."""
    server = FakeLLMServer().start()
    agent = tmp_path / "agent"
    agent.mkdir()
    (agent / "models.json").write_text(json.dumps(chat_models_json(server.base_url, cost=COST)))
    fake = VllmFake(server, agent)
    server.route(fake.answer)
    yield fake
    server.stop()


def _batch(fake: VllmFake, tmp_path: Path, *flags: str) -> Path:
    tasks = write_tasks(tmp_path / "tasks.jsonl",
                        [{"id": f"t{n}", "prompt": f"mark t{n}"} for n in (1, 2)])  # fmt: skip
    out = tmp_path / "out"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PI_")}
    env.update(PI_CODING_AGENT_DIR=str(fake.agent_dir), HOME=str(tmp_path), PI_OFFLINE="1")
    result = subprocess.run(
        pi_batch_command(str(tasks), "-o", str(out), "-j", "2", "--model", MODEL, *flags),
        env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return out


def _assistant_messages(session: Path) -> list[dict[str, Any]]:
    entries = [json.loads(line) for line in session.read_text().splitlines()]
    return [
        e["message"]
        for e in entries
        if e.get("type") == "message" and e["message"].get("role") == "assistant"
    ]


def test_the_child_sessions_ask_for_token_ids_and_logprobs_and_keep_them(
    vllm: VllmFake, tmp_path: Path
) -> None:
    out = _batch(vllm, tmp_path, "--token-ids", "--logprobs", "2")

    assert len(vllm.bodies) == 4
    for body in vllm.bodies:
        assert body["return_token_ids"] is True
        assert body["logprobs"] is True
        assert body["top_logprobs"] == 2
    for record in records(out):
        assert record["status"] == "ok", record
        task_id = record["task_id"]
        kept = _assistant_messages(out / record["session"])
        assert len(kept) == 2
        for message, finished in zip(kept, (False, True), strict=True):
            sent = vllm.answers[(task_id, finished)]
            data = TokenData.model_validate(message["tokenData"])
            assert data.prompt_token_ids == sent.prompt_token_ids
            assert data.token_ids == sent.token_ids
            assert data.logprobs == sent.logprobs


def test_token_ids_alone_ask_for_no_logprobs(vllm: VllmFake, tmp_path: Path) -> None:
    out = _batch(vllm, tmp_path, "--token-ids")

    for body in vllm.bodies:
        assert body["return_token_ids"] is True
        assert not {"logprobs", "top_logprobs"} & body.keys()
    for record in records(out):
        for message in _assistant_messages(out / record["session"]):
            sent = vllm.answers[(record["task_id"], message["stopReason"] != "toolUse")]
            assert TokenData.model_validate(message["tokenData"]).token_ids == sent.token_ids


def test_without_the_flags_nothing_is_asked(vllm: VllmFake, tmp_path: Path) -> None:
    _batch(vllm, tmp_path)

    assert len(vllm.bodies) == 4
    for body in vllm.bodies:
        assert not {"return_token_ids", "logprobs", "top_logprobs"} & body.keys()
