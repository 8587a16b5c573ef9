"""`PI_HTTP_REPLAY`: a transport that answers each request from a recording, in order.

The n-th request is compared with the recording's n-th: its method, its URL's path and query,
and its body as JSON, after replacing in every string the working folder and today's date (the
recording's, and this process's) with placeholders, and leaving out `prompt_cache_key` (a
session id). The first difference fails the request with `ReplayDivergence`, which names the
request's number and the JSON path where the bodies part (`$.messages[1].content[0].text`).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import httpx

from pi_core.ai.traffic_diff import first_difference
from pi_core.ai.traffic_format import body_bytes, meta_line, request_fields, scrubbed_url

VOLATILE_KEYS = frozenset({"prompt_cache_key"})


class ReplayDivergence(Exception):
    """A request that differs from the recorded one (or that the recording does not have)."""


class Replayer(httpx.AsyncBaseTransport):
    """Answers the requests of this process from one recording file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.meta: dict[str, Any] = {}
        self.exchanges: list[dict[str, Any]] = []
        for line in path.read_text().splitlines():
            entry = json.loads(line)
            if entry.get("type") == "meta":
                self.meta = entry
            elif entry.get("type") == "exchange":
                self.exchanges.append(entry)
        self.exchanges.sort(key=lambda entry: int(entry["index"]))
        self.sent = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """Return the recorded answer to the next request, or raise ReplayDivergence."""
        self.sent += 1
        number = self.sent
        if number > len(self.exchanges):
            raise ReplayDivergence(
                f"replay divergence at request {number}: the recording ends after "
                f"request {len(self.exchanges)}"
            )
        recorded = self.exchanges[number - 1]
        body = await request.aread()
        where = first_difference(
            self._canonical(recorded, self.meta),
            self._canonical(_live(request, body), meta_line()),
        )
        if where is not None:
            raise ReplayDivergence(f"replay divergence at request {number}: {where}")
        return _answer(recorded, request)

    @staticmethod
    def _canonical(entry: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
        url = httpx.URL(str(entry.get("url", "")))
        target = url.raw_path.decode()
        if "body" in entry or "body_form" in entry:
            body: Any = entry["body"] if "body" in entry else entry["body_form"]
        else:
            body = body_bytes(entry, "body").decode(errors="replace")
        if isinstance(body, dict):
            body = {k: v for k, v in body.items() if k not in VOLATILE_KEYS}
        swaps = [(str(meta.get("cwd") or ""), "<cwd>"), (str(meta.get("date") or ""), "<date>")]
        swaps = [(old, new) for old, new in swaps if len(old) > 1]
        return {
            "method": entry.get("method"),
            "path": _swap(target, swaps),
            "body": _swap(body, swaps),
        }


def _live(request: httpx.Request, body: bytes) -> dict[str, Any]:
    """The request as the recording would hold it (credentials redacted the same way)."""
    kind = request.headers.get("content-type", "")
    return {
        "method": request.method,
        "url": scrubbed_url(request.url),
        **request_fields(body, kind),
    }


def _swap(value: Any, swaps: list[tuple[str, str]]) -> Any:
    """Replace each `old` with its placeholder in every string inside `value`."""
    if isinstance(value, str):
        for old, new in swaps:
            value = value.replace(old, new)
        return value
    if isinstance(value, list):
        return [_swap(item, swaps) for item in value]
    if isinstance(value, dict):
        return {key: _swap(item, swaps) for key, item in value.items()}
    return value


def _answer(recorded: dict[str, Any], request: httpx.Request) -> httpx.Response:
    """Rebuild the recorded answer (or raise the recorded network failure)."""
    error = recorded.get("error")
    if isinstance(error, dict):
        raise httpx.ConnectError(str(error.get("message") or "recorded connection failure"))
    data = body_bytes(recorded, "response")
    stream_error = recorded.get("stream_error")
    return httpx.Response(
        int(recorded["status"]),
        headers=recorded.get("response_headers") or {},
        stream=_Replayed(data, stream_error.get("message") if stream_error else None),
        request=request,
    )


class _Replayed(httpx.AsyncByteStream):
    """The recorded bytes, then the recorded read failure if the stream broke."""

    def __init__(self, data: bytes, failure: str | None) -> None:
        self.data = data
        self.failure = failure

    async def __aiter__(self) -> Any:
        if self.data:
            yield self.data
        if self.failure is not None:
            raise httpx.ReadError(self.failure)


@functools.cache
def replayer(path: str) -> Replayer:
    """Return this process's replay of `path` (one request count for every endpoint)."""
    return Replayer(Path(path))
