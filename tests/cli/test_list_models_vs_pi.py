"""`pi --list-models` prints what pi 0.73.1 prints, byte for byte (fixtures: record_pi_list_models).

Which models are listed (those whose provider has a key: environment, cloud credentials,
auth.json, models.json), the columns, the sort and the number forms. Only the docs paths in the
"no models" message differ: each points at its own docs.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pi_core.testing import console_script
from tests.cli.list_models_cases import CASES, run_case

RECORDED = json.loads((Path(__file__).parent / "fixtures" / "list-models.pi.json").read_text())
DOCS_LINE = re.compile(r"^  /\S+/docs/\S+\.md$", re.MULTILINE)


@pytest.mark.parametrize("name", sorted(CASES))
def test_list_models_matches_pi(name: str, tmp_path: Path) -> None:
    pi = console_script("pi")
    folder = tmp_path / "list-models"
    folder.mkdir()
    ours = run_case([pi], CASES[name], folder)
    theirs = RECORDED[name]
    assert ours["code"] == theirs["code"] == 0
    assert ours["stderr"] == ""
    assert DOCS_LINE.sub("  DOCS", ours["stdout"]) == DOCS_LINE.sub("  DOCS", theirs["text"])
