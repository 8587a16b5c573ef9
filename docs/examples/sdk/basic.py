"""Prompt a model from Python and print the answer as it streams.

Run: python docs/examples/sdk/basic.py "your question"   (uses your models.json / API keys)
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from pi_core import SessionManager, create_agent_session


async def main(question: str) -> None:
    session = await create_agent_session(
        session=SessionManager.in_memory(),  # keep nothing on disk
        tools=["read", "grep", "find", "ls"],  # read-only tools
    )

    def show(event: Any) -> None:
        if event.type == "message_update" and event.assistant_message_event.type == "text_delta":
            print(event.assistant_message_event.delta, end="", flush=True)
        elif event.type == "tool_execution_start":
            print(f"\n[{event.tool_name} {event.args}]", flush=True)

    session.subscribe(show)
    await session.prompt(question)
    print()
    stats = session.get_session_stats()
    print(f"({stats['tokens']['total']} tokens, ${stats['cost']:.4f})")
    await session.shutdown()


if __name__ == "__main__":
    asyncio.run(main(" ".join(sys.argv[1:]) or "What files are in this folder?"))
