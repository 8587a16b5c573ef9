"""httpcore's network layer on plain asyncio: the sockets under the providers' httpx clients.

httpx speaks HTTP; httpcore hands it bytes through a pluggable network backend (its documented
`AsyncNetworkBackend` / `AsyncNetworkStream`). The default one goes through anyio, which resolves
even a numeric address in a worker thread and enters cancel scopes on every read: about 0.4 ms of
CPU per request. This one reads from an `asyncio.Protocol`'s buffer, returning at once when bytes
are already there, does TLS with `loop.start_tls` (SNI from the host name), and raises httpcore's
own exceptions, so httpx maps failures exactly as before.
"""

from __future__ import annotations

import asyncio
import select
import socket
import ssl
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import httpcore

SocketOption = (
    tuple[int, int, int] | tuple[int, int, bytes | bytearray] | tuple[int, int, None, int]
)

READ_BUFFER_LIMIT = 1 << 18
"""Bytes received and not read yet above which the socket is no longer read (back-pressure)."""

HAPPY_EYEBALLS_DELAY = 0.25
"""Seconds before trying a host name's next address in parallel (RFC 8305's suggestion)."""


class _Receiver(asyncio.Protocol):
    """The connection's incoming bytes, its end, and its write flow control."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.chunks: list[bytes] = []
        self.size = 0
        self.eof = False
        self.error: BaseException | None = None
        self.waiter: asyncio.Future[None] | None = None
        self.paused_reading = False
        self.drained: asyncio.Future[None] | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.chunks.append(data)
        self.size += len(data)
        if self.size > READ_BUFFER_LIMIT and not self.paused_reading and self.transport:
            self.transport.pause_reading()
            self.paused_reading = True
        self._wake()

    def eof_received(self) -> bool:
        self.eof = True
        self._wake()
        return False  # the transport closes itself

    def connection_lost(self, exc: Exception | None) -> None:
        self.eof = True
        if exc is not None and self.error is None:
            self.error = exc
        self._wake()
        if self.drained is not None and not self.drained.done():
            self.drained.set_result(None)

    def pause_writing(self) -> None:
        if self.drained is None or self.drained.done():
            self.drained = asyncio.get_running_loop().create_future()

    def resume_writing(self) -> None:
        if self.drained is not None and not self.drained.done():
            self.drained.set_result(None)

    def _wake(self) -> None:
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def take(self, max_bytes: int) -> bytes:
        """Remove and return up to `max_bytes` of the buffered bytes."""
        chunks = self.chunks
        data = chunks[0] if len(chunks) == 1 else b"".join(chunks)
        if len(data) > max_bytes:
            data, rest = data[:max_bytes], data[max_bytes:]
            self.chunks = [rest]
            self.size = len(rest)
        else:
            self.chunks = []
            self.size = 0
        if self.paused_reading and self.size <= READ_BUFFER_LIMIT // 2:
            self.paused_reading = False
            if self.transport is not None:
                self.transport.resume_reading()
        return data


async def _wait(future: asyncio.Future[None], timeout: float | None) -> None:
    """Wait for `future`; raise TimeoutError when `timeout` seconds pass first."""
    if timeout is None:
        await future
        return
    timer = asyncio.get_running_loop().call_later(timeout, _expire, future)
    try:
        await future
    finally:
        timer.cancel()


def _expire(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_exception(TimeoutError())


class AsyncioStream(httpcore.AsyncNetworkStream):
    """One connection (plain or TLS) as httpcore reads and writes it."""

    def __init__(self, transport: asyncio.Transport, receiver: _Receiver) -> None:
        self._transport = transport
        self._receiver = receiver
        self._closed = False

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        """Return the next bytes received (at most `max_bytes`), or b"" once the peer ended."""
        receiver = self._receiver
        while not receiver.size:
            if self._closed:
                raise httpcore.ReadError("The connection is closed")
            if receiver.error is not None:
                raise httpcore.ReadError(str(receiver.error)) from receiver.error
            if receiver.eof:
                return b""
            receiver.waiter = asyncio.get_running_loop().create_future()
            try:
                await _wait(receiver.waiter, timeout)
            except TimeoutError as error:
                raise httpcore.ReadTimeout("Timed out reading from the server") from error
            finally:
                receiver.waiter = None
        return receiver.take(max_bytes)

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        """Send `buffer`, waiting (up to `timeout`) while the socket's send buffer is full."""
        if not buffer:
            return
        receiver = self._receiver
        if self._closed or self._transport.is_closing():
            raise httpcore.WriteError(str(receiver.error or "The connection is closed"))
        self._transport.write(buffer)
        drained = receiver.drained
        if drained is not None and not drained.done():
            try:
                await _wait(asyncio.shield(drained), timeout)
            except TimeoutError as error:
                raise httpcore.WriteTimeout("Timed out writing to the server") from error
            if receiver.error is not None:
                raise httpcore.WriteError(str(receiver.error)) from receiver.error

    async def aclose(self) -> None:
        """Close the connection at once; a read waiting on it fails with ReadError."""
        if self._closed:
            return
        self._closed = True
        self._transport.close()
        self._transport.abort()  # nothing more to send, and nothing to wait for
        waiter = self._receiver.waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.AsyncNetworkStream:
        """Upgrade the connection to TLS (the hostname is checked and sent as SNI)."""
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(timeout):
                transport = await loop.start_tls(
                    self._transport, self._receiver, ssl_context, server_hostname=server_hostname
                )
        except TimeoutError as error:
            await self.aclose()
            raise httpcore.ConnectTimeout("Timed out in the TLS handshake") from error
        except OSError as error:  # ssl.SSLError included
            await self.aclose()
            raise httpcore.ConnectError(str(error)) from error
        except BaseException:
            await self.aclose()
            raise
        if transport is None:  # only when the connection was lost during the handshake
            raise httpcore.ConnectError("The connection closed during the TLS handshake")
        assert isinstance(transport, asyncio.Transport)
        self._receiver.transport = transport
        return AsyncioStream(transport, self._receiver)

    def get_extra_info(self, info: str) -> Any:
        """Answer httpcore's questions: ssl_object, client_addr, server_addr, socket,
        is_readable (an idle connection with something to read was closed by the server)."""
        transport = self._transport
        if info == "ssl_object":
            return transport.get_extra_info("ssl_object")
        if info == "client_addr":
            return transport.get_extra_info("sockname")
        if info == "server_addr":
            return transport.get_extra_info("peername")
        if info == "socket":
            return transport.get_extra_info("socket")
        if info == "is_readable":
            receiver = self._receiver
            if receiver.size or receiver.eof or transport.is_closing():
                return True
            return _readable(transport.get_extra_info("socket"))
        return None


class AsyncioBackend(httpcore.AsyncNetworkBackend):
    """Open connections with the running event loop (see the module's docstring)."""

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[SocketOption] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        """Connect to `host`:`port` (TCP_NODELAY, as asyncio sets on every TCP connection)."""
        loop = asyncio.get_running_loop()
        local = (local_address, 0) if local_address else None
        delay = None if _is_address(host) else HAPPY_EYEBALLS_DELAY
        return await _connect(
            f"{host}:{port}",
            lambda receiver: loop.create_connection(
                receiver, host, port, local_addr=local, happy_eyeballs_delay=delay
            ),
            timeout,
            socket_options,
        )

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[SocketOption] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        """Connect to the Unix socket at `path`."""
        loop = asyncio.get_running_loop()
        return await _connect(
            path,
            lambda receiver: loop.create_unix_connection(receiver, path),
            timeout,
            socket_options,
        )

    async def sleep(self, seconds: float) -> None:
        """Sleep (httpcore's retry back-off)."""
        await asyncio.sleep(seconds)


_Opener = Callable[
    [Callable[[], _Receiver]], Awaitable[tuple[asyncio.BaseTransport, asyncio.BaseProtocol]]
]


async def _connect(
    where: str,
    open_connection: _Opener,
    timeout: float | None,
    socket_options: Iterable[SocketOption] | None,
) -> AsyncioStream:
    """Open a connection with `open_connection` (given the protocol's factory), mapping failures
    to httpcore's ConnectTimeout / ConnectError."""
    receiver = _Receiver()
    try:
        async with asyncio.timeout(timeout):
            transport, _ = await open_connection(lambda: receiver)
    except TimeoutError as error:
        raise httpcore.ConnectTimeout(f"Timed out connecting to {where}") from error
    except OSError as error:
        raise httpcore.ConnectError(str(error) or type(error).__name__) from error
    assert isinstance(transport, asyncio.Transport)
    _set_options(transport, socket_options)
    return AsyncioStream(transport, receiver)


def _is_address(host: str) -> bool:
    """Return whether `host` is a numeric IPv4/IPv6 address (nothing to resolve)."""
    for family in (socket.AF_INET, socket.AF_INET6):
        try:
            socket.inet_pton(family, host)
        except OSError:
            continue
        return True
    return False


def _readable(sock: Any) -> bool:
    """Return whether the socket has bytes (or its end) waiting, without reading them."""
    if sock is None or sock.fileno() < 0:
        return True
    if hasattr(select, "poll"):
        poller = select.poll()
        poller.register(sock.fileno(), select.POLLIN)
        return bool(poller.poll(0))
    return bool(select.select([sock.fileno()], [], [], 0)[0])


def _set_options(transport: asyncio.Transport, options: Iterable[SocketOption] | None) -> None:
    sock = transport.get_extra_info("socket")
    for option in options or ():
        sock.setsockopt(*option)
