"""What building and encoding one request body costs as the history grows, for each wire format.

    python benchmarks/request_bodies.py [--sizes 10,400,1200] [--runs 30]

A session of prompts, each with three `read` calls and their results, is sent request after
request (the same message objects each time, as the agent does); the figure is the median time of
`build_payload` + `encode_payload` for the request at N messages. Ours only: pi builds its bodies
inside its SDK clients, which this cannot time apart from the network. The target (issue 18) is a
cost that stays flat in the history's length.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from pi_plugin_anthropic import convert as anthropic_convert
from pi_plugin_anthropic import transport as anthropic_transport
from pi_plugin_openai import convert as completions_convert
from pi_plugin_openai import responses_convert
from pi_plugin_openai import transport as openai_transport

from pi_core.ai.model import Model
from pi_core.ai.protocol import LLMContext, StreamOptions
from pi_core.messages import AssistantMessage, TextContent, ToolCall, ToolResultMessage, UserMessage
from pi_core.providers import EncodedParts

Body = Callable[[Model, LLMContext], bytes]


def _completions(model: Model, context: LLMContext) -> bytes:
    parts = EncodedParts()
    payload = completions_convert.build_payload(model, context, StreamOptions(), parts)
    return openai_transport.encode_payload("chat/completions", payload, parts)


def _responses(model: Model, context: LLMContext) -> bytes:
    parts = EncodedParts()
    payload = responses_convert.build_payload(model, context, StreamOptions(), parts)
    return openai_transport.encode_payload("responses", payload, parts)


def _anthropic(model: Model, context: LLMContext) -> bytes:
    parts = EncodedParts()
    payload = anthropic_convert.build_payload(model, context, StreamOptions(), parts)
    return anthropic_transport.encode_payload(payload, parts)


FORMATS: dict[str, tuple[str, Body]] = {
    "Chat Completions": ("openai-completions", _completions),
    "Responses": ("openai-responses", _responses),
    "Anthropic Messages": ("anthropic-messages", _anthropic),
}


def history(api: str, prompts: int) -> list[Any]:
    """`prompts` prompts of three read calls each (tool call, 600-byte result), then an answer."""
    own = {"api": api, "provider": "bench", "model": "m"}
    messages: list[Any] = []
    for prompt in range(prompts):
        messages.append(UserMessage(content=f"Look around src/ ({prompt})"))
        for call in range(3):
            call_id = f"call_{prompt}_{call}"
            arguments = {"path": f"src/module{call}.py"}
            messages.append(
                AssistantMessage(
                    **own,
                    content=[ToolCall(id=call_id, name="read", arguments=arguments)],
                    stop_reason="toolUse",
                )
            )
            text = "def f():\n    return 1\n\n" * 25
            messages.append(
                ToolResultMessage(
                    tool_call_id=call_id, tool_name="read", content=[TextContent(text=text)]
                )
            )
        messages.append(AssistantMessage(**own, content=[TextContent(text="Done.")]))
    return messages


def cost_at(body: Body, model: Model, messages: list[Any], size: int, runs: int) -> float:
    """Median seconds for the request at `size` messages, the requests before it already sent."""
    context = LLMContext(system_prompt="You are a coding agent.", messages=messages[: size - 1])
    body(model, context)  # the previous request: what the agent sent just before
    times = []
    for _ in range(runs):
        context = LLMContext(system_prompt="You are a coding agent.", messages=messages[:size])
        started = time.perf_counter()
        body(model, context)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    """Print the cost per request body at each history size, for each wire format."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,400,1200")
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    print(f"{'format':<20}" + "".join(f"{f'{size} msgs':>12}" for size in sizes))
    for name, (api, body) in FORMATS.items():
        model = Model(id="m", api=api, provider="bench", input=["text"])
        messages = history(api, max(sizes) // 8 + 1)
        costs = [cost_at(body, model, messages, size, args.runs) for size in sizes]
        print(f"{name:<20}" + "".join(f"{cost * 1000:>9.2f} ms" for cost in costs))


if __name__ == "__main__":
    main()
