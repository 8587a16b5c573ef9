"""Images and thinking levels: our RPC answers and request bodies against pi 0.73.1's, recorded
for the same scripts (`record_pi.py` re-records them)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.fake_home import our_pi
from tests.images_thinking_vs_pi.scenarios import (
    BY_NAME,
    FIXTURES,
    after_first_user,
    prompt_content,
    run,
    thinking_fields,
)

pytestmark = pytest.mark.slow

LEVEL_SCENARIOS = [name for name, s in BY_NAME.items() if s.kind == "levels"]


def _both(name: str, tmp_path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    ours = run(our_pi(), BY_NAME[name], tmp_path / "run")
    assert "Traceback" not in ours["stderr"], ours["stderr"]
    recorded = json.loads((FIXTURES / f"{name}.pi.json").read_text())
    return ours, recorded


def test_a_large_image_read_is_shrunk_to_2000_px_with_pis_note(tmp_path: Path) -> None:
    ours, pis = _both("image-resize", tmp_path)
    assert after_first_user(ours["bodies"][1]) == after_first_user(pis["bodies"][1])
    tool = after_first_user(ours["bodies"][1])[1]
    assert "[Image: original 3000x1500, displayed at 2000x1000." in tool["content"]


def test_a_tool_image_reaches_a_chat_completions_model_in_a_user_message(
    tmp_path: Path,
) -> None:
    ours, pis = _both("image-no-resize", tmp_path)
    assert after_first_user(ours["bodies"][1]) == after_first_user(pis["bodies"][1])
    attached = after_first_user(ours["bodies"][1])[-1]
    assert attached["content"][0]["text"] == "Attached image(s) from tool result:"
    assert attached["content"][1]["image_url"] == "image/png 3000x1500"


def test_blocked_images_become_pis_note_and_no_image_is_sent(tmp_path: Path) -> None:
    ours, pis = _both("image-blocked", tmp_path)
    assert after_first_user(ours["bodies"][1]) == after_first_user(pis["bodies"][1])
    assert "image_url" not in json.dumps(ours["bodies"][1])
    assert after_first_user(ours["bodies"][1])[-1]["content"].endswith(
        "\nImage reading is disabled."
    )


def test_an_attached_image_is_shrunk_with_pis_note_in_the_prompt(tmp_path: Path) -> None:
    ours, pis = _both("attach-resize", tmp_path)
    content = prompt_content(ours["bodies"][0])
    theirs = prompt_content(pis["bodies"][0])
    assert [part["type"] for part in content] == [part["type"] for part in theirs]
    assert content[0]["text"].replace(str(tmp_path), "<tmp>") == theirs[0]["text"]
    assert content[1] == theirs[1] == {"type": "image_url", "image_url": "image/png 2000x1000"}


@pytest.mark.parametrize("name", LEVEL_SCENARIOS)
def test_levels_cycled_and_clamped_as_pi(name: str, tmp_path: Path) -> None:
    ours, pis = _both(name, tmp_path)

    def answers(result: dict[str, Any]) -> list[Any]:
        out = []
        for response in result["responses"]:
            data = response["data"]
            if response["command"] == "get_state":
                data = data["thinkingLevel"]
            out.append((response["command"], data))
        return out

    assert answers(ours) == answers(pis)
    assert [thinking_fields(b) for b in ours["bodies"]] == [
        thinking_fields(b) for b in pis["bodies"]
    ]
