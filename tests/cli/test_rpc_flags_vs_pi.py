"""`pi --mode rpc` answers issue-29's RPC script as pi 0.73.1 did (fixtures/rpc-flags.pi.json,
recorded by fixtures/record_pi_rpc_flags.py): the busy error names `streamingBehavior`,
`get_commands` entries carry `sourceInfo`, `fork` and `clone` write beside the session switched
to, and switching to a missing file starts a new session there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_core.testing import console_script
from tests.cli.rpc_flags import run_script

pytestmark = pytest.mark.slow

RECORDED = json.loads((Path(__file__).parent / "fixtures" / "rpc-flags.pi.json").read_text())


def test_rpc_answers_match_pi(tmp_path: Path) -> None:
    pi = console_script("pi")
    assert run_script([pi], tmp_path / "run") == RECORDED
