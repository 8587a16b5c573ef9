"""CPU per request of the HTTP stacks the providers could use, against a loopback server.

    python benchmarks/http_backend.py [--requests 400] [--rounds 3]

Stacks: httpx on its default (anyio) network backend; httpx with pi_core/ai/net.py's asyncio
backend (`asyncio_transport`, what the providers use); and httpx2, the HTTP stack the `mcp`
SDK pulls in, when it is installed. The server runs in another process and answers every
request with a small keep-alive JSON body, so only the client's work is measured: process CPU
time over `--requests` requests (request sent, body read), per request, in alternating rounds.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import multiprocessing
import socket
import time
from collections.abc import Awaitable, Callable
from typing import Any

BODY = b'{"id":"x","choices":[{"delta":{"content":"hello"}}]}'
RESPONSE = (
    b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: "
    + str(len(BODY)).encode()
    + b"\r\n\r\n"
    + BODY
)


def serve(sock: socket.socket) -> None:
    """Answer every request on `sock` with RESPONSE, keeping connections open."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while True:
            try:
                head = await reader.readuntil(b"\r\n\r\n")
            except (asyncio.IncompleteReadError, ConnectionError):
                return  # the client closed the connection
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":", 1)[1])
            await reader.readexactly(length)
            writer.write(RESPONSE)
            await writer.drain()

    async def main() -> None:
        server = await asyncio.start_server(handle, sock=sock)
        await server.serve_forever()

    asyncio.run(main())


async def measure(send: Callable[[], Awaitable[Any]], requests: int) -> float:
    """Return the CPU milliseconds per request of `requests` calls of `send` (after a warm-up)."""
    for _ in range(20):
        await send()
    start = time.process_time()
    for _ in range(requests):
        await send()
    return (time.process_time() - start) * 1000 / requests


async def round_of(url: str, requests: int) -> dict[str, float]:
    """Measure each stack once."""
    import httpx

    from pi_core.ai.http import asyncio_transport

    body = b'{"model":"m","messages":[]}'
    results: dict[str, float] = {}

    async with httpx.AsyncClient() as client:
        results["httpx, anyio backend"] = await measure(
            lambda: _read(client.post(url, content=body)), requests
        )
    async with httpx.AsyncClient(transport=asyncio_transport(True)) as client:
        results["httpx, net.py backend"] = await measure(
            lambda: _read(client.post(url, content=body)), requests
        )
    if importlib.util.find_spec("httpx2") is not None:
        import httpx2

        async with httpx2.AsyncClient() as client2:
            results["httpx2 (mcp's stack)"] = await measure(
                lambda: _read(client2.post(url, content=body)), requests
            )
    return results


async def _read(response: Awaitable[Any]) -> bytes:
    return bytes((await response).content)


def main() -> None:
    """Start the server, run the rounds, print the table."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    url = f"http://127.0.0.1:{sock.getsockname()[1]}/v1/chat/completions"
    server = multiprocessing.Process(target=serve, args=(sock,), daemon=True)
    server.start()
    try:
        rounds = [asyncio.run(round_of(url, args.requests)) for _ in range(args.rounds)]
    finally:
        server.terminate()
    for name in rounds[0]:
        values = sorted(r[name] for r in rounds)
        print(f"{name:24} {' '.join(f'{v:.3f}' for v in values)} ms CPU/request")


if __name__ == "__main__":
    main()
