"""What a `pi -p` run with one `read` call leaves unimported: code for other modes, other
providers' APIs and other tools' permission checks (each is imported where it is first used)."""

from __future__ import annotations

from pi_core.testing import chat_stream
from tests.cli.conftest import Cli

NOT_IMPORTED = (
    "pi_core.modes.interactive",  # the REPL (`early_start` decides without it)
    "pi_plugin_claude.permissions.shell",  # the Bash command walker: first Bash decision
    "pi_plugin_claude.permissions.bash_policy",
    "pi_plugin_claude.permissions.readonly",
    "pi_plugin_google.stream",  # other APIs' request and event code: their first request
    "pi_plugin_bedrock.stream",
    "pi_plugin_mistral.stream",
    "pi_plugin_anthropic.stream",
    "pi_plugin_openai.responses",
    "pi_plugin_openai.azure",
    "pi_plugin_openai.codex",
)


def _imported(stderr: str) -> set[str]:
    return {
        line.rsplit("|", 1)[1].strip()
        for line in stderr.splitlines()
        if line.startswith("import time:") and line.count("|") == 2
    }


def test_a_print_run_imports_only_what_it_uses(cli: Cli) -> None:
    (cli.cwd / "notes.txt").write_text("a note\n")
    cli.server.queue(
        chat_stream(tool_calls=[("read", {"path": "notes.txt"})]), chat_stream("It is a note.")
    )
    cli.env["PYTHONPROFILEIMPORTTIME"] = "1"
    result = cli.run("-p", "Read notes.txt")
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout == "It is a note.\n"
    assert len(cli.server.requests) == 2
    imported = _imported(result.stderr)
    assert "pi_plugin_openai.completions" in imported  # the listing is complete
    assert "tree_sitter_bash" in imported  # the claude plugin's grammar still loads with it
    assert sorted(set(NOT_IMPORTED) & imported) == []
