"""Real MCP servers as subprocesses: tools, results, prompts, resources, failures, abort."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pi_plugin_mcp.config import ServerConfig, parse_server
from pi_plugin_mcp.manager import McpManager
from pi_plugin_mcp.tools import AnyArguments, McpTool, McpToolError

from pi_core import AbortController, AbortError, ImageContent, ToolArgumentsError

pytestmark = pytest.mark.slow

Reports = list[tuple[str, str]]


class FakeContext:
    """Stands in for pi's ctx: records the tools registered and removed."""

    def __init__(self, cwd: str = ".") -> None:
        self.cwd = cwd
        self.tools: dict[str, Any] = {}
        self.removed: list[str] = []

    def register_tool(self, tool: Any) -> None:
        self.tools[tool.name] = tool

    def unregister_tool(self, name: str) -> None:
        self.tools.pop(name, None)
        self.removed.append(name)


async def started(*configs: ServerConfig) -> tuple[McpManager, FakeContext, Reports]:
    reports: Reports = []
    ctx = FakeContext()
    manager = McpManager(lambda message, level: reports.append((level, message)))
    await manager.start(ctx, configs)  # type: ignore[arg-type]
    return manager, ctx, reports


async def run(tool: McpTool, signal: Any = None, **arguments: Any) -> Any:
    params = tool.validate_arguments(arguments)
    return await tool.execute("call-1", params, signal, None, FakeContext())  # type: ignore[arg-type]


async def test_tools_results_prompt_and_resource(demo_any: ServerConfig) -> None:
    manager, ctx, reports = await started(demo_any)
    try:
        assert reports == []
        assert sorted(ctx.tools) == [
            f"mcp__demo__{n}" for n in ("add", "crash", "echo", "fail", "grow", "pixel", "slow")
        ]
        echo = ctx.tools["mcp__demo__echo"]
        assert echo.description == "Return the text unchanged."
        assert echo.parameters_schema()["properties"]["text"]["type"] == "string"
        assert echo.parameters_schema()["required"] == ["text"]

        assert (await run(echo, text="hi")).text_content() == "echo: hi"
        added = await run(ctx.tools["mcp__demo__add"], a=2, b=3)
        assert added.details == {"structuredContent": {"total": 5}}
        image = (await run(ctx.tools["mcp__demo__pixel"])).content[0]
        assert isinstance(image, ImageContent) and image.mime_type == "image/png"
        with pytest.raises(McpToolError, match="fail"):
            await run(ctx.tools["mcp__demo__fail"], reason="x")

        assert [(r.server, r.uri) for r in manager.list_resources()] == [
            ("demo", "demo://greeting")
        ]
        text = await manager.read_resource("demo", "demo://greeting")
        assert "hello from the demo server" in text
        prompt = await manager.render_prompt("demo", "review", ["x = 1", "rust"])
        assert prompt == "Please review this rust code:\nx = 1"
        with pytest.raises(ValueError, match="needs: code"):
            await manager.render_prompt("demo", "review", [])
        (status,) = manager.status()
        assert status["state"] == "connected" and status["prompts"] == ["review"]
    finally:
        await manager.stop()
    assert ctx.tools == {}


async def test_arguments_are_checked_against_the_servers_schema(
    demo_stdio: Callable[..., ServerConfig],
) -> None:
    manager, ctx, _ = await started(demo_stdio())
    try:
        with pytest.raises(ToolArgumentsError, match="text: 3 is not of type 'string'"):
            ctx.tools["mcp__demo__echo"].validate_arguments({"text": 3})
        with pytest.raises(ToolArgumentsError, match="'text' is a required property"):
            ctx.tools["mcp__demo__echo"].validate_arguments({})
    finally:
        await manager.stop()


async def test_tool_list_changed_registers_the_new_tool(
    demo_stdio: Callable[..., ServerConfig],
) -> None:
    manager, ctx, _ = await started(demo_stdio())
    arrived = asyncio.Event()
    register = ctx.register_tool

    def watch(tool: Any) -> None:
        register(tool)
        if tool.name == "mcp__demo__extra":
            arrived.set()

    ctx.register_tool = watch  # type: ignore[method-assign]
    try:
        assert (await run(ctx.tools["mcp__demo__grow"])).text_content() == "added"
        await asyncio.wait_for(arrived.wait(), 30)
        assert (await run(ctx.tools["mcp__demo__extra"])).text_content() == "extra!"
    finally:
        await manager.stop()


def _read_fifo(path: Path) -> str:
    with open(path) as fifo:
        return fifo.read().strip()


@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_abort_cancels_the_call_on_the_server(
    transport: str,
    demo_stdio: Callable[..., ServerConfig],
    demo_http: Callable[..., str],
    tmp_path: Path,
) -> None:
    fifo = tmp_path / "events"
    os.mkfifo(fifo)
    env = {"MCP_DEMO_FIFO": str(fifo)}
    if transport == "stdio":
        config = demo_stdio(env=env)
    else:
        config = parse_server("demo", {"type": "http", "url": demo_http(env)}, "test")
    manager, ctx, _ = await started(config)
    try:
        controller = AbortController()
        call = asyncio.create_task(run(ctx.tools["mcp__demo__slow"], controller.signal))
        assert await asyncio.to_thread(_read_fifo, fifo) == "started"
        controller.abort()
        with pytest.raises(AbortError):
            await call
        # the server saw MCP's notifications/cancelled and stopped the tool
        assert await asyncio.to_thread(_read_fifo, fifo) == "cancelled"
        assert (await run(ctx.tools["mcp__demo__echo"], text="still")).text_content() == (
            "echo: still"
        )
    finally:
        await manager.stop()


async def test_a_call_that_times_out_is_an_error_and_the_server_carries_on(
    demo_stdio: Callable[..., ServerConfig],
) -> None:
    manager, ctx, _ = await started(demo_stdio(timeout=300))
    try:
        with pytest.raises(RuntimeError, match=r"tool 'slow': .*[Tt]imed out"):
            await run(ctx.tools["mcp__demo__slow"])
        assert (await run(ctx.tools["mcp__demo__echo"], text="ok")).text_content() == "echo: ok"
    finally:
        await manager.stop()


async def test_a_server_exiting_mid_call_is_reported_once_and_loses_its_tools(
    demo_stdio: Callable[..., ServerConfig],
) -> None:
    manager, ctx, reports = await started(demo_stdio(), demo_stdio(name="other"))
    try:
        with pytest.raises(RuntimeError, match="'demo' stopped during the call"):
            await run(ctx.tools["mcp__demo__crash"])
        assert not [name for name in ctx.tools if name.startswith("mcp__demo__")]
        errors = [message for level, message in reports if level == "error"]
        assert len(errors) == 1
        assert errors[0].startswith("MCP server 'demo' failed: the server exited")
        assert "demo server: crashing on purpose" in errors[0]  # the stderr tail
        assert (await run(ctx.tools["mcp__other__echo"], text="x")).text_content() == "echo: x"

        restarted = await manager.restart("demo")
        assert restarted.state == "connected"
        assert (await run(ctx.tools["mcp__demo__echo"], text="y")).text_content() == "echo: y"
    finally:
        await manager.stop()


async def test_a_missing_command_is_reported_and_the_rest_start(
    demo_stdio: Callable[..., ServerConfig],
) -> None:
    missing = parse_server("ghost", {"command": "no-such-mcp-server-command"}, "test")
    manager, ctx, reports = await started(missing, demo_stdio())
    try:
        assert reports == [
            ("error", "MCP server 'ghost' failed: command not found: no-such-mcp-server-command")
        ]
        assert "mcp__demo__echo" in ctx.tools
    finally:
        await manager.stop()


async def test_garbage_on_stdout(demo_stdio: Callable[..., ServerConfig]) -> None:
    manager, ctx, reports = await started(
        demo_stdio("--garbage", name="noisy"), demo_stdio("--garbage-only", name="junk")
    )
    try:
        noisy = "printed something that is not JSON-RPC on stdout: 'this is not JSON-RPC'"
        assert ("warning", f"MCP server 'noisy' {noisy}") in reports
        assert "mcp__noisy__echo" in ctx.tools  # a stray line does not stop a working server
        (failure,) = [m for level, m in reports if level == "error"]
        assert failure.startswith("MCP server 'junk' failed: the server closed the connection")
        assert "it printed something that is not JSON-RPC on stdout" in failure
        assert not [name for name in ctx.tools if name.startswith("mcp__junk__")]
    finally:
        await manager.stop()


async def test_an_invalid_tool_schema_skips_that_tool(
    demo_stdio: Callable[..., ServerConfig],
) -> None:
    manager, ctx, reports = await started(demo_stdio("--bad-schema"))
    try:
        (warning,) = reports
        assert warning[1].startswith(
            "MCP server 'demo': tool 'odd' is skipped: invalid input schema:"
        )
        assert "mcp__demo__odd" not in ctx.tools
        assert "mcp__demo__echo" in ctx.tools
    finally:
        await manager.stop()


async def test_a_server_that_never_answers_times_out_at_startup() -> None:
    silent = parse_server(
        "silent",
        {
            "command": sys.executable,
            "args": ["-c", "import sys; sys.stdin.read()"],
            "startupTimeout": 500,
        },
        "test",
    )
    manager, ctx, reports = await started(silent)
    await manager.stop()
    assert reports == [
        ("error", "MCP server 'silent' failed: did not finish the MCP handshake within 0.5s")
    ]
    assert ctx.tools == {}


def test_any_arguments_keep_every_key() -> None:
    assert AnyArguments.model_validate({"a": 1, "b": [2]}).model_dump() == {"a": 1, "b": [2]}
