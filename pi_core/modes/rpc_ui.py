"""The plugin UI in RPC mode: dialogs become `extension_ui_request`s the client answers."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from typing import Any

from pi_core.abort import AbortSignal
from pi_core.plugins.ui import ExtensionUI, NotifyLevel, WidgetFactory, WidgetPlacement

Output = Callable[[dict[str, Any]], None]


class RpcUI(ExtensionUI):
    """Forwards dialogs and notifications to the RPC client (see pi's docs/rpc.md)."""

    has_ui = True

    def __init__(self, output: Output) -> None:
        self._output = output
        self._pending: dict[str, asyncio.Future[dict[str, Any]]] = {}

    def resolve(self, response: dict[str, Any]) -> bool:
        """Deliver a client's `extension_ui_response`; False if no dialog waits for its id."""
        future = self._pending.pop(str(response.get("id")), None)
        if future is None or future.done():
            return False
        future.set_result(response)
        return True

    async def _dialog(
        self,
        request: dict[str, Any],
        signal: AbortSignal | None,
        timeout: float | None,
    ) -> dict[str, Any] | None:
        if signal is not None and signal.aborted:
            return None
        request_id = str(uuid.uuid4())
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        message = {"type": "extension_ui_request", "id": request_id, **request}
        if timeout is not None:
            message["timeout"] = int(timeout * 1000)
        self._output(message)

        def cancel() -> None:
            future.cancel()

        remove = signal.add_listener(cancel) if signal is not None else None
        try:
            return await asyncio.wait_for(future, timeout)
        except (TimeoutError, asyncio.CancelledError):
            return None
        finally:
            self._pending.pop(request_id, None)
            if remove is not None:
                remove()

    async def select(
        self,
        title: str,
        options: list[str],
        *,
        signal: AbortSignal | None = None,
        timeout: float | None = None,
    ) -> str | None:
        """Ask the client to pick one option."""
        answer = await self._dialog(
            {"method": "select", "title": title, "options": options}, signal, timeout
        )
        return _value(answer)

    async def confirm(
        self,
        title: str,
        message: str,
        *,
        signal: AbortSignal | None = None,
        timeout: float | None = None,
    ) -> bool:
        """Ask the client a yes/no question."""
        answer = await self._dialog(
            {"method": "confirm", "title": title, "message": message}, signal, timeout
        )
        return bool(answer and not answer.get("cancelled") and answer.get("confirmed"))

    async def input(
        self,
        title: str,
        placeholder: str | None = None,
        *,
        signal: AbortSignal | None = None,
        timeout: float | None = None,
    ) -> str | None:
        """Ask the client for a line of text."""
        request = {"method": "input", "title": title, "placeholder": placeholder}
        return _value(await self._dialog(request, signal, timeout))

    async def editor(self, title: str, prefill: str | None = None) -> str | None:
        """Ask the client for multi-line text."""
        request = {"method": "editor", "title": title, "prefill": prefill}
        return _value(await self._dialog(request, None, None))

    def _fire(self, method: str, **fields: Any) -> None:
        self._output({"type": "extension_ui_request", "id": str(uuid.uuid4()), "method": method,
                      **{k: v for k, v in fields.items() if v is not None}})  # fmt: skip

    def notify(self, message: str, type: NotifyLevel = "info") -> None:
        """Send a notification."""
        self._fire("notify", message=message, notifyType=type)

    def set_status(self, key: str, text: str | None) -> None:
        """Set or clear a status entry."""
        self._fire("setStatus", statusKey=key, statusText=text)

    def set_widget(
        self,
        key: str,
        content: list[str] | WidgetFactory | None,
        placement: WidgetPlacement = "aboveEditor",
    ) -> None:
        """Set or clear a widget (lists of lines only: a component factory is ignored)."""
        if content is None or isinstance(content, list):
            self._fire("setWidget", widgetKey=key, widgetLines=content, widgetPlacement=placement)

    def set_title(self, title: str) -> None:
        """Set the client's window title."""
        self._fire("setTitle", title=title)

    def set_editor_text(self, text: str) -> None:
        """Put text in the client's editor."""
        self._fire("set_editor_text", text=text)

    def paste_to_editor(self, text: str) -> None:
        """Same as set_editor_text in RPC mode."""
        self.set_editor_text(text)

    def set_theme(self, theme: Any) -> dict[str, Any]:
        """The client draws its own colours: nothing to switch."""
        return {"success": False, "error": "Theme switching not supported in RPC mode"}


def _value(answer: dict[str, Any] | None) -> str | None:
    if not answer or answer.get("cancelled"):
        return None
    value = answer.get("value")
    return value if isinstance(value, str) else None
