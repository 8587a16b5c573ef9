"""Session files for the export tests: an ordinary one with every entry kind, and a hostile one."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

# A 1x1 PNG.
PNG = base64.b64encode(
    bytes.fromhex(
        "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
        "0000000d49444154789c6360f8cfc0f01f0005000201a4a7f8a50000000049454e44ae426082"
    )
).decode()


def _stamp(second: int) -> str:
    return f"2026-01-02T03:04:{second:02d}.000Z"


def entry(
    kind: str, entry_id: str, parent: str | None, second: int, **fields: Any
) -> dict[str, Any]:
    """A session entry."""
    return {"type": kind, "id": entry_id, "parentId": parent, "timestamp": _stamp(second), **fields}


def message(entry_id: str, parent: str | None, second: int, **fields: Any) -> dict[str, Any]:
    """A message entry."""
    return entry("message", entry_id, parent, second, message={"timestamp": 0, **fields})


def assistant(
    entry_id: str, parent: str, second: int, content: list[Any], **extra: Any
) -> dict[str, Any]:
    """An assistant message with usage and cost."""
    usage = {
        "input": 100,
        "output": 20,
        "cacheRead": 5,
        "cacheWrite": 1,
        "totalTokens": 126,
        "cost": {"input": 0.01, "output": 0.02, "cacheRead": 0, "cacheWrite": 0, "total": 0.03},
    }
    fields = {
        "role": "assistant",
        "content": content,
        "api": "openai-completions",
        "provider": "fake",
        "model": "fake-model",
        "usage": usage,
        "stopReason": "stop",
    }
    return message(entry_id, parent, second, **{**fields, **extra})


def header(session_id: str = "sess-1") -> dict[str, Any]:
    """A session header."""
    return {
        "type": "session",
        "version": 3,
        "id": session_id,
        "timestamp": _stamp(0),
        "cwd": "/work",
    }


def ordinary_session() -> list[dict[str, Any]]:
    """Two branches, tool calls of every built-in renderer, an image, compaction, a summary."""
    diff = "--- a/app.py\n+++ b/app.py\n-old line\n+new line\n context"
    read_output = "\n".join(f"line {i} = {i}" for i in range(1, 31))
    return [
        header(),
        entry("model_change", "m1", None, 1, provider="fake", modelId="fake-model"),
        message(
            "u1",
            "m1",
            2,
            role="user",
            content=[
                {"type": "text", "text": "Please **fix** the bug in `app.py`"},
                {"type": "image", "mimeType": "image/png", "data": PNG},
            ],
        ),
        assistant(
            "a1",
            "u1",
            3,
            [
                {"type": "thinking", "thinking": "Let me look at the file first."},
                {
                    "type": "text",
                    "text": "Reading it:\n\n```python\ndef main():\n    return 42\n```",
                },
                {
                    "type": "toolCall",
                    "id": "c1",
                    "name": "read",
                    "arguments": {"path": "/work/app.py"},
                },
                {
                    "type": "toolCall",
                    "id": "c2",
                    "name": "bash",
                    "arguments": {"command": "ls -la"},
                },
                {
                    "type": "toolCall",
                    "id": "c3",
                    "name": "edit",
                    "arguments": {
                        "path": "/work/app.py",
                        "edits": [{"oldText": "old line", "newText": "new line"}],
                    },
                },
            ],
            stopReason="toolUse",
        ),
        message(
            "r1",
            "a1",
            4,
            role="toolResult",
            toolCallId="c1",
            toolName="read",
            content=[{"type": "text", "text": read_output}],
            isError=False,
        ),
        message(
            "r2",
            "r1",
            5,
            role="toolResult",
            toolCallId="c2",
            toolName="bash",
            content=[{"type": "text", "text": "total 8\nBASH-OUTPUT-MARK app.py"}],
            isError=False,
        ),
        message(
            "r3",
            "r2",
            6,
            role="toolResult",
            toolCallId="c3",
            toolName="edit",
            content=[{"type": "text", "text": "Edited"}],
            details={"diff": diff},
            isError=False,
        ),
        assistant("a2", "r3", 7, [{"type": "text", "text": "| col | val |\n|---|---|\n| a | 1 |"}]),
        entry(
            "compaction",
            "k1",
            "a2",
            8,
            summary="## Goal\nFix the bug",
            firstKeptEntryId="a2",
            tokensBefore=12345,
        ),
        message("u2", "k1", 9, role="user", content="Second question on the main branch"),
        assistant("a3", "u2", 10, [{"type": "text", "text": "MAIN-BRANCH-ANSWER"}]),
        # another branch from a1's result, with a branch summary
        entry("branch_summary", "b1", "r3", 11, fromId="a3", summary="Tried the **other** way"),
        message("u3", "b1", 12, role="user", content="SIDE-BRANCH-QUESTION"),
        assistant("a4", "u3", 13, [{"type": "text", "text": "SIDE-BRANCH-ANSWER"}]),
        entry("label", "l1", "a4", 14, targetId="u3", label="side"),
    ]


HOSTILE_ID = 'x"><script>document.body.setAttribute("data-pwned","id")</script>'
PWN = "document.body.setAttribute('data-pwned','1')"


def hostile_session() -> list[dict[str, Any]]:
    """Session fields that try to run script, load from the network or break out of the page."""
    evil_html = f"<script>{PWN}</script><img src=x onerror=\"{PWN}\"><iframe src='https://evil.test'></iframe>"
    links = "\n".join(
        [
            "[a](javascript:alert(1))",
            "[b](JaVaScRiPt:alert(1))",
            "[c](&#106;avascript:alert(1))",
            "<javascript:alert(1)>",
            "[d](data:text/html,<script>alert(1)</script>)",
            "[e](vbscript:msgbox(1))",
            "[f](java\tscript:alert(1))",
            "![g](https://evil.test/track.png)",
            "[ok](https://example.com/page)",
            '<a href="javascript:alert(1)">raw</a>',
        ]
    )
    return [
        {**header("evil</script><script>alert(1)</script>"), "cwd": "</script>"},
        message(HOSTILE_ID, None, 1, role="user", content=evil_html + "\n\n" + links),
        assistant(
            "a1",
            HOSTILE_ID,
            2,
            [
                {"type": "thinking", "thinking": evil_html},
                {
                    "type": "text",
                    "text": "```html\n</script><script>alert(1)</script>\n```\n" + links,
                },
                {
                    "type": "toolCall",
                    "id": "c1",
                    "name": "</script><b>tool</b>",
                    "arguments": {"x": "</script><script>alert(1)</script>"},
                },
                {
                    "type": "toolCall",
                    "id": "c2",
                    "name": "bash",
                    "arguments": {"command": evil_html},
                },
                {"type": "image", "mimeType": "text/html", "data": "PHNjcmlwdD4="},
            ],
            provider="</script>",
            model="<img src=x onerror=alert(1)>",
        ),
        message(
            "r1",
            "a1",
            3,
            role="toolResult",
            toolCallId="c1",
            toolName="</script>",
            content=[
                {"type": "text", "text": evil_html},
                {"type": "image", "mimeType": 'image/png" onerror="alert(1)', "data": PNG},
            ],
            isError=True,
        ),
        message(
            "r2",
            "r1",
            4,
            role="toolResult",
            toolCallId="c2",
            toolName="bash",
            content=[{"type": "text", "text": evil_html}],
            isError=False,
        ),
        entry(
            "label", "l1", "r2", 5, targetId=HOSTILE_ID, label="</script><script>alert(1)</script>"
        ),
        entry(
            "custom_message", "cm1", "l1", 6, customType="<b>t</b>", content=evil_html, display=True
        ),
        entry(
            "compaction",
            "k1",
            "cm1",
            7,
            summary=evil_html + links,
            firstKeptEntryId="cm1",
            tokensBefore="</script>",
        ),
        entry("branch_summary", "b1", "k1", 8, fromId="x", summary=links),
        entry("model_change", "m1", "b1", 9, provider="<script>", modelId="</script>"),
        {
            "type": "message",
            "id": "weird",
            "parentId": "m1",
            "timestamp": 12,
            "message": "not a dict",
        },
        {
            "type": "message",
            "id": "weird2",
            "parentId": "weird",
            "timestamp": None,
            "message": {"role": "assistant", "content": "a string, not a list"},
        },
    ]


def write_session(path: Path, entries: list[dict[str, Any]]) -> Path:
    """Write entries as JSONL."""
    path.write_text("".join(json.dumps(e) + "\n" for e in entries))
    return path
