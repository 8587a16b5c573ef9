"""The floor (benchmarks/floor.py) does each scenario's work, and run.py reports it."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pi_core.testing import FakeLLMServer, chat_models_json, chat_stream

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
FLOOR = BENCHMARKS / "floor.py"


def workspace(tmp_path: Path, base_url: str) -> tuple[Path, dict[str, str]]:
    """A project with notes.txt and an agent dir pointing at the fake server; the env."""
    agent, project = tmp_path / "floor-agent", tmp_path / "project"
    agent.mkdir()
    project.mkdir()
    (agent / "models.json").write_text(json.dumps(chat_models_json(base_url)))
    (project / "notes.txt").write_text("floor-note-42\n")
    env = dict(os.environ, HOME=str(tmp_path), PI_CODING_AGENT_DIR=str(agent))
    return project, env


def test_print_mode_streams_two_turns_runs_read_and_writes_the_session(tmp_path: Path) -> None:
    with FakeLLMServer() as server:
        project, env = workspace(tmp_path, server.base_url)
        server.queue(
            chat_stream(tool_calls=[("read", {"path": "notes.txt"})]), chat_stream("Noted.")
        )
        done = subprocess.run(
            [sys.executable, str(FLOOR), "-p", "Read notes.txt", "--model", "fake/fake-model"],
            cwd=project, env=env, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        requests = list(server.requests)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Noted.\n"
    assert [request.path for request in requests] == ["/chat/completions"] * 2
    second = json.loads(requests[1].body)
    assert second["stream"] is True
    assert {"role": "tool", "tool_call_id": second["messages"][2]["tool_calls"][0]["id"],
            "content": "floor-note-42\n"} in second["messages"]  # fmt: skip
    [session] = (tmp_path / "floor-agent" / "sessions").rglob("*.jsonl")
    lines = [json.loads(line) for line in session.read_text().splitlines()]
    assert lines[0]["type"] == "session" and lines[0]["cwd"] == str(project)
    roles = [line["message"]["role"] for line in lines[1:]]
    assert roles == ["user", "assistant", "toolResult", "assistant"]
    parents = [line["parentId"] for line in lines[1:]]
    assert parents == [None, *(line["id"] for line in lines[1:-1])]


def test_rpc_mode_answers_commands_and_ends_the_prompt_with_agent_end(tmp_path: Path) -> None:
    with FakeLLMServer() as server:
        project, env = workspace(tmp_path, server.base_url)
        server.queue(chat_stream(tool_calls=[("ls", {"path": "."})]), chat_stream("Listed."))
        commands = [
            {"id": "1", "type": "get_state"},
            {"id": "2", "type": "prompt", "message": "List the folder"},
        ]
        done = subprocess.run(
            [sys.executable, str(FLOOR), "--mode", "rpc", "--model", "fake/fake-model",
             "--tools", "read,ls"],
            input="".join(json.dumps(c) + "\n" for c in commands),
            cwd=project, env=env, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    responses = [r for r in records if r["type"] == "response"]
    assert [(r["id"], r["command"], r["success"]) for r in responses] == [
        ("1", "get_state", True),
        ("2", "prompt", True),
    ]
    [end] = [r for r in records if r["type"] == "agent_end"]
    [result] = [m for m in end["messages"] if m["role"] == "toolResult"]
    assert result["content"][0]["text"] == "notes.txt" and not result["isError"]
    assert end["messages"][-1]["content"] == [{"type": "text", "text": "Listed."}]
    kinds = [r["type"] for r in records]
    assert kinds.index("tool_execution_start") < kinds.index("tool_execution_end")


def test_a_reply_in_many_deltas_is_printed_whole_and_each_rpc_update_holds_the_text_so_far(
    tmp_path: Path,
) -> None:
    reply = "".join(f"part {n}; " for n in range(40))
    with FakeLLMServer() as server:
        project, env = workspace(tmp_path, server.base_url)
        server.queue(chat_stream(reply, piece=7), chat_stream(reply, piece=5))
        printed = subprocess.run(
            [sys.executable, str(FLOOR), "-p", "Talk", "--model", "fake/fake-model"],
            cwd=project, env=env, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        command = {"id": "1", "type": "prompt", "message": "Talk"}
        rpc = subprocess.run(
            [sys.executable, str(FLOOR), "--mode", "rpc", "--model", "fake/fake-model"],
            input=json.dumps(command) + "\n",
            cwd=project, env=env, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    assert printed.returncode == 0 and printed.stdout == reply + "\n", printed.stderr
    assert rpc.returncode == 0, rpc.stderr
    updates = [r for r in map(json.loads, rpc.stdout.splitlines()) if r["type"] == "message_update"]
    deltas = [
        u["assistantMessageEvent"]["delta"]
        for u in updates
        if "delta" in u["assistantMessageEvent"]
    ]
    assert "".join(deltas) == reply and len(deltas) == len(range(0, len(reply), 5))
    so_far = ""
    for update in updates:
        so_far += update["assistantMessageEvent"].get("delta", "")
        texts = [b["text"] for b in update["message"]["content"] if b["type"] == "text"]
        assert texts == ([so_far] if so_far else [])


def test_export_writes_a_self_contained_page_with_every_entry(tmp_path: Path) -> None:
    session = tmp_path / "s.jsonl"
    entries = [{"type": "session", "version": 3, "id": "s", "cwd": "/w"}] + [
        {"type": "message", "id": f"{i:08x}", "parentId": None,
         "message": {"role": "user", "content": f"hello </script> {i}"}}
        for i in range(50)
    ]  # fmt: skip
    session.write_text("".join(json.dumps(e) + "\n" for e in entries))
    page = tmp_path / "out.html"
    subprocess.run([sys.executable, str(FLOOR), "--export", str(session), str(page)], check=True)
    html = page.read_text()
    assert html.count("hello <\\/script>") == 50
    data = html.split("<script id=d type=application/json>")[1].split("</script>")[0]
    assert json.loads(data.replace("<\\/", "</")) == entries
    assert "<link" not in html and " src=" not in html and "unsafe-inline" not in html
    script = html.rsplit("<script>", 1)[1].split("</script>")[0]
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    assert f"default-src 'none'; script-src 'sha256-{digest}'" in html


def test_export_refuses_a_session_with_a_broken_line(tmp_path: Path) -> None:
    session = tmp_path / "s.jsonl"
    session.write_text('{"type": "session", "version": 3}\n{"type": "mess\n')
    done = subprocess.run(
        [sys.executable, str(FLOOR), "--export", str(session), str(tmp_path / "out.html")],
        capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode != 0


@pytest.mark.slow
def test_measure_reports_the_floor_next_to_ours_and_prints_the_issue_table(
    tmp_path: Path,
) -> None:
    """`floor.py --measure --quick` (run.py's floor groups): every targeted row has a floor."""
    out = tmp_path / "results.json"
    done = subprocess.run(
        [sys.executable, str(FLOOR), "--measure", "--quick", "--json", str(out)],
        capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    rows = json.loads(out.read_text())["rows"]
    targeted = {row["target"]: row for row in rows if row["target"] and row["target"] != "memory"}
    expected = {"print", "rpc-tools", "rpc-session", "open", "export"}
    if "repl: tmux is not installed" not in done.stdout:
        expected.add("repl")
    assert set(targeted) == expected
    for row in targeted.values():
        assert row["ours"] > 0 and row["floor"] > 0 and row["floor_ratio"] > 0, row
    memory = [row for row in rows if row["target"] == "memory"]
    assert len(memory) >= 4 and all(row["floor"] > 0 for row in memory)
    assert "| figure | target | pi | floor | ours | pi ÷ ours | floor ÷ ours | met |" in done.stdout
