"""Bash grammar at plugin load (fail closed); the command walker on the first Bash call."""

from __future__ import annotations

import subprocess
import sys

WALKER = (
    "pi_plugin_claude.permissions.shell",
    "pi_plugin_claude.permissions.bash_policy",
    "pi_plugin_claude.permissions.readonly",
)


def _probe(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)


def test_loading_the_plugin_builds_the_parser_but_not_the_walker() -> None:
    code = (
        "import sys, pi_plugin_claude.plugin\n"
        "print('tree_sitter_bash' in sys.modules)\n"
        f"print([name for name in {WALKER!r} if name in sys.modules])\n"
    )
    done = _probe(code)
    assert done.stdout.split("\n")[:2] == ["True", "[]"], done.stderr


def test_the_first_bash_decision_loads_the_walker() -> None:
    code = (
        "import sys\n"
        "from pi_plugin_claude.permissions import PermissionPolicy\n"
        "policy = PermissionPolicy(cwd='/tmp')\n"
        "print(policy.decide('Read', {'file_path': '/tmp/x'}).behavior)\n"
        f"print([name for name in {WALKER!r} if name in sys.modules])\n"
        "print(policy.decide('Bash', {'command': 'rm -rf /tmp/x'}).behavior)\n"
        f"print(all(name in sys.modules for name in {WALKER!r}))\n"
    )
    done = _probe(code)
    assert done.stdout.split("\n")[:4] == ["allow", "[]", "ask", "True"], done.stderr


def test_a_missing_grammar_wheel_still_fails_the_plugin_load() -> None:
    code = "import sys\nsys.modules['tree_sitter_bash'] = None\nimport pi_plugin_claude.plugin\n"
    done = _probe(code)
    assert done.returncode != 0
    assert "tree_sitter_bash" in done.stderr
