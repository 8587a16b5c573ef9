"""The asyncio network backend under the providers' httpx clients: keep-alive, TLS, failures."""

from __future__ import annotations

import asyncio
import json
import shutil
import socket
import ssl
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpcore
import httpx
import pytest

from pi_core.ai.http import asyncio_transport, client_for, open_stream
from pi_core.ai.model import Model
from pi_core.ai.net import READ_BUFFER_LIMIT, AsyncioBackend, _Receiver
from pi_core.ai.protocol import LLMContext, StreamOptions
from pi_core.messages import UserMessage


class LoopbackServer:
    """An HTTP/1.1 server on 127.0.0.1 that keeps connections open and counts them.

    Each request is answered with the next queued body (as an event stream, with its length), or
    never answered when `silent` is set.
    """

    def __init__(self, bodies: list[bytes], tls: ssl.SSLContext | None = None) -> None:
        self.bodies = bodies
        self.tls = tls
        self.connections = 0
        self.requests: list[bytes] = []
        self.request_lines: list[bytes] = []
        self.silent = False
        self.server: asyncio.Server | None = None

    async def __aenter__(self) -> LoopbackServer:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0, ssl=self.tls)
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self.server is not None
        self.server.close()

    @property
    def port(self) -> int:
        assert self.server is not None
        return int(self.server.sockets[0].getsockname()[1])

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                self.request_lines.append(head.split(b"\r\n", 1)[0])
                length = 0
                for line in head.split(b"\r\n"):
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value)
                self.requests.append(await reader.readexactly(length))
                if self.silent:
                    await reader.read()  # until the client gives up
                    return
                body = self.bodies.pop(0)
                writer.write(
                    b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
                    b"content-length: %d\r\n\r\n%s" % (len(body), body)
                )
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, ssl.SSLError):
            pass
        finally:
            writer.close()


def sse(events: list[dict[str, Any]], named: bool = False, done: bool = False) -> bytes:
    out = b""
    for event in events:
        prefix = f"event: {event['type']}\n" if named else ""
        out += f"{prefix}data: {json.dumps(event)}\n\n".encode()
    return out + (b"data: [DONE]\n\n" if done else b"")


def completions_body() -> bytes:
    delta = {"index": 0, "delta": {"content": "hi"}, "finish_reason": None}
    stop = {"index": 0, "delta": {}, "finish_reason": "stop"}
    chunks = [{"type": "chunk", "choices": [delta]}, {"type": "chunk", "choices": [stop]}]
    return sse(chunks, done=True)


def responses_body() -> bytes:
    item = {"id": "msg_1", "type": "message", "role": "assistant", "content": []}
    done_item = {**item, "content": [{"type": "output_text", "text": "hi", "annotations": []}]}
    usage = {"input_tokens": 3, "output_tokens": 1, "total_tokens": 4}
    return sse(
        [
            {"type": "response.created", "response": {"id": "r", "status": "in_progress"}},
            {"type": "response.output_item.added", "output_index": 0, "item": item},
            {"type": "response.output_text.delta", "item_id": "msg_1", "delta": "hi"},
            {"type": "response.output_item.done", "output_index": 0, "item": done_item},
            {"type": "response.completed", "response": {"id": "r", "status": "completed",
                                                         "output": [done_item], "usage": usage}},
        ]
    )  # fmt: skip


def messages_body() -> bytes:
    message = {"id": "m", "type": "message", "role": "assistant", "content": [],
               "usage": {"input_tokens": 3, "output_tokens": 0}}  # fmt: skip
    return sse(
        [
            {"type": "message_start", "message": message},
            {"type": "content_block_start", "index": 0,
             "content_block": {"type": "text", "text": ""}},
            {"type": "content_block_delta", "index": 0,
             "delta": {"type": "text_delta", "text": "hi"}},
            {"type": "content_block_stop", "index": 0},
            {"type": "message_delta", "delta": {"stop_reason": "end_turn"},
             "usage": {"output_tokens": 1}},
            {"type": "message_stop"},
        ],
        named=True,
    )  # fmt: skip


def wire_formats() -> list[tuple[str, Callable[[], bytes], str]]:
    return [
        ("openai-completions", completions_body, "/v1"),
        ("openai-responses", responses_body, "/v1"),
        ("anthropic-messages", messages_body, ""),
    ]


def stream_function(api: str) -> Any:
    if api == "anthropic-messages":
        from pi_plugin_anthropic import STREAMS as ANTHROPIC

        return ANTHROPIC[api]
    from pi_plugin_openai import STREAMS as OPENAI

    return OPENAI[api]


@pytest.mark.parametrize(("api", "body", "suffix"), wire_formats())
async def test_each_wire_format_reads_its_body_to_the_end_and_reuses_the_connection(
    api: str, body: Callable[[], bytes], suffix: str
) -> None:
    async with LoopbackServer([body(), body(), body()]) as server:
        model = Model(id="m", api=api, provider="p", base_url=f"http://127.0.0.1:{server.port}")
        model.base_url += suffix
        context = LLMContext(system_prompt="sys", messages=[UserMessage(content="hello")])
        finals = []
        for _ in range(3):
            events = [e async for e in stream_function(api)(model, context, StreamOptions())]
            finals.append(events[-1].message)
        assert [(m.stop_reason, m.content[0].text) for m in finals] == [("stop", "hi")] * 3
        assert len(server.requests) == 3
        assert server.connections == 1


async def test_a_plain_request_through_the_pooled_client() -> None:
    async with LoopbackServer([b"data: one\n\n", b"data: two\n\n"]) as server:
        client = await client_for(f"http://127.0.0.1:{server.port}")
        bodies = []
        for _ in range(2):
            response = await client.post(f"http://127.0.0.1:{server.port}/x", content=b"{}")
            bodies.append(response.content)
            stream = response.extensions["network_stream"]
            assert stream.get_extra_info("ssl_object") is None
            assert stream.get_extra_info("server_addr")[1] == server.port
            assert stream.get_extra_info("client_addr")[0] == "127.0.0.1"
            assert stream.get_extra_info("socket").getsockopt(
                socket.IPPROTO_TCP, socket.TCP_NODELAY
            )
        assert bodies == [b"data: one\n\n", b"data: two\n\n"]
        assert server.connections == 1


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed certificate for localhost / 127.0.0.1, made with the openssl binary."""
    if shutil.which("openssl") is None:
        pytest.skip("the openssl binary is needed to make a test certificate")
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


async def test_tls_sends_the_host_name_and_checks_the_certificate(
    certificate: tuple[Path, Path],
) -> None:
    cert, key = certificate
    server_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_context.load_cert_chain(cert, key)
    names: list[str | None] = []
    server_context.sni_callback = lambda _sock, name, _ctx: names.append(name)  # type: ignore[assignment,func-returns-value]
    async with LoopbackServer([b"data: one\n\n", b"data: two\n\n"], server_context) as server:
        trusting = ssl.create_default_context(cafile=str(cert))
        url = f"https://localhost:{server.port}/x"
        async with httpx.AsyncClient(transport=asyncio_transport(trusting)) as client:
            first = await client.post(url, content=b"{}")
            second = await client.post(url, content=b"{}")
            tls = first.extensions["network_stream"].get_extra_info("ssl_object")
            assert isinstance(tls, ssl.SSLObject) and tls.server_hostname == "localhost"
        assert (first.content, second.content) == (b"data: one\n\n", b"data: two\n\n")
        assert names == ["localhost"] and server.connections == 1

        # the default trust store does not know this certificate: refused, as httpx refuses
        client = await client_for(f"https://localhost:{server.port}")
        with pytest.raises(httpx.ConnectError, match="CERTIFICATE_VERIFY_FAILED"):
            await client.post(url, content=b"{}")


async def test_a_proxy_from_the_environment_is_still_used(monkeypatch: pytest.MonkeyPatch) -> None:
    async with LoopbackServer([b"data: proxied\n\n"]) as proxy:
        monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{proxy.port}")
        monkeypatch.delenv("NO_PROXY", raising=False)
        monkeypatch.delenv("no_proxy", raising=False)
        async with open_stream("http://api.example.invalid/v1", "chat", b"{}", {}) as response:
            body = await response.aread()
    assert body == b"data: proxied\n\n"
    assert proxy.request_lines == [b"POST http://api.example.invalid/v1/chat HTTP/1.1"]


async def test_connection_refused_is_a_connect_error() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed again: nothing listens there
    client = await client_for(f"http://127.0.0.1:{port}")
    with pytest.raises(httpx.ConnectError):
        await client.post(f"http://127.0.0.1:{port}/x", content=b"{}")


async def test_a_server_that_never_answers_is_a_read_timeout() -> None:
    async with LoopbackServer([]) as server:
        server.silent = True
        client = await client_for(f"http://127.0.0.1:{server.port}")
        request = client.build_request(
            "POST", f"http://127.0.0.1:{server.port}/x", content=b"{}", timeout=0.05
        )
        with pytest.raises(httpx.ReadTimeout):
            await client.send(request)
        assert server.requests == [b"{}"]


async def test_closing_a_connection_fails_the_read_waiting_on_it() -> None:
    async with LoopbackServer([]) as server:
        server.silent = True
        stream = await AsyncioBackend().connect_tcp("127.0.0.1", server.port, timeout=5)
        await stream.write(b"POST / HTTP/1.1\r\ncontent-length: 0\r\n\r\n")
        read = asyncio.create_task(stream.read(1024))
        while stream._receiver.waiter is None:  # the read is waiting for bytes
            await asyncio.sleep(0)
        await stream.aclose()
        with pytest.raises(httpcore.ReadError):
            await read
        with pytest.raises(httpcore.WriteError):
            await stream.write(b"more")


class RecordingTransport(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.calls: list[str] = []

    def pause_reading(self) -> None:
        self.calls.append("pause")

    def resume_reading(self) -> None:
        self.calls.append("resume")


def test_reading_pauses_while_unread_bytes_pile_up_and_bytes_stay_in_order() -> None:
    transport = RecordingTransport()
    receiver = _Receiver()
    receiver.connection_made(transport)
    sent = bytes(range(256)) * (3 * READ_BUFFER_LIMIT // 256)
    for start in range(0, len(sent), 10_000):
        receiver.data_received(sent[start : start + 10_000])
    assert transport.calls == ["pause"]
    read = b""
    while receiver.size:
        read += receiver.take(65_536)
    assert read == sent
    assert transport.calls == ["pause", "resume"]


async def test_unix_sockets_are_served_too(tmp_path: Path) -> None:
    path = str(tmp_path / "s")
    served: list[bytes] = []

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        served.append(await reader.readuntil(b"\r\n\r\n"))
        writer.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok")
        await writer.drain()
        writer.close()

    server = await asyncio.start_unix_server(serve, path)
    async with server:
        stream = await AsyncioBackend().connect_unix_socket(path, timeout=5)
        await stream.write(b"GET / HTTP/1.1\r\nhost: x\r\n\r\n")
        answer = b""
        while chunk := await stream.read(1024):
            answer += chunk
        await stream.aclose()
    assert answer.endswith(b"\r\n\r\nok") and served[0].startswith(b"GET / HTTP/1.1")
