"""Issue 34's targets: which rows they read, whether each is met, and the pasteable table."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from harness.table import DASH, Row, fmt, times


@dataclass(frozen=True)
class Target:
    """One figure of the issue's table: the rows tagged `tag`, and its test on a row."""

    tag: str
    figure: str
    text: str
    met: Callable[[Row], bool | None]


def at_least(times_pi: float, within_floor: float | None = None) -> Callable[[Row], bool | None]:
    """Met when ours is `times_pi` times better than pi (and within `within_floor`x the floor)."""

    def check(row: Row) -> bool | None:
        ratio = row.ratio()
        if ratio is None:
            return None
        if within_floor is not None:
            near = row.floor_ratio()
            if near is None:
                return None
            return ratio >= times_pi and near >= 1 / within_floor
        return ratio >= times_pi

    return check


def memory_share(share: float) -> Callable[[Row], bool | None]:
    """Met when our peak memory is at most `share` of pi's."""

    def check(row: Row) -> bool | None:
        if row.ours is None or not row.pi:
            return None
        return row.ours / row.pi <= share

    return check


TARGETS = (
    Target("print", "`pi -p`, 2 turns + 1 tool call", "≥ 5x, and within 1.3x of the floor",
           at_least(5, within_floor=1.3)),
    Target("rpc-tools", "RPC, one prompt with 19 tool calls", "≥ 3x", at_least(3)),
    Target("rpc-session", "RPC, one prompt on a 1 MB session", "≥ 3x", at_least(3)),
    Target("open", "session open + context, 100,000 entries", "≥ 3x", at_least(3)),
    Target("repl", "REPL: launch → everything loaded (footer shows the model)", "≥ 4x",
           at_least(4)),
    Target("export", "HTML export of a 100,000-entry session", "≥ 1x", at_least(1)),
    Target("memory", "peak memory", "≤ 0.3 of pi's", memory_share(0.3)),
    Target("batch", "`pi batch`: tasks per minute per core, vs a loop of pi's `pi -p`", "≥ 5x",
           at_least(5)),
)  # fmt: skip


def markdown(rows: list[Row]) -> str:
    """Issue 34's table, one line per tagged row, in the issue's order (missing rows: dashes)."""
    lines = [
        "| figure | target | pi | floor | ours | pi ÷ ours | floor ÷ ours | met |",
        "|---|---|---:|---:|---:|---:|---:|---|",
    ]
    for target in TARGETS:
        tagged = [row for row in rows if row.target == target.tag]
        if not tagged:
            lines.append(f"| {target.figure} | {target.text} | {DASH} | {DASH} | {DASH} | "
                         f"{DASH} | {DASH} | not measured |")  # fmt: skip
        for row in tagged:
            figure = target.figure if len(tagged) == 1 else f"{target.figure}: {row.metric}"
            verdict = {True: "yes", False: "**no**", None: DASH}[target.met(row)]
            unit = f" {row.unit}"
            lines.append(
                f"| {figure} | {target.text} | {cell(row.pi, unit)} | {cell(row.floor, unit)} | "
                f"{cell(row.ours, unit)} | {times(row.ratio())} | {times(row.floor_ratio())} | "
                f"{verdict} |"
            )
    return "\n".join(lines)


def cell(value: float | None, unit: str) -> str:
    """A figure with its unit, or a dash."""
    return DASH if value is None else fmt(value) + unit
