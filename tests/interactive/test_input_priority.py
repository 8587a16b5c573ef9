"""The keyboard first: the terminal's reader runs before work the previous loop pass queued, and
finished lines wait while the user types during a stream."""

from __future__ import annotations

import asyncio
import os

from pi_core.modes.interactive.input_priority import ScrollbackHold, keyboard_first


def _order_after_a_key_press(prioritise: bool) -> list[str]:
    """A task that yields after each step (as the stream parser does) presses a key in its
    second step; returns the order in which the steps and the key's reader ran."""
    order: list[str] = []
    read_end, write_end = os.pipe()
    loop = asyncio.new_event_loop()
    try:
        loop.add_reader(read_end, lambda: order.append(f"key {os.read(read_end, 10)!r}"))
        undo = keyboard_first(loop, read_end) if prioritise else (lambda: None)

        async def stream() -> None:
            for step in range(4):
                order.append(f"slice {step}")
                if step == 1:
                    os.write(write_end, b"x")  # readable at the loop's next poll
                await asyncio.sleep(0)

        loop.run_until_complete(stream())
        undo()
        loop.remove_reader(read_end)
    finally:
        loop.close()
        os.close(read_end)
        os.close(write_end)
    return order


def test_without_priority_the_key_waits_for_the_next_queued_slice() -> None:
    order = _order_after_a_key_press(prioritise=False)
    assert order.index("key b'x'") == order.index("slice 2") + 1


def test_with_priority_the_key_runs_right_after_the_slice_it_arrived_in() -> None:
    order = _order_after_a_key_press(prioritise=True)
    assert order == ["slice 0", "slice 1", "key b'x'", "slice 2", "slice 3"]


def test_undo_gives_the_loop_its_own_event_processing_back() -> None:
    loop = asyncio.new_event_loop()
    try:
        original = loop._process_events  # type: ignore[attr-defined]
        undo = keyboard_first(loop, 0)
        assert loop._process_events is not original  # type: ignore[attr-defined]
        undo()
        assert loop._process_events == original  # type: ignore[attr-defined]
    finally:
        loop.close()


def test_a_loop_without_the_selector_internals_is_left_alone() -> None:
    class OtherLoop:
        pass

    other = OtherLoop()
    undo = keyboard_first(other, 0)  # type: ignore[arg-type]
    undo()
    assert vars(other) == {}


def test_finished_lines_are_printed_all_at_once_when_nobody_types() -> None:
    hold = ScrollbackHold(pause=0.05, longest=0.25, batch=1000, settle=1.0)
    assert hold.allowance(10.0, streaming=True) is None


def test_finished_lines_wait_while_keys_come_then_come_a_batch_at_a_time() -> None:
    hold = ScrollbackHold(pause=0.05, longest=0.25, batch=1000, settle=1.0)
    hold.key_pressed(10.0)
    assert hold.allowance(10.01, streaming=True) == 0  # keys keep coming: they wait
    assert hold.allowance(10.06, streaming=True) == 1000  # a pause: a batch per frame
    assert hold.allowance(10.9, streaming=True) == 1000
    assert hold.allowance(11.0, streaming=True) is None  # settled: all at once


def test_lines_never_wait_without_a_stream() -> None:
    hold = ScrollbackHold(pause=0.05, longest=0.25, batch=1000, settle=1.0)
    hold.key_pressed(10.0)  # Enter sends a prompt: its message is printed at once
    assert hold.allowance(10.01, streaming=False) is None


def test_steady_typing_holds_lines_back_for_a_bounded_time_only() -> None:
    hold = ScrollbackHold(pause=0.05, longest=0.25, batch=1000, settle=1.0)
    printed = []
    now = 10.0
    while now < 11.0:  # a key every 10 ms for a second
        hold.key_pressed(now)
        allowance = hold.allowance(now + 0.005, streaming=True)
        if allowance != 0:
            assert allowance == 1000  # still typing: a batch, not everything
            printed.append(round(now - 10.0, 2))
        now += 0.01
    assert printed  # lines still reach the scrollback while the typing goes on
    gaps = [later - earlier for earlier, later in zip([0.0, *printed[:-1]], printed, strict=True)]
    assert max(gaps) <= 0.25 + 0.021  # the longest hold, and the frames either side of it


def test_typing_means_a_key_came_within_the_pause() -> None:
    hold = ScrollbackHold(pause=0.05, longest=0.25)
    assert not hold.typing(10.0)  # no key yet
    hold.key_pressed(10.0)
    assert hold.typing(10.04)
    assert not hold.typing(10.05)
