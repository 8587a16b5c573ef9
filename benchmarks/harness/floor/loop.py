"""The agent loop: stream a turn, run its tool calls, repeat until the model answers in text."""

from __future__ import annotations

import json
from typing import Any

from .model import Model
from .session import Message, Session, now_ms
from .tools import TOOLS, run_tool
from .wire import SYSTEM_PROMPT, to_wire

Record = dict[str, Any]


class Agent:
    """The loop: stream a turn, run its tool calls, repeat until the model answers in text."""

    def __init__(self, model: Model, tools: list[str], session: Session, emit: Any) -> None:
        """`emit(record)` receives each event (RPC); None in print mode, which shows no events."""
        import httpx

        self.model, self.session = model, session
        self.emit = emit or (lambda record: None)
        self.live = emit is not None  # a partial message is only built for a reader
        self.tools = [TOOLS[name] for name in tools]
        self.context: list[Message] = []
        self.client = httpx.AsyncClient(timeout=None)
        self.headers = {"Authorization": f"Bearer {model.key}",
                        "Content-Type": "application/json"}  # fmt: skip

    def add(self, message: Message) -> None:
        """Append a message to the context and the session; announce it."""
        self.context.append(message)
        self.session.append(message)
        self.emit({"type": "message_start", "message": message})
        self.emit({"type": "message_end", "message": message})

    async def prompt(self, text: str) -> list[Message]:
        """Run one prompt to its end; the new messages."""
        start = len(self.context)
        self.emit({"type": "agent_start"})
        self.add({"role": "user", "content": [{"type": "text", "text": text}],
                  "timestamp": now_ms()})  # fmt: skip
        while True:
            self.emit({"type": "turn_start"})
            message = await self.stream()
            self.context.append(message)
            self.session.append(message)
            self.emit({"type": "message_end", "message": message})
            results = []
            for call in message["content"]:
                if call["type"] != "toolCall":
                    continue
                self.emit({"type": "tool_execution_start", "toolCallId": call["id"],
                           "toolName": call["name"], "args": call["arguments"]})  # fmt: skip
                output, failed = run_tool(call["name"], call["arguments"])
                content = [{"type": "text", "text": output}]
                self.emit({"type": "tool_execution_end", "toolCallId": call["id"],
                           "toolName": call["name"], "result": {"content": content},
                           "isError": failed})  # fmt: skip
                result = {"role": "toolResult", "toolCallId": call["id"],
                          "toolName": call["name"], "content": content, "isError": failed,
                          "timestamp": now_ms()}  # fmt: skip
                self.add(result)
                results.append(result)
            self.emit({"type": "turn_end", "message": message, "toolResults": results})
            if not results:
                break
        messages = self.context[start:]
        self.emit({"type": "agent_end", "messages": messages})
        return messages

    async def stream(self) -> Message:
        """One streamed request: the assistant message it answers with."""
        messages = [{"role": "system", "content": SYSTEM_PROMPT}]
        messages += [to_wire(m) for m in self.context]
        body = {"model": self.model.id, "messages": messages, "stream": True,
                "stream_options": {"include_usage": True}, "tools": self.tools}  # fmt: skip
        message: Message = {"role": "assistant", "content": [], "api": "openai-completions",
                            "provider": self.model.provider, "model": self.model.id,
                            "usage": {}, "stopReason": "stop", "timestamp": now_ms()}  # fmt: skip
        self.emit({"type": "message_start", "message": message})
        text = {"type": "text", "text": ""}  # the text block, in the message once text comes
        parts: list[str] = []  # the text so far: joined per record, or once at the end
        calls: dict[int, dict[str, Any]] = {}
        request = self.client.build_request(
            "POST", self.model.url, content=json.dumps(body).encode(), headers=self.headers
        )
        response = await self.client.send(request, stream=True)
        try:
            if response.status_code != 200:
                raise RuntimeError(f"HTTP {response.status_code}: {await response.aread()!r}")
            pending = b""
            async for chunk in response.aiter_bytes():
                events = (pending + chunk).split(b"\n\n")
                pending = events.pop()
                for event in events:
                    data = event.removeprefix(b"data: ")
                    if data == b"[DONE]":
                        continue
                    parsed = json.loads(data)
                    if parsed.get("usage"):
                        message["usage"] = parsed["usage"]
                    event_kind: Record = {"type": "delta"}
                    for choice in parsed.get("choices", ()):
                        delta = choice.get("delta", {})
                        if delta.get("content"):
                            if not parts:
                                message["content"].append(text)
                            parts.append(delta["content"])
                            event_kind = {"type": "text_delta", "delta": delta["content"]}
                        for part in delta.get("tool_calls", ()):
                            call = calls.setdefault(part["index"], {"arguments": ""})
                            function = part.get("function", {})
                            if part.get("id"):
                                call["id"], call["name"] = part["id"], function.get("name")
                            call["arguments"] += function.get("arguments", "")
                        if choice.get("finish_reason") == "tool_calls":
                            message["stopReason"] = "toolUse"
                    if self.live:
                        text["text"] = "".join(parts)
                        self.emit(
                            {
                                "type": "message_update",
                                "message": message,
                                "assistantMessageEvent": event_kind,
                            }
                        )
        finally:
            await response.aclose()
        text["text"] = "".join(parts)
        for call in calls.values():
            message["content"].append(
                {
                    "type": "toolCall",
                    "id": call["id"],
                    "name": call["name"],
                    "arguments": json.loads(call["arguments"] or "{}"),
                }
            )
        return message  # fmt: skip
