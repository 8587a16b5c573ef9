"""`pi --mode json -p` and `pi --mode rpc` streaming a long reply in many small deltas: every
`message_update` record is strict JSON and its partial message holds every delta so far, the
record's own included (pi's records hold at least that)."""

from __future__ import annotations

import json
import random
import subprocess
from typing import Any

from pi_core.testing import FakeResponse, console_script
from tests.cli.conftest import Cli
from tests.cli.rpc_script import RpcProcess

# escaped lengths differ from raw ones: quotes, backslashes, control characters, multi-byte UTF-8
ALPHABET = 'abc xyz 0123 "q" \\ / \n \t \r \x00 \x01 \x1f \x7f é € 😀 \u2028 \u2029 ..'


def deltas(total: int, chooser: random.Random) -> list[str]:
    """Deltas of 1 to 50 characters, now and then a long one, `total` characters in all."""
    out: list[str] = []
    length = 0
    while length < total:
        size = chooser.randint(500, 2000) if chooser.random() < 0.01 else chooser.randint(1, 50)
        piece = "".join(chooser.choice(ALPHABET) for _ in range(size))
        out.append(piece)
        length += size
    return out


def reply(reasoning: list[str], text: list[str], chooser: random.Random) -> FakeResponse:
    """A Chat Completions stream of these deltas, its bytes (UTF-8, not ASCII-escaped) cut into
    chunks of random sizes: chunk boundaries fall inside events and inside characters."""

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        choice = {"index": 0, "delta": delta, "finish_reason": finish}
        return {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 0,
                "model": "fake-model", "choices": [choice]}  # fmt: skip

    events: list[Any] = [chunk({"role": "assistant", "content": ""})]
    events += [chunk({"reasoning_content": piece}) for piece in reasoning]
    events += [chunk({"content": piece}) for piece in text]
    events += [chunk({}, "stop"), "[DONE]"]
    body = b"".join(
        b"data: " + (event if isinstance(event, str) else json.dumps(event, ensure_ascii=False))
        .encode() + b"\n\n"
        for event in events
    )  # fmt: skip
    chunks = []
    while body:
        size = chooser.randint(1, 3000)
        chunks.append(body[:size])
        body = body[size:]
    return FakeResponse(chunks=chunks)


def check_updates(lines: list[bytes], reasoning: list[str], text: list[str]) -> int:
    """Check every `message_update` record against the deltas sent (each text and thinking block
    of its message and of its event's partial holds that block's deltas so far; a block's start
    event may show its first delta already: the provider builds both from one SSE event). pi's
    records never lack a delta either, but may show later ones (its stream runs ahead of its
    writer); ours hold exactly the deltas so far. Return how many deltas there were."""
    sent = {"thinking_delta": iter(reasoning), "text_delta": iter(text)}
    so_far: dict[int, str] = {}
    deltas = 0
    for number, line in enumerate(lines):
        record = json.loads(line)  # strict JSON, one record per LF-terminated line
        if record["type"] != "message_update":
            continue
        event = record["assistantMessageEvent"]
        if event["type"] in sent:
            delta = next(sent[event["type"]])
            assert event["delta"] == delta, f"line {number}"
            so_far[event["contentIndex"]] = so_far.get(event["contentIndex"], "") + delta
            deltas += 1
        assert event["partial"] == record["message"], f"line {number}"
        for index, block in enumerate(record["message"]["content"]):
            field = {"text": "text", "thinking": "thinking"}.get(block["type"])
            starting = event["type"].endswith("_start") and index == event["contentIndex"]
            if field is not None and not starting:
                where = f"line {number} ({event['type']}), block {index}"
                assert block[field] == so_far.get(index, ""), where
    assert [next(rest, None) for rest in sent.values()] == [None, None]  # every delta came
    return deltas


def scripted(cli: Cli, seed: int) -> tuple[list[str], list[str]]:
    """Queue a reply of 2,000 characters of reasoning and 20,000 of text (past the 16 KiB the
    builder joins at every delta); return its deltas."""
    chooser = random.Random(seed)
    reasoning, text = deltas(2_000, chooser), deltas(20_000, chooser)
    cli.server.queue(reply(reasoning, text, chooser))
    return reasoning, text


def test_json_mode_records_hold_every_delta_so_far(cli: Cli) -> None:
    reasoning, text = scripted(cli, seed=1)
    done = subprocess.run(
        [console_script("pi"), "--mode", "json", "-p", "write a lot"],
        cwd=cli.cwd, env=cli.env, capture_output=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert done.stdout.endswith(b"\n")
    lines = done.stdout[:-1].split(b"\n")
    assert check_updates(lines, reasoning, text) == len(reasoning) + len(text)
    ends = [json.loads(line) for line in lines if line.startswith(b'{"type":"message_end"')]
    assert ends[-1]["message"]["content"][1]["text"] == "".join(text)


def test_rpc_mode_records_hold_every_delta_so_far(cli: Cli) -> None:
    reasoning, text = scripted(cli, seed=2)
    process = RpcProcess([console_script("pi"), "--mode", "rpc", "--no-session"], cli.cwd, cli.env)
    lines: list[bytes] = []
    try:
        process.send({"id": "p", "type": "prompt", "message": "write a lot"})
        while not lines or not lines[-1].startswith(b'{"type":"agent_end"'):
            line = process.lines.get(timeout=120)
            assert line is not None, "stdout ended"
            lines.append(line)
    finally:
        process.close()
    assert check_updates(lines, reasoning, text) == len(reasoning) + len(text)


HOOK_PLUGIN = """
from pi_core import hookimpl

so_far = {}


@hookimpl
def message_update(event, ctx):
    streamed = event.assistant_message_event
    if streamed.type != "text_delta":
        return
    index = streamed.content_index
    so_far[index] = so_far.get(index, "") + streamed.delta
    exact = event.message.content[index].text == so_far[index]
    with open("hook.log", "a") as log:
        log.write(f"{len(so_far[index])} {exact}\\n")
"""


def test_a_message_update_hook_sees_every_delta_so_far(cli: Cli) -> None:
    """Text print mode (nothing else reads the partial message): the hook's `event.message`
    holds the event's own delta past 16 KiB too."""
    _, text = scripted(cli, seed=3)
    plugin = cli.cwd / "watch.py"
    plugin.write_text(HOOK_PLUGIN)
    done = subprocess.run(
        [console_script("pi"), "-e", str(plugin), "-p", "write a lot"],
        cwd=cli.cwd, env=cli.env, capture_output=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    seen = [line.split() for line in (cli.cwd / "hook.log").read_text().splitlines()]
    assert len(seen) == len(text)
    assert int(seen[-1][0]) == len("".join(text)) > 16 * 1024
    assert [length for length, exact in seen if exact != "True"] == []
