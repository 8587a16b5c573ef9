"""`pi --export` and RPC `export_html` through the real command."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pi_core.testing import chat_stream, console_script
from tests.cli.conftest import Cli
from tests.cli.rpc_script import RpcProcess
from tests.export.page_checks import templates, tree_data
from tests.export.sessions import ordinary_session, write_session


def test_export_writes_pi_s_default_name_in_the_cwd(cli: Cli) -> None:
    source = write_session(cli.cwd / "2026_abc.jsonl", ordinary_session())
    done = cli.run("--export", str(source))
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Exported to: pi-session-2026_abc.html\n"
    page = (cli.cwd / "pi-session-2026_abc.html").read_text()
    assert "SIDE-BRANCH-ANSWER" in templates(page)["a4"]


def test_export_takes_the_output_from_the_first_message(cli: Cli) -> None:
    source = write_session(cli.cwd / "s.jsonl", ordinary_session())
    (cli.cwd / "out").mkdir()
    done = cli.run("--export", str(source), "out/page.html")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Exported to: out/page.html\n"
    assert tree_data((cli.cwd / "out" / "page.html").read_text())["leafId"] == "l1"


def test_export_warns_about_a_torn_line_and_fails_clearly_on_bad_paths(cli: Cli) -> None:
    lines = [json.dumps(e) for e in ordinary_session()[:3]]
    torn = cli.cwd / "torn.jsonl"
    torn.write_text("\n".join(lines) + "\n" + lines[2][:30])
    done = cli.run("--export", str(torn), "torn.html")
    assert done.returncode == 0
    assert "Warning:" in done.stderr and "incomplete last line" in done.stderr
    assert set(templates((cli.cwd / "torn.html").read_text())) == {"m1", "u1"}

    done = cli.run("--export", str(torn), "no/such/folder/x.html")
    assert done.returncode == 1 and done.stdout == ""
    assert "Error: Cannot write no/such/folder/x.html: No such file or directory" in done.stderr
    done = cli.run("--export", "missing.jsonl")
    assert done.returncode == 1 and "Error: File not found: missing.jsonl" in done.stderr
    (cli.cwd / "empty.jsonl").write_text("")
    done = cli.run("--export", "empty.jsonl")
    assert done.returncode == 1 and "Error: Nothing to export: empty.jsonl is empty" in done.stderr


def rpc_process(cli: Cli, *extra: str) -> RpcProcess:
    pi = console_script("pi")
    return RpcProcess([pi, "--mode", "rpc", *extra], cli.cwd, cli.env)


def response_for(process: RpcProcess, request_id: str) -> dict[str, Any]:
    process.read_until(lambda r: r.get("type") == "response" and r.get("id") == request_id)
    return process.records[-1]


def test_rpc_export_html_writes_the_session_with_prompt_and_tools(cli: Cli) -> None:
    cli.server.queue(chat_stream("RPC-ANSWER"))
    process = rpc_process(cli)
    process.send({"id": "early", "type": "export_html"})
    early = response_for(process, "early")
    assert early["success"] is False and early["command"] == "export_html"
    assert early["error"] == "Nothing to export yet - start a conversation first"
    process.send({"id": "p", "type": "prompt", "message": "hello there"})
    process.read_until(lambda r: r.get("type") == "agent_end")
    process.send({"id": "x", "type": "export_html", "outputPath": "exported.html"})
    reply = response_for(process, "x")
    assert reply["success"] and reply["data"] == {"path": "exported.html"}
    page = (cli.cwd / "exported.html").read_text()
    assert "RPC-ANSWER" in page and "hello there" in page
    assert "System Prompt" in page and "Available Tools" in page and 'tool-item-name">bash' in page
    process.send({"id": "d", "type": "export_html"})
    default = response_for(process, "d")["data"]["path"]
    session_file = cli.sessions()[0]
    assert default == f"pi-session-{session_file.stem}.html" and (cli.cwd / default).is_file()
    process.send({"id": "bad", "type": "export_html", "outputPath": 7})
    assert "wrong type" in response_for(process, "bad")["error"]
    assert "Traceback" not in process.close()


def test_rpc_export_html_of_an_in_memory_session_is_an_error(cli: Cli) -> None:
    process = rpc_process(cli, "--no-session")
    process.send({"id": "x", "type": "export_html"})
    assert response_for(process, "x")["error"] == "Cannot export in-memory session to HTML"
    assert not list(Path(cli.cwd).glob("*.html"))
    process.close()


def test_export_of_a_file_loads_no_plugin(cli: Cli) -> None:
    source = write_session(cli.cwd / "s.jsonl", ordinary_session())
    marker = cli.cwd / "plugin-loaded"
    extension = cli.cwd / "marker_plugin.py"
    extension.write_text(f"from pathlib import Path\nPath({str(marker)!r}).write_text('x')\n")
    done = cli.run("-e", str(extension), "--export", str(source), "page.html")
    assert done.returncode == 0, done.stderr
    assert "plugin-loaded" not in done.stderr and (cli.cwd / "page.html").is_file()
    assert not marker.exists()
    # the same extension is loaded by any other mode: the marker is a real signal
    cli.run("-e", str(extension), "--list-models")
    assert marker.exists()
