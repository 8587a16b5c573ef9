"""`enableSkillCommands: false`: the `/skill:` commands leave the slash menu (typed, they still
expand, as in pi)."""

from __future__ import annotations

import json

from pi_core.testing import chat_stream
from tests.interactive.conftest import Screen, stripped_lines


def test_skill_commands_off_hides_them_from_the_slash_menu(screen: Screen) -> None:
    skill = screen.agent_dir / "skills" / "tidy"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: tidy\ndescription: Tidy the code\n---\nSteps\n")
    prompts = screen.agent_dir / "prompts"
    prompts.mkdir()
    (prompts / "skim.md").write_text("---\ndescription: Skim the diff\n---\nSkim $1\n")
    settings = json.loads((screen.agent_dir / "settings.json").read_text())
    (screen.agent_dir / "settings.json").write_text(
        json.dumps({**settings, "enableSkillCommands": False})
    )
    screen.start()
    screen.ready()
    screen.type("/sk")
    shown = screen.wait_for("Skim the diff [prompt]")  # the menu is open and up to date
    assert "skill:tidy" not in shown and "Tidy the code" not in shown
    screen.keys("C-c")
    screen.wait_for(lambda s: "Skim the diff" not in s)
    screen.server.queue(chat_stream("tidied"))
    screen.type("/skill:tidy now")
    screen.keys("Enter")
    screen.wait_for(lambda s: "tidied" in stripped_lines(s))
    sent = json.dumps(screen.server.requests[-1].json())
    assert '<skill name=\\"tidy\\"' in sent and "now" in sent
