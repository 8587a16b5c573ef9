"""End to end: hostile path calls from a scripted model, through pi's tools and Claude's.

The project has a secret, symlinks into it and out of the project, and a locked folder
outside; `.claude/settings.json` holds the probe's rules in acceptEdits mode. After the
run nothing outside the project changed and the secret's marker reached no request.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from claude_pi import Pi

from pi_core.testing import FakeLLMServer, chat_stream

MARKER = "SECRET-MARKER-7f3a"
EDIT = {"old_string": "outside", "new_string": "pwned"}


def build_tree(proj: Path, outside: Path, locked: Path) -> None:
    """The secret, the outside world, the locked folder and the symlinks between them."""
    for folder in (proj / "secrets", proj / "src", proj / "docs", outside, locked):
        folder.mkdir(parents=True, exist_ok=True)
    (proj / "secrets" / "key").write_text(MARKER)
    (proj / "src" / "a.py").write_text("SAFE-CONTENT\n")
    (outside / "file.txt").write_text("outside\n")
    (locked / "conf").write_text("locked\n")
    (proj / "src" / "link_secrets").symlink_to(proj / "secrets")
    (proj / "keylink").symlink_to(proj / "secrets" / "key")
    (proj / "src" / "out").symlink_to(outside)
    (proj / "lockdir").symlink_to(locked)


def rules(locked: Path) -> dict[str, Any]:
    """The probe's settings, in acceptEdits mode."""
    return {
        "permissions": {
            "defaultMode": "acceptEdits",
            "allow": ["Bash(git status:*)", "Bash(npm test)"],
            "deny": ["Read(./secrets/**)", f"Edit(/{locked}/**)"],
        }
    }


def snapshot(*folders: Path) -> dict[str, str]:
    """Every path under the folders with its content (symlinks not followed)."""
    found: dict[str, str] = {}
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            found[str(path)] = path.read_text() if path.is_file() else "<dir>"
    return found


def bodies(server: FakeLLMServer) -> str:
    """Everything the model was sent, as one string."""
    return "\n".join(request.body.decode() for request in server.requests)


def refused(text: str) -> bool:
    """Whether a tool result is a permission refusal (a deny rule, or an ask nobody answered)."""
    return text.startswith(("Permission to use ", "Claude requested permissions to use "))


def hostile_bash(outside: Path) -> list[str]:
    """File-changing commands aimed outside the working folder (acceptEdits must ask)."""
    return [
        f"rm -rf {outside}/file.txt",
        "rm -rf ../outside",
        "touch ../outside/new",
        "mv src/a.py ../outside/a.py",
        "cp src/a.py ../outside/",
        "sed -i s/outside/pwned/ src/out/file.txt",
        "mkdir ../outside/made",
    ]


def test_pis_own_tools_cannot_reach_past_the_rules(pi: Pi, tmp_path: Path) -> None:
    outside, locked = tmp_path / "outside", tmp_path / "locked"
    build_tree(pi.cwd, outside, locked)
    pi.settings(claudeSettings=True)
    pi.claude_settings(rules(locked))
    before = snapshot(outside, locked)
    calls: list[tuple[str, dict[str, Any]]] = [
        ("read", {"path": "@secrets/key"}),
        ("read", {"path": "src/link_secrets/key"}),
        ("read", {"path": "keylink"}),
        ("read", {"path": f"/{pi.cwd}/secrets/key"}),
        ("grep", {"pattern": "SECRET"}),
        ("grep", {"pattern": "SECRET", "path": "src/link_secrets"}),
        ("grep", {"pattern": "SECRET", "path": "@secrets"}),
        ("find", {"pattern": "*", "path": "secrets"}),
        ("ls", {"path": "secrets"}),
        ("write", {"path": "@../outside/x.txt", "content": "pwned"}),
        ("write", {"path": "lockdir/conf", "content": "pwned"}),
        ("edit", {"path": "src/out/file.txt", "edits": [{"oldText": "outside", "newText": "x"}]}),
        *(("bash", {"command": command}) for command in hostile_bash(outside)),
        ("read", {"path": "@src/a.py"}),  # the safe twins still work
        ("bash", {"command": "touch docs/made"}),
    ]
    for name, arguments in calls:
        pi.call(name, **arguments)
    pi.queue(chat_stream("done"))
    done = pi.run("go", "--tools", "read,bash,edit,write,grep,find,ls")
    assert done.returncode == 0, done.stderr
    assert len(pi.server.requests) == len(calls) + 1
    assert snapshot(outside, locked) == before
    assert MARKER not in bodies(pi.server)
    results = pi.tool_results(len(calls))
    assert "SAFE-CONTENT" in results[-2]
    assert (pi.cwd / "docs" / "made").exists()
    assert all(refused(text) for text in results[:-2]), results


def test_claudes_tools_cannot_reach_past_the_rules(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any, tmp_path: Path
) -> None:
    outside, locked = tmp_path / "outside", tmp_path / "locked"
    build_tree(project, outside, locked)
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(json.dumps(rules(locked)))
    before = snapshot(outside, locked)
    calls: list[tuple[str, dict[str, Any]]] = [
        ("Read", {"file_path": "src/link_secrets/key"}),
        ("Read", {"file_path": str(project / "keylink")}),
        ("Read", {"file_path": f"/{project}/secrets/key"}),
        ("Read", {"file_path": f"{project}/src/../secrets/key"}),
        ("Grep", {"pattern": "SECRET", "output_mode": "content"}),
        ("Grep", {"pattern": "SECRET", "path": "src/link_secrets", "output_mode": "content"}),
        ("Glob", {"pattern": "secrets/*"}),
        ("LS", {"path": str(project / "secrets")}),
        ("Write", {"file_path": str(project / "lockdir" / "conf"), "content": "pwned"}),
        ("Write", {"file_path": f"/{locked}/new", "content": "pwned"}),
        ("Write", {"file_path": str(project / "src" / "out" / "x"), "content": "pwned"}),
        ("Edit", {"file_path": f"{project}/../outside/file.txt", **EDIT}),
        *(("Bash", {"command": command}) for command in hostile_bash(outside)),
        ("Read", {"file_path": str(project / "src" / "a.py")}),  # the safe twins still work
        ("Bash", {"command": "touch docs/made"}),
    ]
    for index, (name, arguments) in enumerate(calls):
        server.queue(script.call(f"toolu_{index}", name, arguments))
    server.queue(script.reply("done"))
    done = subprocess.run(
        [pi_claude, "-p", "go", "--output-format", "json"],
        input="", capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert len(server.requests) == len(calls) + 1
    assert snapshot(outside, locked) == before
    assert MARKER not in bodies(server)
    assert "SAFE-CONTENT" in bodies(server)
    assert (project / "docs" / "made").exists()
    denied = json.loads(done.stdout)["permission_denials"]
    assert len(denied) == len(calls) - 2
