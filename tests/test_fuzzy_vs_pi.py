"""`pi_core.fuzzy` ranks as pi-tui's fuzzy matcher does, score for score; `@` paths rank as in pi.

The expected results are recorded from pi 0.73.1 itself by
`node tests/fixtures/fuzzy_vs_pi/make_expected.mjs <pi-tui package folder>`, which runs pi-tui's
`fuzzyFilter` and `fuzzyMatch` over `cases.json` (into `expected.json`) and its `@` file ranking
over `at_cases.json` (into `at_expected.json`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pi_core.fuzzy import fuzzy_filter, fuzzy_match
from pi_core.modes.interactive.files import path_rank

FIXTURES = Path(__file__).parent / "fixtures" / "fuzzy_vs_pi"
CASES = json.loads((FIXTURES / "cases.json").read_text())
EXPECTED = json.loads((FIXTURES / "expected.json").read_text())


def test_the_recording_covers_every_case() -> None:
    assert [c["query"] for c in CASES] == [e["query"] for e in EXPECTED]


@pytest.mark.parametrize(("case", "expected"), list(zip(CASES, EXPECTED, strict=True)))
def test_same_order_as_pi(case: dict[str, Any], expected: dict[str, Any]) -> None:
    assert fuzzy_filter(case["items"], case["query"], str) == expected["order"]


@pytest.mark.parametrize(("case", "expected"), list(zip(CASES, EXPECTED, strict=True)))
def test_same_scores_as_pi(case: dict[str, Any], expected: dict[str, Any]) -> None:
    scores = [fuzzy_match(case["query"], item) for item in case["items"]]
    assert scores == expected["scores"]


AT_CASES = json.loads((FIXTURES / "at_cases.json").read_text())
AT_EXPECTED = json.loads((FIXTURES / "at_expected.json").read_text())


@pytest.mark.parametrize(("case", "expected"), list(zip(AT_CASES, AT_EXPECTED, strict=True)))
def test_at_file_ranks_order_paths_as_pi_does(
    case: dict[str, Any], expected: dict[str, Any]
) -> None:
    """pi scores higher-is-better with 0 for "not offered"; `path_rank` is lower-is-better."""
    ranks = [path_rank(case["query"], path) for path in case["paths"]]
    assert [r is None for r in ranks] == [s == 0 for s in expected["scores"]]
    pairs = [(r, s) for r, s in zip(ranks, expected["scores"], strict=True) if r is not None]
    for rank_a, score_a in pairs:
        for rank_b, score_b in pairs:
            assert (rank_a < rank_b) == (score_a > score_b)
