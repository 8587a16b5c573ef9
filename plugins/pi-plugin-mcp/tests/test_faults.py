"""Servers that misbehave: colliding tool names, huge results, malformed replies."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from pi_plugin_mcp.config import ServerConfig, parse_server
from pi_plugin_mcp.manager import McpManager
from pi_plugin_mcp.tools import McpTool

from pi_core import ImageContent, TextContent

pytestmark = pytest.mark.slow

FAULTY = Path(__file__).parent / "servers" / "faulty_server.py"
LONG = "x" * 60


class FakeContext:
    """Stands in for pi's ctx: records the tools registered."""

    def __init__(self) -> None:
        self.cwd = "."
        self.tools: dict[str, Any] = {}

    def register_tool(self, tool: Any) -> None:
        self.tools[tool.name] = tool

    def unregister_tool(self, name: str) -> None:
        self.tools.pop(name, None)


def faulty(*flags: str, name: str = "faulty", **entry: Any) -> ServerConfig:
    raw = {"command": sys.executable, "args": [str(FAULTY), *flags], **entry}
    return parse_server(name, raw, "test")


async def started(*configs: ServerConfig) -> tuple[McpManager, FakeContext, list[str]]:
    reports: list[str] = []
    ctx = FakeContext()
    manager = McpManager(lambda message, level: reports.append(f"{level}: {message}"))
    await manager.start(ctx, configs)  # type: ignore[arg-type]
    return manager, ctx, reports


async def run(tool: McpTool) -> Any:
    return await tool.execute("call-1", tool.validate_arguments({}), None, None, FakeContext())  # type: ignore[arg-type]


# --- D4: names that collide after sanitising ---------------------------------------------------


async def test_colliding_names_are_both_kept_and_the_later_is_suffixed_with_one_warning() -> None:
    config = faulty("--tool", "a.b", "--tool", "a_b", "--tool", LONG + "1", "--tool", LONG + "2")
    manager, ctx, reports = await started(config)
    try:
        long_name = f"mcp__faulty__{LONG}"[:64]
        names = {name: tool.mcp_name for name, tool in ctx.tools.items()}
        assert names["mcp__faulty__a_b"] == "a.b"
        assert names["mcp__faulty__a_b_2"] == "a_b"
        assert names[long_name] == LONG + "1"
        assert names[long_name[:62] + "_2"] == LONG + "2"
        assert all(len(name) <= 64 for name in names)
        for name, original in names.items():
            if original in ("a.b", "a_b", LONG + "1", LONG + "2"):
                result = await run(ctx.tools[name])
                assert result.text_content() == original  # each name calls its own tool
        warnings = [r for r in reports if "sanitising" in r]
        assert warnings == [
            "warning: MCP server 'faulty': tools 'a.b' and 'a_b' are both named "
            "'mcp__faulty__a_b' after sanitising; 'a_b' is offered as 'mcp__faulty__a_b_2'",
            f"warning: MCP server 'faulty': tools '{LONG}1' and '{LONG}2' are both named "
            f"'{long_name}' after sanitising; '{LONG}2' is offered as '{long_name[:62]}_2'",
        ]
    finally:
        await manager.stop()


async def test_a_name_another_server_holds_is_not_taken_over() -> None:
    # servers `a.b` and `a_b` both spell their tool `x` as `mcp__a_b__x`
    manager, ctx, reports = await started(
        faulty("--tool", "x", name="a.b"), faulty("--tool", "x", name="a_b")
    )
    try:
        owners = {n: t.connection.name for n, t in ctx.tools.items() if t.mcp_name == "x"}
        assert sorted(owners) == ["mcp__a_b__x", "mcp__a_b__x_2"]
        assert sorted(owners.values()) == ["a.b", "a_b"]
        assert len([r for r in reports if "'mcp__a_b__x_2'" in r]) == 1
    finally:
        await manager.stop()


# --- D5: malformed replies ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tool", "detail"),
    [
        ("not_json", "text that is not JSON: '{this is not json'"),
        ("no_result", "JSON that is not a JSON-RPC message: "),
        ("wrong_id", "a response to request id 987654, which was never sent"),
    ],
)
async def test_a_malformed_reply_fails_the_call_at_once_naming_the_server(
    tool: str, detail: str
) -> None:
    # the tool timeout is a minute; the test allows ten seconds
    manager, ctx, reports = await started(faulty("--tool", "ok", timeout=60_000))
    try:
        with pytest.raises(RuntimeError) as caught:
            await asyncio.wait_for(run(ctx.tools[f"mcp__faulty__{tool}"]), 10)
        message = str(caught.value)
        assert message.startswith(f"MCP server 'faulty' sent a malformed reply to '{tool}': ")
        assert detail in message
        # the server carries on, and the failed call was not reported as a stray line
        assert (await run(ctx.tools["mcp__faulty__ok"])).text_content() == "ok"
        assert manager.connections["faulty"].state == "connected"
        assert not [r for r in reports if "not JSON-RPC" in r]
    finally:
        await manager.stop()


# --- D2: large results -------------------------------------------------------------------------


async def test_a_result_over_the_limit_is_saved_to_a_file_and_the_model_gets_a_notice(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("MAX_MCP_OUTPUT_TOKENS", "1000")
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr("tempfile.tempdir", None)
    manager, ctx, _ = await started(faulty(env={"FAULTY_HUGE_CHARS": "4004"}))
    try:
        result = await run(ctx.tools["mcp__faulty__huge"])
        (block,) = result.content
        assert isinstance(block, TextContent)
        assert "(4,004 characters in 62 lines)" in block.text
        assert "larger than the MCP output limit of 1,000 tokens" in block.text
        (saved,) = tmp_path.glob("pi-mcp-faulty-huge-*.txt")
        assert f"the full output is saved in {saved} (plain text)" in block.text
        assert saved.read_text().startswith("line 000000000 xxx")
        assert len(saved.read_text()) == 4004
        assert result.details["fullOutputPath"] == str(saved)
        assert "structuredContent" not in result.details
    finally:
        await manager.stop()


async def test_a_result_within_the_limit_is_unchanged(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MAX_MCP_OUTPUT_TOKENS", "1001")
    manager, ctx, _ = await started(faulty(env={"FAULTY_HUGE_CHARS": "4004"}))
    try:
        result = await run(ctx.tools["mcp__faulty__huge"])
        assert len(result.content[0].text) == 4004
    finally:
        await manager.stop()


async def test_a_large_result_with_images_is_truncated_in_place(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MAX_MCP_OUTPUT_TOKENS", "2000")
    manager, ctx, _ = await started(faulty(env={"FAULTY_HUGE_CHARS": "20000"}))
    try:
        result = await run(ctx.tools["mcp__faulty__huge_with_image"])
        text, notice = result.content
        assert isinstance(text, TextContent) and len(text.text) == 8000
        assert not any(isinstance(block, ImageContent) for block in result.content)
        assert isinstance(notice, TextContent)
        assert "[OUTPUT TRUNCATED: the result exceeded the MCP output limit of 2,000 tokens." in (
            notice.text
        )
        assert "1 image left out." in notice.text
    finally:
        await manager.stop()


# --- D3: servers start in the background -------------------------------------------------------


async def test_launch_returns_at_once_and_a_call_waits_for_the_handshake() -> None:
    never = parse_server(
        "never",
        {"command": sys.executable, "args": ["-c", "import sys; sys.stdin.read()"],
         "startupTimeout": 60_000},
        "test",
    )  # fmt: skip
    reports: list[str] = []
    ctx = FakeContext()
    manager = McpManager(lambda message, level: reports.append(message))
    manager.launch(ctx, [never, faulty("--tool", "ok")])  # type: ignore[arg-type]
    try:
        connection = manager.connections["faulty"]
        assert connection.state == "starting" and ctx.tools == {}
        # a call made before the handshake waits for it (the tool is not offered yet)
        result = await asyncio.wait_for(connection.call_tool("ok", {}), 30)
        assert result.content[0].text == "ok"  # type: ignore[union-attr]
        assert "mcp__faulty__ok" in ctx.tools
        assert manager.connections["never"].state == "starting"
    finally:
        await asyncio.wait_for(manager.stop(), 10)  # a server mid-handshake stops at once
    assert reports == []


def test_structured_content_over_the_limit_is_left_out_of_the_details(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pi_plugin_mcp.limits import limit_result

    from pi_core import ToolResult

    monkeypatch.setenv("MAX_MCP_OUTPUT_TOKENS", "100")
    big = {"rows": ["x" * 100] * 10}
    result = limit_result(ToolResult.text("10 rows", {"structuredContent": big}), "s", "t")
    assert result.text_content() == "10 rows"
    assert result.details == {"structuredContentChars": len(json.dumps(big))}
    small = {"rows": 10}
    kept = limit_result(ToolResult.text("10 rows", {"structuredContent": small}), "s", "t")
    assert kept.details == {"structuredContent": small}
