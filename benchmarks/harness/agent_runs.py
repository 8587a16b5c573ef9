"""Whole-agent scenarios, run the same way for our pi and pi 0.73.1 against one fake server."""

from __future__ import annotations

import itertools
import json
import os
import statistics
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.measure import PeakProbe, Sample, Summary, measure_runs
from harness.rpc import RpcProcess
from harness.scenarios import (
    FINAL_TEXT,
    MODEL,
    NOTE_MARKER,
    TimedFakeServer,
    Workspace,
    make_workspace,
    print_answers,
    stream_answer,
    stream_text,
    tool_turn_answers,
    with_bytecode_cache,
)


@dataclass
class Side:
    """One agent under test: a name, its executable, and its own workspace."""

    name: str
    executable: str
    workspace: Workspace


def make_side(
    name: str,
    executable: str,
    root: Path,
    server: TimedFakeServer,
    bytecode_cache: Path | None = None,
) -> Side:
    """A side with a fresh workspace under `root/name` (Python bytecode cached if asked)."""
    workspace = make_workspace(root / name, server.base_url)
    if bytecode_cache is not None:
        workspace.env = with_bytecode_cache(workspace.env, bytecode_cache)
    return Side(name, executable, workspace)


def startup(side: Side, flag: str, runs: int) -> Summary:
    """`pi <flag>` (--version or --help) in a fresh process: median wall, peak RSS."""
    return measure_runs(
        [side.executable, flag], runs, cwd=side.workspace.project, env=side.workspace.env
    )


def print_two_turns(side: Side, server: TimedFakeServer, runs: int) -> Summary:
    """`pi -p` with a `read` tool call then a text answer; checks the answer and the tool result."""
    seen = {"requests": 0}

    def before() -> None:
        """Queue the two answers and note how many requests came so far."""
        seen["requests"] = len(server.requests)
        server.queue(*print_answers())

    def check(sample: Sample) -> None:
        """The final text is printed, and the second request carries the file's content."""
        requests = server.requests[seen["requests"] :]
        if sample.stdout.decode().strip() != FINAL_TEXT or len(requests) != 2:
            raise RuntimeError(f"{side.name} -p: unexpected run: {sample.stdout[:200]!r}")
        if NOTE_MARKER not in requests[1].body.decode():
            raise RuntimeError(f"{side.name} -p: the read tool result did not reach the model")

    command = [side.executable, "-p", "Read notes.txt and summarize it", "--model", MODEL]
    return measure_runs(
        command,
        runs,
        cwd=side.workspace.project,
        env=side.workspace.env,
        before=before,
        check=check,
    )


@dataclass
class RpcFigures:
    """Median seconds prompt → agent_end for the tool conversation and the small stream."""

    turns_s: float
    stream_s: float
    peak_mib: float


def rpc_conversations(
    side: Side, server: TimedFakeServer, runs: int, turns: int = 20, stream_bytes: int = 10_000
) -> RpcFigures:
    """In one started RPC process: `turns`-turn tool conversations, then small streamed replies."""
    argv = [side.executable, "--mode", "rpc", "--model", MODEL, "--tools", "read,ls"]
    process = RpcProcess(argv, side.workspace.project, side.workspace.env)
    try:
        process.command({"type": "get_state"}, timeout=120)
        turn_times = []
        for index in range(runs + 1):
            before = len(server.requests)
            seconds, record = tool_conversation(process, server, turns)
            check_turns(side, record, turns, len(server.requests) - before)
            if index:  # the first conversation warms up
                turn_times.append(seconds)
        stream_times = []
        expected = stream_text(stream_bytes)
        for index in range(runs + 1):
            process.command({"type": "new_session"})
            server.queue(stream_answer(stream_bytes))
            _, sent = process.send({"type": "prompt", "message": "Write a long answer"})
            ended, record = process.wait_for("agent_end")
            if last_text(record) != expected:
                raise RuntimeError(
                    f"{side.name} rpc stream: the streamed text did not arrive whole"
                )
            if index:
                stream_times.append(ended - sent)
    finally:
        peak = process.close()
    return RpcFigures(statistics.median(turn_times), statistics.median(stream_times), peak)


def tool_conversation(
    process: RpcProcess, server: TimedFakeServer, turns: int
) -> tuple[float, dict[str, Any]]:
    """In a fresh session, one prompt answered by `turns - 1` tool turns and a text turn: the
    seconds from sending it to agent_end, and the agent_end record."""
    process.command({"type": "new_session"})
    server.queue(*tool_turn_answers(turns))
    _, sent = process.send({"type": "prompt", "message": "Look around src/ and report"})
    ended, record = process.wait_for("agent_end")
    return ended - sent, record


def last_text(agent_end: dict[str, object]) -> str:
    """The text of the last assistant message in an agent_end record."""
    messages = agent_end.get("messages")
    assert isinstance(messages, list)
    for message in reversed(messages):
        if message.get("role") == "assistant":
            return "".join(
                part.get("text", "") for part in message["content"] if part.get("type") == "text"
            )
    return ""


def check_turns(side: Side, agent_end: dict[str, object], turns: int, requests: int) -> None:
    """The conversation took `turns` requests, every tool ran without error, the answer came."""
    messages = agent_end.get("messages")
    assert isinstance(messages, list)
    results = [m for m in messages if m.get("role") == "toolResult"]
    failed = [m for m in results if m.get("isError")]
    if (
        requests != turns
        or len(results) != turns - 1
        or failed
        or last_text(agent_end) != FINAL_TEXT
    ):
        detail = json.dumps(failed[:1])[:500]
        raise RuntimeError(
            f"{side.name} rpc: {requests} requests, {len(results)} tool results, "
            f"{len(failed)} failed {detail}"
        )


@dataclass
class StreamFigures:
    """Seconds from the server's first byte to the printed answer, and the peak RSS."""

    seconds: float
    peak_mib: float


def print_stream(side: Side, server: TimedFakeServer, runs: int, total: int) -> StreamFigures:
    """`pi -p` answered by `total` bytes in 10-byte deltas: first byte sent → answer printed."""
    expected = stream_text(total)
    times, peaks = [], []
    command = [side.executable, "-p", "Write a long answer", "--model", MODEL, "--no-session"]
    for _ in range(runs):
        server.queue(stream_answer(total))
        answered = len(server.answered_at)
        probe = PeakProbe()
        process = subprocess.Popen(
            probe.wrap(command),
            cwd=side.workspace.project,
            env=side.workspace.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert process.stdout is not None
        first = process.stdout.read(1)
        printed = time.perf_counter()
        output = first + process.stdout.read()
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0 or output.decode().strip() != expected.strip():
            raise RuntimeError(f"{side.name} -p stream: exit {process.returncode}, wrong output")
        times.append(printed - server.answered_at[answered])
        peaks.append(probe.peak_mib(usage))
    return StreamFigures(statistics.median(times), max(peaks))


@dataclass
class LongSessionFigures:
    """One RPC session grown prompt by prompt: total time, and what a request costs early/late."""

    total_s: float
    early_request_ms: float
    late_request_ms: float
    early_messages: int
    late_messages: int
    peak_mib: float
    cpu_s: float


def long_session(
    side: Side, server: TimedFakeServer, prompts: int = 150, tool_calls: int = 3
) -> LongSessionFigures:
    """`prompts` prompts in one RPC session, each `tool_calls` tool turns and an answer.

    A request's cost is the time from the server starting one answer to the next request of the
    same prompt arriving: streaming the answer in, running the tool, saving, building and sending
    the next request (the work that grows with the history, if any). "Early" is the median over
    the first three prompts, "late" over the last three.
    """
    argv = [side.executable, "--mode", "rpc", "--model", MODEL, "--tools", "read,ls"]
    process = RpcProcess(argv, side.workspace.project, side.workspace.env)
    per_prompt: list[list[float]] = []
    messages_at: list[int] = []
    try:
        process.command({"type": "get_state"}, timeout=120)
        started = time.perf_counter()
        for index in range(prompts):
            server.queue(*tool_turn_answers(tool_calls + 1))
            first = len(server.answered_at)
            process.send({"type": "prompt", "message": f"Look around src/ ({index})"})
            _, record = process.wait_for("agent_end")
            check_turns(side, record, tool_calls + 1, len(server.answered_at) - first)
            stamps = server.answered_at[first:]
            per_prompt.append([later - earlier for earlier, later in itertools.pairwise(stamps)])
            messages_at.append((index + 1) * (2 * tool_calls + 2))
            server.requests.clear()  # the bodies grow with the history: keep none of them
        total = time.perf_counter() - started
    finally:
        peak = process.close()
    early = [gap for gaps in per_prompt[:3] for gap in gaps]
    late = [gap for gaps in per_prompt[-3:] for gap in gaps]
    return LongSessionFigures(
        total_s=total,
        early_request_ms=statistics.median(early) * 1000,
        late_request_ms=statistics.median(late) * 1000,
        early_messages=messages_at[min(2, len(messages_at) - 1)],
        late_messages=messages_at[-1],
        peak_mib=peak,
        cpu_s=process.cpu_s,
    )
