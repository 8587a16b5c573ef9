"""The regression guard's rule: ours ÷ floor per row, against a committed baseline and margin."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Baseline:
    """The committed ratios (ours ÷ floor) per row and the margin a row may worsen by."""

    margin: float
    ratios: dict[str, float]
    measured: dict[str, Any]


@dataclass(frozen=True)
class Verdict:
    """One row's comparison: the ratio now, the baseline's, the limit, and whether it holds."""

    key: str
    ratio: float
    baseline: float | None
    limit: float | None

    @property
    def ok(self) -> bool:
        """Within the limit, or no baseline to compare with (a new row)."""
        return self.limit is None or self.ratio <= self.limit


def limit(baseline: float, margin: float) -> float:
    """The largest ratio that passes: the baseline worsened by `margin` (0.5: 50 % more)."""
    return baseline * (1 + margin)


def compare(ratios: dict[str, float], baseline: Baseline) -> list[Verdict]:
    """A verdict per measured row (rows the baseline lacks pass, with no limit)."""
    verdicts = []
    for key, ratio in ratios.items():
        base = baseline.ratios.get(key)
        bound = None if base is None else limit(base, baseline.margin)
        verdicts.append(Verdict(key, ratio, base, bound))
    return verdicts


def load(path: Path) -> Baseline:
    """Read the baseline file."""
    data = json.loads(path.read_text())
    ratios = {key: float(value) for key, value in data["ratios"].items()}
    return Baseline(float(data["margin"]), ratios, dict(data.get("measured", {})))


def save(path: Path, baseline: Baseline) -> None:
    """Write the baseline file (keys sorted, so a diff shows what moved)."""
    payload = {
        "about": "ours ÷ floor per row of benchmarks/guard.py; a row fails when its ratio "
        "exceeds ratio x (1 + margin). Rewrite with `python benchmarks/guard.py --update`.",
        "margin": baseline.margin,
        "ratios": {key: round(value, 3) for key, value in sorted(baseline.ratios.items())},
        "measured": baseline.measured,
    }
    path.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")


def updated(baseline: Baseline, ratios: dict[str, float], measured: dict[str, Any]) -> Baseline:
    """The baseline with this run's ratios (the margin is kept)."""
    return Baseline(baseline.margin, {**baseline.ratios, **ratios}, measured)


def report(verdicts: list[Verdict], margin: float) -> str:
    """A table of the verdicts, one line per row."""
    lines = [f"{'row':<14} {'ours÷floor':>10} {'baseline':>9} {'limit':>7}  verdict"]
    for verdict in verdicts:
        base = "—" if verdict.baseline is None else f"{verdict.baseline:.2f}"
        bound = "—" if verdict.limit is None else f"{verdict.limit:.2f}"
        state = "ok" if verdict.ok else f"WORSE than the baseline + {margin:.0%}"
        if verdict.baseline is None:
            state = "ok (no baseline yet)"
        lines.append(f"{verdict.key:<14} {verdict.ratio:>10.2f} {base:>9} {bound:>7}  {state}")
    return "\n".join(lines)


def decide(
    ratios: dict[str, float], path: Path, update: bool, measured: dict[str, Any]
) -> tuple[int, str]:
    """Compare `ratios` with the baseline at `path` (or rewrite it): the exit code and report."""
    baseline = load(path)
    verdicts = compare(ratios, baseline)
    lines = [report(verdicts, baseline.margin)]
    if update:
        save(path, updated(baseline, ratios, measured))
        return 0, "\n".join([*lines, f"baseline rewritten: {path}"])
    failed = [verdict.key for verdict in verdicts if not verdict.ok]
    if failed:
        lines.append(f"performance guard: worse than the baseline past the margin: "
                     f"{', '.join(failed)}")  # fmt: skip
        return 1, "\n".join(lines)
    lines.append(f"performance guard: every row within {baseline.margin:.0%} of the baseline")
    return 0, "\n".join(lines)
