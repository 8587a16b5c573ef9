"""The Claude profile's tools as the real `pi --claude` sends them: Claude Code's names, schemas
and limits, described in this project's words (no 8-word run shared with Claude Code's text)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

from claude_pi import Pi

from pi_core.testing import chat_stream

BORROWED = Path(__file__).resolve().parents[3] / "tests" / "fixtures" / "borrowed_runs.txt"


def _runs(text: str) -> set[str]:
    words = re.findall(r"[a-z0-9]+", text.lower())
    return {
        hashlib.sha256(" ".join(words[i : i + 8]).encode()).hexdigest()[:16]
        for i in range(len(words) - 7)
    }


def _tools(pi: Pi) -> dict[str, dict[str, Any]]:
    pi.queue(chat_stream("hi"))
    done = pi.run("hello", "--claude")
    assert done.returncode == 0, done.stderr
    return {t["function"]["name"]: t["function"] for t in pi.request(0)["tools"]}


def test_descriptions_state_claudes_facts_in_our_words(pi: Pi) -> None:
    tools = _tools(pi)
    borrowed = set(BORROWED.read_text().split())
    for name, tool in tools.items():
        texts = [tool["description"]]
        texts += [p.get("description", "") for p in tool["parameters"]["properties"].values()]
        assert all(texts), name
        assert [text for text in texts if _runs(text) & borrowed] == [], name
    assert "120000" in tools["Bash"]["description"] and "600000" in tools["Bash"]["description"]
    assert "2000 lines" in tools["Read"]["description"]
    assert "absolute" in tools["Read"]["description"]
    assert "files_with_matches" in tools["Grep"]["description"]
    assert "250" in tools["Grep"]["parameters"]["properties"]["head_limit"]["description"]
    assert "replace_all" in tools["Edit"]["description"]
