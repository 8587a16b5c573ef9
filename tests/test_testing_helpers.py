"""The race-test helpers in `pi_core.testing`: a fake-server response paused mid-body until resumed,
waiting for requests, and the FIFO gate between a test and a child process."""

from __future__ import annotations

import asyncio
import http.client
import json
import threading
from pathlib import Path

import pytest

from pi_core.testing import FakeLLMServer, FakeResponse, PipeGate


def post(server: FakeLLMServer) -> http.client.HTTPResponse:
    """Send one request and return the response, its body not read yet."""
    host, port = server.base_url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    connection.request("POST", "/v1/chat/completions", body=json.dumps({"n": 1}))
    return connection.getresponse()


def test_a_paused_response_holds_after_its_chunks_until_resumed() -> None:
    response = FakeResponse(chunks=[b"one ", b"two ", b"three"], pause_after_chunks=2)
    with FakeLLMServer() as server:
        server.queue(response)
        answer = post(server)
        response.wait_paused()
        assert answer.read(len(b"one two ")) == b"one two "  # sent before the pause
        assert server.requests[0].json() == {"n": 1}
        response.resume()
        assert answer.read() == b"three"


def test_stopping_the_server_releases_a_paused_response() -> None:
    response = FakeResponse(chunks=[b"a", b"b"], pause_after_chunks=1)
    server = FakeLLMServer().start()
    server.queue(response)
    answer = post(server)
    response.wait_paused()
    server.stop()
    assert answer.read() == b"ab"  # the handler thread went on and ended


async def test_until_paused_is_awaitable() -> None:
    response = FakeResponse(chunks=[b"x", b"y"], pause_after_chunks=1)
    with FakeLLMServer() as server:
        server.queue(response)
        client = asyncio.ensure_future(asyncio.to_thread(lambda: post(server).read()))
        await response.until_paused()
        assert len(server.requests) == 1 and not client.done()
        response.resume()
        assert await asyncio.wait_for(client, 30) == b"xy"


def test_wait_for_requests_returns_once_they_arrived() -> None:
    with FakeLLMServer() as server:
        server.queue(FakeResponse.json_body({"ok": 1}), FakeResponse.json_body({"ok": 2}))
        threads = [threading.Thread(target=lambda: post(server).read()) for _ in range(2)]
        for thread in threads:
            thread.start()
        server.wait_for_requests(2)
        assert len(server.requests) == 2
        for thread in threads:
            thread.join(30)
        with pytest.raises(TimeoutError, match="2 of 3 requests"):
            server.wait_for_requests(3, timeout=0)


async def test_a_gate_holds_a_shell_command_until_opened(tmp_path: Path) -> None:
    gate = PipeGate(tmp_path / "gate")
    shell = await asyncio.create_subprocess_exec(
        "bash", "-c", f"{gate.shell_wait}; cat marker", cwd=tmp_path, stdout=asyncio.subprocess.PIPE
    )
    (tmp_path / "marker").write_text("made before the gate opened")
    gate.open()
    output, _ = await asyncio.wait_for(shell.communicate(), 30)
    assert output == b"made before the gate opened" and shell.returncode == 0


async def test_a_child_signals_the_test_through_a_gate(tmp_path: Path) -> None:
    gate = PipeGate(tmp_path / "gate")
    child = await asyncio.create_subprocess_exec(
        "bash", "-c", f"echo started > {tmp_path / 'log'}; {gate.shell_signal}"
    )
    await gate.signalled()
    assert (tmp_path / "log").read_text() == "started\n"  # written before the signal
    assert await asyncio.wait_for(child.wait(), 30) == 0
