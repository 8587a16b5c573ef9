"""The runtime context, the event bus and the headless UI."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

from pi_core import AbortController, EventBus, NoOpUI, PluginActionError
from pi_core.plugins.manager import PluginManager
from pi_core.testing import PipeGate


def test_context_exposes_state_while_loading(manager: PluginManager) -> None:
    ctx = manager.ctx
    assert ctx.cwd == str(manager.cwd)
    assert isinstance(ctx.ui, NoOpUI) and ctx.has_ui is False
    assert ctx.model is None
    with pytest.raises(PluginActionError, match=r"ctx\.abort\(\) is not available"):
        ctx.abort()


async def test_command_context_actions_bind(manager: PluginManager) -> None:
    class Commands:
        async def fork(self, entry_id: str) -> dict[str, bool]:
            return {"cancelled": entry_id == "no"}

    with pytest.raises(PluginActionError):
        await manager.command_ctx.fork("abc")
    manager.bind(object(), Commands())
    assert await manager.command_ctx.fork("abc") == {"cancelled": False}
    assert await manager.command_ctx.fork("no") == {"cancelled": True}


async def test_exec_runs_a_program(manager: PluginManager) -> None:
    result = await manager.ctx.exec(sys.executable, ["-c", "print('out'); import sys; sys.exit(3)"])
    assert result.stdout.strip() == "out" and result.code == 3 and not result.killed


async def test_exec_is_killed_by_timeout_and_abort(manager: PluginManager, tmp_path: Path) -> None:
    slow = ["-c", "import time; time.sleep(30)"]
    timed_out = await manager.ctx.exec(sys.executable, slow, timeout=0.2)
    assert timed_out.killed

    started = PipeGate(tmp_path / "started")
    report_then_sleep = f"open({str(started.path)!r}, 'w').write('up\\n'); {slow[1]}"
    controller = AbortController()
    run = asyncio.ensure_future(
        manager.ctx.exec(sys.executable, ["-c", report_then_sleep], signal=controller.signal)
    )
    await started.signalled()  # the program is running
    controller.abort()
    aborted = await asyncio.wait_for(run, 30)
    assert aborted.killed


async def test_event_bus_delivers_unsubscribes_and_isolates_failures() -> None:
    failures: list[tuple[str, str]] = []
    bus = EventBus(lambda channel, error: failures.append((channel, str(error))))
    got: list[Any] = []

    def bad(data: Any) -> None:
        raise RuntimeError("listener broke")

    async def async_listener(data: Any) -> None:
        got.append(("async", data))

    bus.on("ch", bad)
    unsubscribe = bus.on("ch", lambda data: got.append(("sync", data)))
    bus.on("ch", async_listener)
    bus.on("other", lambda data: got.append(("other", data)))

    bus.emit("ch", 1)
    await bus.drain()
    assert got == [("sync", 1), ("async", 1)]
    assert failures == [("ch", "listener broke")]

    unsubscribe()
    got.clear()
    bus.emit("ch", 2)
    await bus.drain()
    assert got == [("async", 2)]


async def test_bus_errors_reach_the_error_listeners(manager: PluginManager) -> None:
    errors: list[Any] = []
    manager.dispatcher.on_error(errors.append)

    def bad(data: Any) -> None:
        raise ValueError("nope")

    manager.ctx.events.on("x", bad)
    manager.ctx.events.emit("x", None)
    assert [(e.event, e.error) for e in errors] == [("events:x", "ValueError: nope")]


async def test_noop_ui_answers_at_once() -> None:
    ui = NoOpUI()
    assert await ui.select("t", ["a"]) is None
    assert await ui.confirm("t", "m") is False
    assert await ui.input("t") is None
    assert await ui.editor("t") is None
    ui.notify("hello", "warning")
    ui.set_status("k", "v")
    ui.set_widget("k", ["line"], "belowEditor")
    assert ui.get_editor_text() == ""
    assert ui.set_theme("dark") == {"success": False, "error": "UI not available"}


async def test_abort_signal_listeners_and_wait() -> None:
    controller = AbortController()
    fired: list[str] = []
    remove = controller.signal.add_listener(lambda: fired.append("a"))
    controller.signal.add_listener(lambda: fired.append("b"))
    remove()
    waiter = asyncio.create_task(controller.signal.wait())
    await asyncio.sleep(0)  # one scheduling step: the waiter is now blocked in wait()
    assert not waiter.done()
    controller.abort("user")
    await asyncio.wait_for(waiter, 1)
    controller.abort("again")
    assert fired == ["b"] and controller.signal.reason == "user"
    late: list[str] = []
    controller.signal.add_listener(lambda: late.append("late"))
    assert late == ["late"]
