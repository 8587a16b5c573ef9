"""The floor: a minimal agent that does only the work a figure cannot avoid, same CLI as `pi`.

It takes the arguments the harness gives our pi for each scenario (`-p PROMPT --model M`,
`--mode rpc`, `--export IN OUT`, no arguments for the REPL), talks to the same fake server in the
same wire format (Chat Completions, streamed), runs the same tools and writes the same session
JSONL, and nothing else: no plugins, no validation models, no settings beyond models.json.

What it imports, and why that much is unavoidable:
- the interpreter and the standard library modules a run uses (json, os, asyncio for a stream
  that can be aborted while stdin is read);
- httpx (with httpcore, h11, certifi, ssl), the HTTP client our agent streams with: writing an
  HTTP/1.1 and TLS client by hand is not an option an agent takes;
- prompt_toolkit for the REPL's floor only;
- pydantic-core's JSON parser (a dependency of our core) where many lines are parsed (a session's
  open, the export): it parses a session's lines faster than `json`, so the floor uses it there.
Not imported: pydantic, pluggy, click, rich, or any module of pi_core or its plugins.

The harness runs it through a launcher (harness/floor_side.py); it imports nothing from the
harness, so its start-up is its own.
"""

from __future__ import annotations

import gc
import json
import os
import sys
import time
import uuid
from typing import Any

Message = dict[str, Any]
Record = dict[str, Any]

SYSTEM_PROMPT = (
    "You are an expert coding assistant. You help users by reading files, executing commands, "
    "editing code, and writing new files. Available tools: read, bash, edit, write."
)


def _tool(name: str, description: str, properties: dict[str, Any], required: list[str]) -> Any:
    """One tool definition in Chat Completions' format."""
    schema = {"type": "object", "properties": properties, "required": required}
    return {"type": "function", "function": {"name": name, "description": description,
                                             "parameters": schema}}  # fmt: skip


_STR = {"type": "string"}
_INT = {"type": "number"}
TOOLS = {
    "read": _tool("read", "Read a file's contents.",
                  {"path": _STR, "offset": _INT, "limit": _INT}, ["path"]),
    "bash": _tool("bash", "Run a shell command.", {"command": _STR, "timeout": _INT}, ["command"]),
    "edit": _tool("edit", "Replace exact text in a file.",
                  {"path": _STR, "edits": {"type": "array"}}, ["path", "edits"]),
    "write": _tool("write", "Write a file.", {"path": _STR, "content": _STR}, ["path", "content"]),
    "ls": _tool("ls", "List a directory.", {"path": _STR, "limit": _INT}, []),
}  # fmt: skip
DEFAULT_TOOLS = ("read", "bash", "edit", "write")
READ_LINES, READ_BYTES = 2000, 50 * 1024


def now_ms() -> int:
    """Milliseconds since the epoch."""
    return int(time.time() * 1000)


def iso_now() -> str:
    """The current UTC time as pi writes it in sessions."""
    return time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())


class Model:
    """The model to call: from models.json in the agent dir, as `--model provider/id` names it."""

    def __init__(self, spec: str | None) -> None:
        """Read models.json (and settings.json for the default model)."""
        agent = os.environ.get("PI_CODING_AGENT_DIR") or os.path.expanduser("~/.pi/agent")
        self.agent_dir = agent
        with open(os.path.join(agent, "models.json"), "rb") as handle:
            providers = json.loads(handle.read())["providers"]
        if spec is None:
            with open(os.path.join(agent, "settings.json"), "rb") as handle:
                settings = json.loads(handle.read())
            spec = f"{settings['defaultProvider']}/{settings['defaultModel']}"
        provider, _, model_id = spec.partition("/")
        config = providers[provider]
        self.provider, self.id = provider, model_id
        self.url = config["baseUrl"].rstrip("/") + "/chat/completions"
        self.key = config.get("apiKey", "")


class Session:
    """Session JSONL: a header, then one appended line per entry (none with --no-session)."""

    def __init__(self, agent_dir: str, cwd: str, enabled: bool = True) -> None:
        """Name the file; it is written from the first entry on."""
        self.fd = -1
        self.parent: str | None = None
        self.enabled = enabled
        folder = "--" + cwd.strip("/").replace("/", "-") + "--"
        self.folder = os.path.join(agent_dir, "sessions", folder)
        self.cwd = cwd
        self.path = ""

    def new(self) -> None:
        """Start a new session file (RPC `new_session`)."""
        if self.fd >= 0:
            os.close(self.fd)
        self.fd, self.parent, self.path = -1, None, ""

    def append(self, message: Message) -> None:
        """Append one message entry (creating the file with its header first)."""
        if not self.enabled:
            return
        if self.fd < 0:
            os.makedirs(self.folder, exist_ok=True)
            session_id = str(uuid.uuid4())
            stamp = iso_now().replace(":", "-").replace(".", "-")
            self.path = os.path.join(self.folder, f"{stamp}_{session_id}.jsonl")
            self.fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
            header = {"type": "session", "version": 3, "id": session_id,
                      "timestamp": iso_now(), "cwd": self.cwd}  # fmt: skip
            os.write(self.fd, json.dumps(header).encode() + b"\n")
        entry_id = uuid.uuid4().hex[:8]
        entry = {"type": "message", "id": entry_id, "parentId": self.parent,
                 "timestamp": iso_now(), "message": message}  # fmt: skip
        os.write(self.fd, json.dumps(entry).encode() + b"\n")
        self.parent = entry_id


def parse_lines(data: bytes) -> list[Any]:
    """Every non-empty line of JSONL, parsed with the fastest parser at hand, the GC paused."""
    try:
        from pydantic_core import from_json
    except ImportError:
        return [json.loads(line) for line in data.split(b"\n") if line]
    gc.disable()
    try:
        return [from_json(line, cache_strings="keys") for line in data.split(b"\n") if line]
    finally:
        gc.enable()


def open_context(path: str) -> list[Message]:
    """Read and parse a session file and build its context: the messages on the current branch."""
    with open(path, "rb") as handle:
        entries = parse_lines(handle.read())[1:]
    if entries and "id" not in entries[-1]:  # version 1: no tree, the file order is the branch
        return [e["message"] for e in entries if e.get("type") == "message"]
    by_id = {entry["id"]: entry for entry in entries}
    branch = []
    entry = entries[-1] if entries else None
    while entry is not None:
        branch.append(entry)
        entry = by_id.get(entry.get("parentId"))
    return [e["message"] for e in reversed(branch) if e.get("type") == "message"]


def _text(content: Any) -> str:
    """The text blocks of a message's content (a plain string passes through)."""
    if isinstance(content, str):
        return content
    return "".join(block.get("text", "") for block in content if block.get("type") == "text")


def to_wire(message: Message) -> Message:
    """One message in Chat Completions' format."""
    role = message["role"]
    if role == "assistant":
        wire: Message = {"role": "assistant", "content": _text(message["content"]) or None}
        calls = [block for block in message["content"] if block.get("type") == "toolCall"]
        if calls:
            wire["tool_calls"] = [
                {"id": c["id"], "type": "function",
                 "function": {"name": c["name"], "arguments": json.dumps(c["arguments"])}}
                for c in calls
            ]  # fmt: skip
        return wire
    if role == "toolResult":
        return {"role": "tool", "tool_call_id": message["toolCallId"],
                "content": _text(message["content"])}  # fmt: skip
    return {"role": "user", "content": _text(message.get("content", ""))}


def run_tool(name: str, arguments: dict[str, Any]) -> tuple[str, bool]:
    """Run `read` or `ls` (the tools the scenarios call): the result's text and an error flag."""
    try:
        if name == "read":
            with open(arguments["path"], "rb") as handle:
                data = handle.read(READ_BYTES + 1)
            text = data[:READ_BYTES].decode("utf-8", "replace")
            lines = text.split("\n")
            if len(lines) > READ_LINES or len(data) > READ_BYTES:
                text = "\n".join(lines[:READ_LINES]) + "\n\n[truncated]"
            return text, False
        if name == "ls":
            path = arguments.get("path") or "."
            names = sorted(os.listdir(path), key=str.lower)
            shown = [n + "/" if os.path.isdir(os.path.join(path, n)) else n for n in names]
            return "\n".join(shown), False
        return f"Tool {name} not found", True
    except OSError as error:
        return str(error), True


class Agent:
    """The loop: stream a turn, run its tool calls, repeat until the model answers in text."""

    def __init__(self, model: Model, tools: list[str], session: Session, emit: Any) -> None:
        """`emit(record)` receives each event (RPC) or is a no-op (print mode)."""
        import httpx

        self.model, self.session, self.emit = model, session, emit
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
        text: list[str] = []
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
                    for choice in parsed.get("choices", ()):
                        delta = choice.get("delta", {})
                        if delta.get("content"):
                            text.append(delta["content"])
                        for part in delta.get("tool_calls", ()):
                            call = calls.setdefault(part["index"], {"arguments": ""})
                            function = part.get("function", {})
                            if part.get("id"):
                                call["id"], call["name"] = part["id"], function.get("name")
                            call["arguments"] += function.get("arguments", "")
                        if choice.get("finish_reason") == "tool_calls":
                            message["stopReason"] = "toolUse"
                    self.emit(
                        {
                            "type": "message_update",
                            "message": message,
                            "assistantMessageEvent": {"type": "delta", "raw": parsed},
                        }
                    )
        finally:
            await response.aclose()
        if text:
            message["content"].append({"type": "text", "text": "".join(text)})
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


def option(argv: list[str], name: str) -> str | None:
    """The value after `name` in argv, if given."""
    return argv[argv.index(name) + 1] if name in argv else None


async def print_mode(argv: list[str]) -> int:
    """`-p PROMPT`: run the prompt, print the final answer's text."""
    model = Model(option(argv, "--model"))
    session = Session(model.agent_dir, os.getcwd(), "--no-session" not in argv)
    agent = Agent(model, list(DEFAULT_TOOLS), session, lambda record: None)
    messages = await agent.prompt(option(argv, "-p") or "")
    sys.stdout.write(_text(messages[-1]["content"]) + "\n")
    await agent.client.aclose()
    return 0


async def rpc_mode(argv: list[str]) -> int:
    """`--mode rpc`: JSONL commands on stdin, responses and events on stdout."""
    import asyncio

    model = Model(option(argv, "--model"))
    tools = (option(argv, "--tools") or ",".join(DEFAULT_TOOLS)).split(",")
    session = Session(model.agent_dir, os.getcwd())
    out = sys.stdout.buffer

    def emit(record: Record) -> None:
        """One JSONL record to stdout (flushed when the loop waits)."""
        out.write(json.dumps(record).encode() + b"\n")

    agent = Agent(model, tools, session, emit)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=1 << 26)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := await reader.readline():
        command = json.loads(line)
        kind = command["type"]
        reply: Record = {"type": "response", "command": kind, "success": True}
        if "id" in command:
            reply["id"] = command["id"]
        if kind == "new_session":
            session.new()
            agent.context = []
        elif kind == "switch_session":
            session.new()
            agent.context = open_context(command["sessionPath"])
        elif kind == "get_state":
            reply["data"] = {"model": {"provider": model.provider, "id": model.id}}
        emit(reply)
        out.flush()
        if kind == "prompt":
            await agent.prompt(command["message"])
            out.flush()
    await agent.client.aclose()
    return 0


def export(source: str, target: str) -> int:
    """`--export IN OUT`: parse the session and write a self-contained page that carries it."""
    with open(source, "rb") as handle:
        entries = parse_lines(handle.read())
    data = json.dumps(entries, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    script = (
        "const d=JSON.parse(document.getElementById('d').textContent);"
        "for(const e of d){const p=document.createElement('pre');"
        "p.textContent=JSON.stringify(e.message||e);document.body.append(p)}"
    )
    page = (
        "<!DOCTYPE html><html><head><meta charset=utf-8><meta http-equiv=Content-Security-Policy "
        "content=\"default-src 'none'; script-src 'unsafe-inline'\"><title>Session</title></head>"
        f"<body><script id=d type=application/json>{data}</script><script>{script}</script>"
        "</body></html>"
    )
    with open(target, "wb") as handle:
        handle.write(page.encode())
    return 0


def repl() -> int:
    """No arguments: an editor between two rules and a footer naming the model."""
    from prompt_toolkit.application import Application
    from prompt_toolkit.buffer import Buffer
    from prompt_toolkit.key_binding import KeyBindings
    from prompt_toolkit.layout import HSplit, Layout, Window
    from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl

    model = Model(None)
    keys = KeyBindings()

    @keys.add("c-c")
    @keys.add("c-d")
    def _quit(event: Any) -> None:
        event.app.exit()

    editor = Buffer(multiline=True)
    footer = f"{os.getcwd()}  {model.id}"
    layout = HSplit([
        Window(char="─", height=1),
        Window(BufferControl(editor), height=1, wrap_lines=True),
        Window(char="─", height=1),
        Window(FormattedTextControl(footer), height=1),
    ])  # fmt: skip
    Application(layout=Layout(layout, focused_element=editor), key_bindings=keys).run()
    return 0


def main(argv: list[str] | None = None) -> int:
    """Pick the mode from the arguments, as `pi` does."""
    args = sys.argv[1:] if argv is None else argv
    if "--export" in args:
        position = args.index("--export")
        return export(args[position + 1], args[position + 2])
    if not args:
        return repl()
    import asyncio

    runner = rpc_mode if option(args, "--mode") == "rpc" else print_mode
    return asyncio.run(runner(args))


if __name__ == "__main__":
    sys.exit(main())
