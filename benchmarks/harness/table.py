"""Result rows: ours, pi, the floor, their ratios, the DESIGN.md §8 budget, and the table."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

DASH = "—"


@dataclass
class Row:
    """One measured figure. `budget` bounds ours (upper, or lower when higher is better)."""

    metric: str
    unit: str
    ours: float | None
    pi: float | None = None
    budget: float | None = None
    beat_pi: bool = False  # the budget is "faster than pi"
    higher_better: bool = False
    key: str = ""
    floor: float | None = None  # the floor script's figure (harness/floor/)
    target: str = ""  # which figure of issue 34's table this row is (harness/targets.py)

    def ratio(self) -> float | None:
        """How many times better ours is: pi/ours (times, memory) or ours/pi (throughput)."""
        if not self.ours or not self.pi:
            return None
        return self.ours / self.pi if self.higher_better else self.pi / self.ours

    def floor_ratio(self) -> float | None:
        """How close ours is to the floor: floor/ours (times, memory) or ours/floor (rates)."""
        if not self.ours or not self.floor:
            return None
        return self.ours / self.floor if self.higher_better else self.floor / self.ours

    def budget_text(self) -> str:
        """The budget as written in the table."""
        if self.beat_pi:
            return "faster than pi"
        if self.budget is None:
            return ""
        sign = "≥" if self.higher_better else "≤"
        return f"{sign} {self.budget:g} {self.unit}"

    def met(self) -> bool | None:
        """Whether the budget holds (None: no budget, or nothing to compare with)."""
        if self.ours is None:
            return None
        if self.beat_pi:
            return None if self.pi is None else self.ours < self.pi
        if self.budget is None:
            return None
        return self.ours >= self.budget if self.higher_better else self.ours <= self.budget

    def as_dict(self) -> dict[str, Any]:
        """The row with its ratio, budget text and verdict, for --json."""
        return {
            **asdict(self),
            "ratio": self.ratio(),
            "floor_ratio": self.floor_ratio(),
            "budget_text": self.budget_text(),
            "met": self.met(),
        }


def fmt(value: float | None) -> str:
    """A number with 3-4 significant digits, or a dash."""
    if value is None:
        return DASH
    magnitude = abs(value)
    if magnitude >= 100:
        return f"{value:.0f}"
    if magnitude >= 10:
        return f"{value:.1f}"
    if magnitude >= 1:
        return f"{value:.2f}"
    return f"{value:.3f}"


def times(ratio: float | None) -> str:
    """A ratio as `1.23x`, or a dash."""
    return DASH if ratio is None else f"{ratio:.2f}x"


def render(rows: list[Row]) -> str:
    """A Markdown table (aligned, so it also reads well in a terminal)."""
    header = ["metric", "unit", "ours", "pi 0.73.1", "ratio", "floor", "floor÷ours", "budget",
              "met?"]  # fmt: skip
    body = []
    for row in rows:
        verdict = {True: "yes", False: "NO", None: ""}[row.met()]
        body.append(
            [row.metric, row.unit, fmt(row.ours), fmt(row.pi), times(row.ratio()),
             fmt(row.floor), times(row.floor_ratio()), row.budget_text(), verdict]
        )  # fmt: skip
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]
    numeric = {2, 3, 4, 5, 6}

    def line(cells: list[str]) -> str:
        """One table line, numbers right-aligned."""
        parts = [
            c.rjust(w) if i in numeric else c.ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "| " + " | ".join(parts) + " |"

    rule = (
        "|"
        + "|".join(
            ("-" * (w + 1) + ":" if i in numeric else "-" * (w + 2)) for i, w in enumerate(widths)
        )
        + "|"
    )
    return "\n".join([line(header), rule, *(line(cells) for cells in body)])


LEGEND = (
    "ratio: how many times better ours is — pi ÷ ours for times and memory, ours ÷ pi for MB/s "
    "(> 1: ours is better). floor: the floor script (benchmarks/floor.py); floor÷ours: 1 is "
    "the floor itself, 0.5 is twice its time. Budgets are DESIGN.md §8's."
)
