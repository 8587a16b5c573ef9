"""Print mode (`-p`) and RPC mode (`--mode rpc`: JSONL on stdin and stdout)."""

from __future__ import annotations

import json
import os
import sys

from . import option
from .loop import Agent, Record
from .model import Model
from .session import Session, open_context
from .tools import DEFAULT_TOOLS
from .wire import text_of


async def print_mode(argv: list[str]) -> int:
    """`-p PROMPT`: run the prompt, print the final answer's text."""
    model = Model(option(argv, "--model"))
    session = Session(model.agent_dir, os.getcwd(), "--no-session" not in argv)
    agent = Agent(model, list(DEFAULT_TOOLS), session, None)
    messages = await agent.prompt(option(argv, "-p") or "")
    sys.stdout.write(text_of(messages[-1]["content"]) + "\n")
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
