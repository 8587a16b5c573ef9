"""The performance guard's rule (benchmarks/harness/guard_check.py) on synthetic ratios."""

from __future__ import annotations

import json
import sys
from importlib.util import module_from_spec, spec_from_file_location
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def load_guard_check() -> ModuleType:
    """The module by its path (the benchmarks are scripts, not a package on sys.path)."""
    spec = spec_from_file_location("guard_check", BENCHMARKS / "harness" / "guard_check.py")
    assert spec is not None and spec.loader is not None
    module = module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


guard = load_guard_check()


@pytest.fixture
def baseline_file(tmp_path: Path) -> Path:
    """A baseline: `pi -p` at 2.0x the floor, the RPC row at 1.5x, a margin of 50 %."""
    path = tmp_path / "guard_baseline.json"
    path.write_text(json.dumps({"margin": 0.5, "ratios": {"print": 2.0, "rpc-tools": 1.5}}))
    return path


def test_a_ratio_worse_than_the_baseline_past_the_margin_fails(baseline_file: Path) -> None:
    status, text = guard.decide({"print": 3.2, "rpc-tools": 1.5}, baseline_file, False, {})
    assert status == 1
    assert "past the margin: print" in text
    assert "rpc-tools" not in text.splitlines()[-1]


def test_ratios_within_the_margin_pass(baseline_file: Path) -> None:
    # 2.0 x 1.5 = 3.0 and 1.5 x 1.5 = 2.25 are the limits: just under both passes
    status, text = guard.decide({"print": 2.95, "rpc-tools": 2.2}, baseline_file, False, {})
    assert status == 0, text
    assert "every row within 50%" in text


def test_the_limit_is_the_baseline_worsened_by_the_margin(baseline_file: Path) -> None:
    verdicts = guard.compare({"print": 3.01, "rpc-tools": 0.5}, guard.load(baseline_file))
    by_key = {verdict.key: verdict for verdict in verdicts}
    assert by_key["print"].limit == pytest.approx(3.0)
    assert not by_key["print"].ok
    assert by_key["rpc-tools"].ok  # faster than the baseline always passes


def test_a_row_without_a_baseline_passes_and_says_so(baseline_file: Path) -> None:
    status, text = guard.decide({"export": 40.0}, baseline_file, False, {})
    assert status == 0
    assert "no baseline yet" in text


def test_update_rewrites_the_ratios_and_keeps_the_margin(baseline_file: Path) -> None:
    status, _ = guard.decide({"print": 4.0, "open": 1.1}, baseline_file, True, {"cores": "2"})
    assert status == 0
    data = json.loads(baseline_file.read_text())
    assert data["margin"] == 0.5
    assert data["ratios"] == {"open": 1.1, "print": 4.0, "rpc-tools": 1.5}
    assert data["measured"] == {"cores": "2"}
    # the rewritten baseline is the new reference: 4.0 x 1.5 = 6.0 passes, 6.5 fails
    assert guard.decide({"print": 5.9}, baseline_file, False, {})[0] == 0
    assert guard.decide({"print": 6.5}, baseline_file, False, {})[0] == 1


def test_the_committed_baseline_states_a_margin_and_every_guard_row() -> None:
    baseline = guard.load(BENCHMARKS / "guard_baseline.json")
    assert 0.3 <= baseline.margin <= 1.0
    assert set(baseline.ratios) == {"print", "rpc-tools", "rpc-session", "open", "export"}
    assert all(ratio > 0 for ratio in baseline.ratios.values())
