"""Random and structured garbage for `pi --mode rpc`: the reliability tests send a few hundred
lines, `benchmarks/rpc_fuzz.py` many thousands."""

from __future__ import annotations

import json
import random
from typing import Any


def garbage_lines(seed: int, count: int) -> list[tuple[bytes, str | None]]:
    """Random and structured garbage: (line, the id a response must carry or None)."""
    rng = random.Random(seed)
    commands = [
        "prompt", "get_state", "set_model", "set_thinking_level", "bash", "fork",
        "switch_session", "set_session_name", "compact", "get_messages", "frobnicate",
        "export_html", "navigate_tree", "steer", "abort_bash", "get_fork_messages",
    ]  # fmt: skip
    values: list[Any] = [
        None, True, 0, -1, 1e308, "", "x" * 300, [], {}, [1, [2, [3]]],
        {"a": {"b": None}}, "\u2028", "\ud83d\ude00", "../../etc/passwd",
    ]  # fmt: skip
    fields = ["message", "provider", "modelId", "level", "command", "entryId", "sessionPath",
              "name", "images", "mode", "enabled", "customInstructions", "targetId"]  # fmt: skip
    lines: list[tuple[bytes, str | None]] = []
    for index in range(count):
        kind = rng.randrange(6)
        request_id = f"g{index}"
        if kind == 0:  # random bytes
            lines.append((bytes(rng.randrange(1, 256) for _ in range(rng.randrange(1, 200))), None))
        elif kind == 1:  # truncated JSON
            text = json.dumps({"id": request_id, "type": rng.choice(commands)})
            lines.append((text[: rng.randrange(1, len(text))].encode(), None))
        elif kind == 2:  # not an object
            lines.append((json.dumps(rng.choice(values)).encode(), None))
        else:  # a command with wrong or random fields (nothing that would call the model)
            command: dict[str, Any] = {"id": request_id, "type": rng.choice(commands)}
            if command["type"] in {"prompt", "steer"}:
                command["type"] = "get_state"
            for name in rng.sample(fields, rng.randrange(0, 4)):
                command[name] = rng.choice(values)
            if command["type"] == "bash":
                command["command"] = "true"
            lines.append((json.dumps(command).encode(), request_id))
    return [(line.replace(b"\n", b" "), rid) for line, rid in lines]
