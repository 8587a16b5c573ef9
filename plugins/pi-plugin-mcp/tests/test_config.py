"""The `mcpServers` format: transports, `${VAR}` expansion, precedence, bad entries."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pi_plugin_mcp.config import (
    ConfigError,
    config_files,
    expand,
    load_config,
    parse_server,
    tool_name,
)


def test_stdio_entry_with_env_and_cwd_is_expanded() -> None:
    raw = {
        "command": "${TOOLS:-/opt}/server",
        "args": ["--root", "${ROOT}"],
        "env": {"TOKEN": "${SECRET}"},
        "cwd": "${ROOT}/sub",
        "timeout": 1500,
    }
    config = parse_server("files", raw, "x.json", {"ROOT": "/data", "SECRET": "s3"})
    assert config.transport == "stdio"
    assert config.command == "/opt/server"
    assert config.args == ("--root", "/data")
    assert dict(config.env) == {"TOKEN": "s3"}
    assert config.cwd == "/data/sub"
    assert config.tool_timeout == 1.5


@pytest.mark.parametrize(
    ("entry", "transport"),
    [
        ({"url": "http://h/mcp"}, "http"),
        ({"type": "http", "url": "http://h/mcp"}, "http"),
        ({"type": "streamable-http", "url": "http://h/mcp"}, "http"),
        ({"type": "sse", "url": "http://h/sse"}, "sse"),
    ],
)
def test_url_entries_pick_their_transport(entry: dict[str, str], transport: str) -> None:
    raw = {**entry, "headers": {"Authorization": "Bearer ${KEY}"}}
    config = parse_server("remote", raw, "x.json", {"KEY": "k"})
    assert config.transport == transport
    assert dict(config.headers) == {"Authorization": "Bearer k"}


def test_expansion_defaults_and_missing_variables() -> None:
    assert expand("${A:-x}-${B:-y}", {"A": "1"}) == "1-y"
    assert expand("${EMPTY:-d}", {"EMPTY": ""}) == "d"
    assert expand("plain $HOME", {}) == "plain $HOME"
    with pytest.raises(ConfigError, match="environment variable NOPE is not set"):
        parse_server("s", {"command": "${NOPE}"}, "x.json", {})


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("just a string", "expected an object"),
        ({}, "needs `command` \\(stdio\\) or `url`"),
        ({"type": "websocket", "url": "ws://h"}, "type 'websocket' is unknown"),
        ({"command": "x", "args": "not a list"}, "`args` must be a list"),
        ({"type": "http"}, "needs `url`"),
        ({"command": "x", "env": ["A=1"]}, "`env` must be an object"),
    ],
)
def test_bad_entries_say_what_is_wrong(raw: object, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_server("bad", raw, "x.json", {})


def test_later_files_win_and_bad_files_are_problems(tmp_path: Path) -> None:
    agent, project = tmp_path / "agent", tmp_path / "project"
    (project / ".pi").mkdir(parents=True)
    agent.mkdir()
    (agent / "settings.json").write_text(
        json.dumps({"mcpServers": {"a": {"command": "global-a"}, "b": {"command": "global-b"}}})
    )
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"a": {"command": "mcp-a"}}}))
    (project / ".pi" / "settings.json").write_text('{"mcpServers": {"b": {"url": 1}}')
    loaded = load_config(config_files(project, agent), {})
    assert {name: s.command for name, s in loaded.servers.items()} == {
        "a": "mcp-a",
        "b": "global-b",
    }
    assert len(loaded.problems) == 1
    assert "settings.json:1:" in loaded.problems[0]


def test_a_bad_entry_drops_only_that_server(tmp_path: Path) -> None:
    path = tmp_path / ".mcp.json"
    path.write_text(json.dumps({"mcpServers": {"ok": {"command": "x"}, "bad": {"command": 3}}}))
    loaded = load_config([path], {})
    assert list(loaded.servers) == ["ok"]
    assert loaded.problems == [f"MCP server 'bad' in {path}: `command` must be a string"]


def test_tool_names_are_safe_for_every_provider() -> None:
    assert tool_name("my server", "read.file") == "mcp__my_server__read_file"
    assert len(tool_name("s" * 40, "t" * 40)) == 64


def test_pi_mcp_config_adds_inline_and_file_documents_last(tmp_path: Path) -> None:
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"mcpServers": {"a": {"command": "from-settings"}}}))
    extra = tmp_path / "extra.json"
    extra.write_text(json.dumps({"mcpServers": {"b": {"command": "from-file"}}}))
    inline = json.dumps({"mcpServers": {"a": {"command": "from-inline"}}})
    environ = {"PI_MCP_CONFIG": json.dumps([inline, str(extra)])}
    loaded = load_config([settings], environ)
    assert loaded.problems == []
    assert loaded.servers["a"].command == "from-inline"  # read after the files: it wins
    assert loaded.servers["a"].source == "$PI_MCP_CONFIG[1]"
    assert loaded.servers["b"].command == "from-file"


def test_pi_mcp_config_problems_are_reported_not_fatal(tmp_path: Path) -> None:
    good = json.dumps({"mcpServers": {"ok": {"command": "x"}}})
    environ = {"PI_MCP_CONFIG": json.dumps(["{broken", str(tmp_path / "missing.json"), good])}
    loaded = load_config([], environ)
    assert list(loaded.servers) == ["ok"]
    assert len(loaded.problems) == 2
    assert "$PI_MCP_CONFIG[1]" in loaded.problems[0]
    assert "missing.json does not exist" in loaded.problems[1]
    assert load_config([], {"PI_MCP_CONFIG": "not json"}).problems == [
        "$PI_MCP_CONFIG: not a JSON array (Expecting value)"
    ]
