"""CLAUDE.md memory and `.claude/commands/*.md` with the profile on, through `pi -p`."""

from __future__ import annotations

import json
from pathlib import Path

from claude_pi import Pi
from pi_plugin_claude.context import claude_memory_files, command_dirs

from pi_core.testing import chat_stream


def test_memory_files_in_claudes_order(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "work" / "proj"
    (home / ".claude").mkdir(parents=True)
    (project / ".claude").mkdir(parents=True)
    (home / ".claude" / "CLAUDE.md").write_text("user memory")
    (tmp_path / "work" / "CLAUDE.md").write_text("parent memory")
    (project / "AGENTS.md").write_text("pi reads this")
    (project / "CLAUDE.md").write_text("project memory")
    (project / ".claude" / "CLAUDE.md").write_text("dot-claude memory")
    (project / "CLAUDE.local.md").write_text("local memory")
    found = claude_memory_files(str(project), home=str(home))
    # the parent's CLAUDE.md is pi's own context file there (no AGENTS.md): not quoted twice
    assert [f.content for f in found] == [
        "user memory", "project memory", "dot-claude memory", "local memory",
    ]  # fmt: skip
    every = claude_memory_files(str(project), home=str(home), skip_pi_loaded=False)
    assert "parent memory" in [f.content for f in every]


def test_command_dirs(tmp_path: Path) -> None:
    (tmp_path / "p" / ".claude" / "commands").mkdir(parents=True)
    assert command_dirs(str(tmp_path / "p"), home=str(tmp_path / "nohome")) == [
        str(tmp_path / "p" / ".claude" / "commands")
    ]


def test_memory_and_commands_reach_the_model(pi: Pi) -> None:
    (pi.home / ".claude").mkdir()
    (pi.home / ".claude" / "CLAUDE.md").write_text("Always answer in French.")
    (pi.cwd / "CLAUDE.local.md").write_text("My name is Ada.")
    commands = pi.cwd / ".claude" / "commands"
    commands.mkdir(parents=True)
    (commands / "review.md").write_text(
        "---\ndescription: Review a file\n---\nReview $ARGUMENTS carefully."
    )
    pi.queue(chat_stream("ok"))
    done = pi.run("/review main.py", "--claude")
    assert done.returncode == 0, done.stderr
    messages = pi.request(0)["messages"]
    system = messages[0]["content"]
    assert "Always answer in French." in system and "My name is Ada." in system
    assert "Review main.py carefully." in json.dumps(messages[-1])


def test_without_the_profile_neither_loads(pi: Pi) -> None:
    (pi.cwd / "CLAUDE.local.md").write_text("My name is Ada.")
    pi.queue(chat_stream("ok"))
    done = pi.run("hello")
    assert done.returncode == 0, done.stderr
    assert "My name is Ada." not in pi.request(0)["messages"][0]["content"]
