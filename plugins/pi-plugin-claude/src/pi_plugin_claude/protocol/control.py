"""The control channel: requests pi-claude sends to the host, matched with their responses."""

from __future__ import annotations

import asyncio
import itertools
import json
import sys
import uuid
from typing import Any, TextIO


class ControlError(Exception):
    """The host answered a control request with an error, or never answered."""


class Output:
    """Writes one JSON object per line to stdout, flushed at once (the host reads as we go)."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stdout
        self.closed = False

    def send(self, message: dict[str, Any]) -> None:
        """Write `message` as one line; a host that went away is not an error."""
        if self.closed:
            return
        try:
            self.stream.write(json.dumps(message, ensure_ascii=False) + "\n")
            self.stream.flush()
        except (BrokenPipeError, ValueError):
            self.closed = True


class ControlChannel:
    """Outgoing control requests (can_use_tool, hook_callback) and their pending answers."""

    def __init__(self, output: Output, enabled: bool) -> None:
        self.output = output
        self.enabled = enabled  # only a stream-json host can answer
        self._pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._counter = itertools.count(1)

    async def request(
        self, payload: dict[str, Any], timeout: float | None = None
    ) -> dict[str, Any]:
        """Send a control request and wait for the host's response (cancel → control_cancel)."""
        if not self.enabled:
            raise ControlError("no host to ask: stdin is not a stream-json channel")
        request_id = str(uuid.uuid4())
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        self.output.send({"type": "control_request", "request_id": request_id, "request": payload})
        try:
            return await asyncio.wait_for(future, timeout)
        except (asyncio.CancelledError, TimeoutError):
            self.output.send({"type": "control_cancel_request", "request_id": request_id})
            raise
        finally:
            self._pending.pop(request_id, None)

    def resolve(self, response: dict[str, Any]) -> None:
        """Deliver a `control_response` line to the request waiting for it."""
        request_id = str(response.get("request_id", ""))
        future = self._pending.get(request_id)
        if future is None or future.done():
            return
        if response.get("subtype") == "error":
            future.set_exception(ControlError(str(response.get("error") or "host error")))
        else:
            answer = response.get("response")
            future.set_result(answer if isinstance(answer, dict) else {})

    def fail_all(self, reason: str) -> None:
        """The host is gone (stdin closed): every waiting request fails with `reason`."""
        for future in self._pending.values():
            if not future.done():
                future.set_exception(ControlError(reason))

    def success(self, request_id: str, response: dict[str, Any] | None = None) -> None:
        """Answer one of the host's control requests."""
        self.output.send(
            {
                "type": "control_response",
                "response": {
                    "subtype": "success",
                    "request_id": request_id,
                    "response": response or {},
                },
            }
        )

    def error(self, request_id: str, message: str) -> None:
        """Refuse one of the host's control requests, saying why."""
        self.output.send(
            {
                "type": "control_response",
                "response": {"subtype": "error", "request_id": request_id, "error": message},
            }
        )

    def next_local_id(self) -> int:
        """A counter for ids that only need to be unique in this process."""
        return next(self._counter)
