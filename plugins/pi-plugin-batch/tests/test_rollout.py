"""rollout(): one task in this process, its record and each assistant message's token data."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from batch_helpers import COST, Fake, records, run_batch, write_tasks
from pi_plugin_batch import Rollout, rollout, rollout_sync
from vllm_wire import TokenAnswer, token_stream

from pi_core import AssistantMessage, SessionManager
from pi_core.testing import (
    FakeLLMServer,
    FakeResponse,
    RecordedRequest,
    chat_models_json,
    chat_stream,
)
from pi_core.testing.gate import PipeGate

MODEL = "fake/fake-model"


@dataclass
class TokenFake:
    """A vLLM-like fake: a `bash` call first, then a closing text, each with token data."""

    server: FakeLLMServer
    agent_dir: Path
    command: str = "printf %s hi > note.txt"
    answers: list[TokenAnswer] = field(default_factory=list)
    bodies: list[dict[str, Any]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    hang: bool = False

    def answer(self, request: RecordedRequest) -> FakeResponse:
        """The n-th request gets token ids from 1000·n, its prompt ids name the request."""
        body = request.json()
        with self.lock:
            self.bodies.append(body)
            number = len(self.bodies)
        if self.hang:
            return chat_stream("thinking", pause_after_chunks=1)  # then nothing more
        finished = any(m.get("role") == "tool" for m in body["messages"])
        prompt_ids = [number, 7, 7]
        if finished:
            reply = token_stream(1000 * number, "all done", prompt_token_ids=prompt_ids)
        else:
            call = ("bash", {"command": self.command})
            reply = token_stream(1000 * number, "ok", call, prompt_token_ids=prompt_ids)
        with self.lock:
            self.answers.append(reply)
        return reply.response


@pytest.fixture
def token_fake(tmp_path: Path) -> Iterator[TokenFake]:
    """The fake on 127.0.0.1 and an agent folder whose models.json points at it."""
    server = FakeLLMServer().start()
    agent = tmp_path / "agent"
    agent.mkdir()
    (agent / "models.json").write_text(json.dumps(chat_models_json(server.base_url, cost=COST)))
    fake = TokenFake(server, agent)
    server.route(fake.answer)
    yield fake
    server.stop()


async def _rollout(fake: TokenFake, tmp_path: Path, **options: Any) -> Rollout:
    task = options.pop("task", {"id": "t1", "prompt": "write the note"})
    return await rollout(task, out=tmp_path / "out", agent_dir=fake.agent_dir, model=MODEL,
                         **options)  # fmt: skip


async def test_token_ids_and_logprobs_are_kept_per_assistant_message_in_order(
    token_fake: TokenFake, tmp_path: Path
) -> None:
    result = await _rollout(token_fake, tmp_path, token_ids=True, logprobs=2)

    assert result.record["status"] == "ok", result.record
    assert [m["role"] for m in result.messages] == ["user", "assistant", "toolResult", "assistant"]
    assert len(token_fake.answers) == 2
    for data, sent in zip(result.token_data, token_fake.answers, strict=True):
        assert data is not None
        assert data.prompt_token_ids == sent.prompt_token_ids
        assert data.token_ids == sent.token_ids
        assert data.logprobs == sent.logprobs
    assert result.token_data[0].token_ids[0] == 1000  # type: ignore[union-attr]
    assert result.token_data[1].token_ids[0] == 2000  # type: ignore[union-attr]
    sent_back = json.dumps(token_fake.bodies[1]["messages"][1:])  # after the system prompt
    assert "1000" not in sent_back and "logprob" not in sent_back  # history: text and calls only
    for body in token_fake.bodies:
        assert body["return_token_ids"] is True
        assert body["logprobs"] is True
        assert body["top_logprobs"] == 2


async def test_the_session_file_keeps_them_and_still_opens(
    token_fake: TokenFake, tmp_path: Path
) -> None:
    result = await _rollout(token_fake, tmp_path, token_ids=True, logprobs=2)

    session = tmp_path / "out" / result.record["session"]
    assert session == result.session_path
    manager = SessionManager.open(session)
    context = manager.build_session_context()
    kept = [m for m in context.messages if isinstance(m, AssistantMessage)]
    assert [m.token_data for m in kept] == result.token_data
    entries = [json.loads(line) for line in session.read_text().splitlines()]
    task_entry = next(e for e in entries if e.get("customType") == "batch_task")
    assert task_entry["data"]["id"] == "t1"


async def test_without_the_option_nothing_is_asked_or_kept(
    token_fake: TokenFake, tmp_path: Path
) -> None:
    result = await _rollout(token_fake, tmp_path)

    assert result.record["status"] == "ok"
    for body in token_fake.bodies:
        assert not {"return_token_ids", "logprobs", "top_logprobs"} & body.keys()
    # this fake sends token data regardless; what a server sends unasked is still kept
    assert all(data is not None for data in result.token_data)


async def test_a_rollout_runs_its_tool_in_its_own_working_copy(
    token_fake: TokenFake, tmp_path: Path
) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    for args in (["init", "-q"], ["commit", "-q", "--allow-empty", "-m", "base"]):
        _git(repo, *args)
    task = {"id": "t2", "prompt": "write the note", "repo": "repo"}

    result = await _rollout(token_fake, tmp_path, task=task, task_base=tmp_path)

    record = result.record
    assert (record["status"], record["turns"], record["tool_calls"]) == ("ok", 2, 1)
    assert "+hi" in record["patch"] and "note.txt" in record["patch"]
    assert not (repo / "note.txt").exists()  # the worktree, not the repository, was changed
    assert record["final_text"] == "all done"
    assert record["cost"] == pytest.approx(0.03)


async def test_a_budget_stops_the_tool_before_it_runs(
    token_fake: TokenFake, tmp_path: Path
) -> None:
    repo_less = {"id": "t3", "prompt": "write the note", "max_cost": 0.01}

    result = await _rollout(token_fake, tmp_path, task=repo_less, keep_work=True)

    record = result.record
    assert (record["status"], record["error_class"], record["final"]) == (
        "budget_exceeded", "budget", True,
    )  # fmt: skip
    assert len(token_fake.bodies) == 1  # no request after the response that spent it
    assert not (tmp_path / "out" / "work" / "t3" / "note.txt").exists()
    tool_result = next(m for m in result.messages if m["role"] == "toolResult")
    assert "Budget exceeded" in tool_result["content"][0]["text"]


async def test_a_stalled_stream_hits_the_idle_timeout(
    token_fake: TokenFake, tmp_path: Path
) -> None:
    token_fake.hang = True

    result = await _rollout(token_fake, tmp_path, idle_timeout_s=0.5)

    assert (result.record["status"], result.record["final"]) == ("idle_timeout", True)


async def test_a_tool_past_the_timeout_is_stopped_and_the_rollout_ends(
    token_fake: TokenFake, tmp_path: Path
) -> None:
    gate = PipeGate(tmp_path / "gate")  # never opened: the command would wait for ever
    token_fake.command = f"{gate.shell_wait}; printf %s late > late.txt"

    result = await _rollout(token_fake, tmp_path, timeout_s=1.0, keep_work=True)

    assert (result.record["status"], result.record["final"]) == ("timeout", True)
    assert len(token_fake.bodies) == 1
    assert not (tmp_path / "out" / "work" / "t1" / "late.txt").exists()


async def test_side_by_side_rollouts_each_see_their_own_env(
    token_fake: TokenFake, tmp_path: Path
) -> None:
    token_fake.command = 'printf %s "$ROLLOUT_X"'
    tasks = [{"id": f"e{n}", "prompt": "show it", "env": {"ROLLOUT_X": f"value-{n}"}}
             for n in (1, 2)]  # fmt: skip

    results = await asyncio.gather(*(_rollout(token_fake, tmp_path, task=t) for t in tasks))

    for n, result in zip((1, 2), results, strict=True):
        tool_result = next(m for m in result.messages if m["role"] == "toolResult")
        assert tool_result["content"][0]["text"] == f"value-{n}"
    assert "ROLLOUT_X" not in os.environ


def test_the_record_has_the_keys_and_values_of_a_batch_record(fake: Fake, tmp_path: Path) -> None:
    tasks = write_tasks(tmp_path / "tasks.jsonl", [{"id": "k1", "prompt": "do k1"}])
    assert run_batch(fake, tmp_path, str(tasks), "-o", str(tmp_path / "batch"), "--model",
                     MODEL).returncode == 0  # fmt: skip
    (batch_record,) = records(tmp_path / "batch")

    result = rollout_sync({"id": "k1", "prompt": "do k1"}, out=tmp_path / "rl",
                          agent_dir=fake.agent_dir, model=MODEL)  # fmt: skip

    assert result.record.keys() == batch_record.keys()
    same = ("task_id", "status", "final", "model", "usage", "cost", "turns", "tool_calls",
            "final_text", "patch", "session", "artifacts")  # fmt: skip
    assert {k: result.record[k] for k in same} == {k: batch_record[k] for k in same}


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=repo,
                   check=True, capture_output=True)  # fmt: skip


async def test_an_unknown_model_is_the_error_that_would_stop_a_batch(
    token_fake: TokenFake, tmp_path: Path
) -> None:
    result = await rollout({"id": "u1", "prompt": "hi"}, out=tmp_path / "out",
                           agent_dir=token_fake.agent_dir, model="fake/no-such-model")  # fmt: skip

    record = result.record
    assert (record["status"], record["error_class"], record["final"]) == (
        "error", "unknown_model", False,
    )  # fmt: skip
    assert "no-such-model" in record["error"]
    assert token_fake.bodies == []
