"""`pi -p` with issue-29's flags, environment and piped stdin does what pi 0.73.1 did
(fixtures/flags.pi.json, recorded by fixtures/record_pi_flags.py): the same model, thinking
effort and user text reach the provider, the same warnings, sessions in the same folder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pi_core.testing import console_script
from tests.cli.flags_cases import CASES, run_case

pytestmark = pytest.mark.slow

RECORDED: dict[str, Any] = json.loads(
    (Path(__file__).parent / "fixtures" / "flags.pi.json").read_text()
)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_pi(name: str, tmp_path: Path) -> None:
    pi = console_script("pi")
    assert run_case([pi], CASES[name], tmp_path / "run") == RECORDED[name]
