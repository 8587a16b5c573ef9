"""With a Claude Pro/Max login our `pi` sends what pi 0.73.1 sends: the headers pi sets and the
bodies, Claude Code's tool names included (see `record_pi_oauth.py` for the fixtures)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.requests_vs_pi.oauth_scenarios import SCRIPTS, run
from tests.requests_vs_pi.test_requests_vs_pi import normalized

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.mark.parametrize("script", SCRIPTS)
def test_subscription_requests_match_pi(script: str, tmp_path: Path) -> None:
    pi = shutil.which("pi")
    assert pi, "the pi command is installed with the project"
    recorded = json.loads((FIXTURES / f"anthropic-oauth.{script}.json").read_text())
    ours = run([pi], script, tmp_path)
    assert [r["headers"] for r in ours] == [r["headers"] for r in recorded]
    assert [normalized(r["body"]) for r in ours] == [normalized(r["body"]) for r in recorded]
