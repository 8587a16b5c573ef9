"""Permission rules: parsing, matching, deny > ask > allow precedence, and each mode."""

from __future__ import annotations

from typing import Any

import pytest
from pi_plugin_claude.permissions import (
    AskRequest,
    PermissionAllow,
    PermissionAnswer,
    PermissionDeny,
    PermissionGate,
    PermissionPolicy,
    parse_mode,
    parse_rule,
    parse_rules,
)

CWD = "/proj"
HOME = "/home/u"


def policy(mode: str = "default", **rules: list[str]) -> PermissionPolicy:
    parsed = {kind: [parse_rule(text, CWD) for text in texts] for kind, texts in rules.items()}
    return PermissionPolicy(mode=parse_mode(mode), cwd=CWD, home=HOME, **parsed)


MATCHING = [
    # (rule, tool, input, matches)
    ("Bash(npm run test:*)", "Bash", {"command": "npm run test"}, True),
    ("Bash(npm run test:*)", "Bash", {"command": "npm run test --watch"}, True),
    ("Bash(npm run test:*)", "Bash", {"command": "npm run testing"}, False),
    ("Bash(npm run test:*)", "Bash", {"command": "npm run build"}, False),
    ("Bash(npm * --save)", "Bash", {"command": "npm install left-pad --save"}, True),
    ("Bash(npm * --save)", "Bash", {"command": "npm install left-pad"}, False),
    ("Bash(ls)", "Bash", {"command": "ls"}, True),
    ("Bash(ls)", "Bash", {"command": "ls -a"}, False),
    ("Bash", "Bash", {"command": "anything at all"}, True),
    ("Bash(*)", "Bash", {"command": "anything"}, True),
    ("Edit(src/**)", "Edit", {"file_path": "/proj/src/a/b.py"}, True),
    ("Edit(src/**)", "Write", {"file_path": "src/new.py"}, True),
    ("Edit(src/**)", "MultiEdit", {"file_path": "/proj/lib/x.py"}, False),
    ("Edit(src/**)", "Read", {"file_path": "/proj/src/a.py"}, False),
    ("Edit(*.md)", "Edit", {"file_path": "/proj/docs/deep/README.md"}, True),
    ("Edit(/docs/*.md)", "Edit", {"file_path": "/proj/docs/a.md"}, True),
    ("Edit(/docs/*.md)", "Edit", {"file_path": "/proj/docs/sub/a.md"}, False),
    ("Read(~/secret/**)", "Read", {"file_path": "/home/u/secret/key.pem"}, True),
    ("Read(~/secret/**)", "Read", {"file_path": "/home/u/public/key.pem"}, False),
    ("Read(//etc/passwd)", "Read", {"file_path": "/etc/passwd"}, True),
    ("Read(./.env)", "Read", {"file_path": "/proj/.env"}, True),
    ("Read(./.env)", "Read", {"file_path": "/proj/.envrc"}, False),
    ("Read(src)", "Grep", {"pattern": "x", "path": "src/a"}, True),
    ("WebFetch(domain:example.com)", "WebFetch", {"url": "https://example.com/a"}, True),
    ("WebFetch(domain:example.com)", "WebFetch", {"url": "https://docs.example.com/"}, True),
    ("WebFetch(domain:example.com)", "WebFetch", {"url": "https://example.org/"}, False),
    ("mcp__github__create_issue", "mcp__github__create_issue", {}, True),
    ("mcp__github__create_issue", "mcp__github__close_issue", {}, False),
    ("mcp__github", "mcp__github__close_issue", {}, True),
    ("mcp__github", "mcp__githubby__x", {}, False),
    ("mcp__github__*", "mcp__github__x", {}, True),
    ("Task(reviewer)", "Task", {"subagent_type": "reviewer"}, True),
    ("Task(reviewer)", "Task", {"subagent_type": "writer"}, False),
]


@pytest.mark.parametrize(("rule", "tool", "tool_input", "matches"), MATCHING)
def test_a_deny_rule_matches_exactly_the_calls_it_names(
    rule: str, tool: str, tool_input: dict[str, Any], matches: bool
) -> None:
    decision = policy("bypassPermissions", deny=[rule]).decide(tool, tool_input)
    assert (decision.behavior == "deny") is matches, decision


PRECEDENCE = [
    # (allow, ask, deny, command, expected)
    (["Bash(git:*)"], [], ["Bash(git push:*)"], "git push origin", "deny"),
    (["Bash(git:*)"], ["Bash(git push:*)"], [], "git push origin", "ask"),
    (["Bash(git:*)"], ["Bash(git push:*)"], ["Bash(git push:*)"], "git push", "deny"),
    (["Bash(git:*)"], ["Bash(git push:*)"], [], "git commit -m x", "allow"),
    ([], ["Bash"], [], "touch x", "ask"),
    (["Bash"], [], ["Bash(rm:*)"], "ls && rm -rf /", "deny"),
    (["Bash(make:*)"], [], [], "make && touch x", "ask"),
    (["Bash(make:*)", "Bash(touch:*)"], [], [], "make && touch x", "allow"),
]


@pytest.mark.parametrize(("allow", "ask", "deny", "command", "expected"), PRECEDENCE)
def test_deny_then_ask_then_allow(
    allow: list[str], ask: list[str], deny: list[str], command: str, expected: str
) -> None:
    decision = policy(allow=allow, ask=ask, deny=deny).decide("Bash", {"command": command})
    assert decision.behavior == expected


def test_the_deny_message_is_claudes() -> None:
    decision = policy(deny=["Bash(ls:*)"]).decide("Bash", {"command": "ls"})
    assert decision.message == "Permission to use Bash with command ls has been denied."


MODES = [
    # (mode, tool, input, expected)
    ("default", "Bash", {"command": "ls -la"}, "allow"),
    ("default", "Bash", {"command": "touch c.txt"}, "ask"),
    ("default", "Read", {"file_path": "/proj/a.py"}, "allow"),
    ("default", "Read", {"file_path": "/elsewhere/a.py"}, "ask"),
    ("default", "Edit", {"file_path": "/proj/a.py"}, "ask"),
    ("acceptEdits", "Edit", {"file_path": "/proj/a.py"}, "allow"),
    ("acceptEdits", "Write", {"file_path": "/elsewhere/a.py"}, "ask"),
    ("acceptEdits", "Bash", {"command": "touch c.txt"}, "allow"),
    ("acceptEdits", "Bash", {"command": "curl http://x"}, "ask"),
    ("dontAsk", "Bash", {"command": "touch c.txt"}, "deny"),
    ("dontAsk", "Bash", {"command": "ls"}, "allow"),
    ("bypassPermissions", "Bash", {"command": "rm -rf build"}, "allow"),
    ("bypassPermissions", "Write", {"file_path": "/elsewhere/a"}, "allow"),
    ("plan", "Read", {"file_path": "/proj/a.py"}, "allow"),
    ("plan", "Grep", {"pattern": "x"}, "allow"),
    ("plan", "Bash", {"command": "ls"}, "allow"),
    ("plan", "Bash", {"command": "touch x"}, "ask"),
    ("plan", "Write", {"file_path": "/proj/a.py"}, "ask"),
    ("plan", "ExitPlanMode", {"plan": "do it"}, "ask"),
    ("default", "TodoWrite", {"todos": []}, "allow"),
]


@pytest.mark.parametrize(("mode", "tool", "tool_input", "expected"), MODES)
def test_each_mode(mode: str, tool: str, tool_input: dict[str, Any], expected: str) -> None:
    assert policy(mode).decide(tool, tool_input).behavior == expected


def test_dont_ask_names_the_mode() -> None:
    decision = policy("dontAsk").decide("Bash", {"command": "touch c.txt"})
    assert "don't ask mode" in decision.message


def test_an_allow_rule_beats_the_mode_but_not_plan_mode() -> None:
    assert policy("default", allow=["Edit"]).decide("Edit", {"file_path": "a"}).behavior == "allow"
    planning = policy("plan", allow=["Edit"]).decide("Edit", {"file_path": "a"})
    assert (planning.behavior, planning.reason_type) == ("ask", "mode")
    assert planning.unasked_message is not None
    assert planning.unasked_message.startswith("Edit is not allowed in plan mode")


def test_bad_rules_and_modes_get_clear_messages() -> None:
    rules, problems = parse_rules(["Bash(ls:*)", "Bash(unclosed", 3])
    assert [str(rule) for rule in rules] == ["Bash(ls:*)"]
    assert problems == [
        "Invalid permission rule 'Bash(unclosed': expected Tool or Tool(specifier)",
        "permission rule 3 is not a string",
    ]
    with pytest.raises(ValueError, match="expected one of default, acceptEdits"):
        parse_mode("yolo")


class Recorder:
    def __init__(self, answer: PermissionAnswer) -> None:
        self.answer = answer
        self.requests: list[AskRequest] = []

    async def __call__(self, request: AskRequest) -> PermissionAnswer:
        self.requests.append(request)
        return self.answer


async def test_ask_without_a_prompt_is_a_denial_in_claudes_words() -> None:
    gate = PermissionGate(policy(ask=["Bash(ls:*)"]))
    outcome = await gate.check("Bash", {"command": "ls"}, "toolu_1")
    assert not outcome.allowed
    assert outcome.message == (
        "Claude requested permissions to use Bash, but you haven't granted it yet."
    )
    assert [(d.tool_name, d.tool_use_id) for d in gate.denials] == [("Bash", "toolu_1")]


async def test_the_prompt_answers_ask_and_can_change_input_and_rules() -> None:
    asker = Recorder(
        PermissionAllow(
            updated_input={"command": "touch d.txt"},
            updated_permissions=[
                {"type": "addRules", "rules": [{"toolName": "Bash", "ruleContent": "touch:*"}],
                 "behavior": "allow", "destination": "session"},
            ],
        )
    )  # fmt: skip
    gate = PermissionGate(policy(), asker)
    outcome = await gate.check("Bash", {"command": "touch c.txt"}, "toolu_1")
    assert outcome.allowed and outcome.updated_input == {"command": "touch d.txt"}
    assert asker.requests[0].tool_name == "Bash"
    assert asker.requests[0].decision.behavior == "ask"
    again = await gate.check("Bash", {"command": "touch e.txt"}, "toolu_2")
    assert again.allowed and len(asker.requests) == 1  # the added rule answered it


async def test_a_denying_prompt_reaches_the_model_verbatim() -> None:
    gate = PermissionGate(policy(), Recorder(PermissionDeny("Not allowed to delete files")))
    outcome = await gate.check("Bash", {"command": "rm x"}, "toolu_1")
    assert (outcome.allowed, outcome.message) == (False, "Not allowed to delete files")
    assert len(gate.denials) == 1


async def test_a_failing_prompt_denies() -> None:
    async def broken(request: AskRequest) -> PermissionAnswer:
        raise RuntimeError("host went away")

    outcome = await PermissionGate(policy(), broken).check("Bash", {"command": "rm x"}, "t")
    assert outcome.message == "Tool permission request failed: host went away"


async def test_plan_mode_asks_for_writes_until_exit_plan_mode_is_approved() -> None:
    asker = Recorder(PermissionDeny("keep planning"))
    gate = PermissionGate(policy("plan"), asker)
    write = {"file_path": "/proj/a.py", "content": "x"}
    assert (await gate.check("Write", write, "t1")).message == "keep planning"
    assert not (await gate.check("ExitPlanMode", {"plan": "p"}, "t2")).allowed
    assert gate.policy.mode == "plan"
    asker.answer = PermissionAllow()
    assert (await gate.check("ExitPlanMode", {"plan": "p"}, "t3")).allowed
    assert gate.policy.mode == "default"
    assert [r.tool_name for r in asker.requests] == ["Write", "ExitPlanMode", "ExitPlanMode"]
    assert asker.requests[0].decision.reason_type == "mode"
    assert (await gate.check("Write", write, "t4")).allowed  # default mode now asks, and is allowed
    assert asker.requests[-1].decision.reason_type == "default"


async def test_plan_mode_with_nobody_to_ask_refuses_writes() -> None:
    gate = PermissionGate(policy("plan"))
    outcome = await gate.check("Write", {"file_path": "/proj/a.py", "content": "x"}, "t1")
    assert not outcome.allowed
    assert outcome.message.startswith("Write is not allowed in plan mode")


async def test_set_mode_updates_apply() -> None:
    gate = PermissionGate(policy())
    gate.apply_updates([{"type": "setMode", "mode": "acceptEdits", "destination": "session"}])
    assert gate.policy.mode == "acceptEdits"
    gate.apply_updates([{"type": "addDirectories", "directories": ["/w2"]}])
    assert gate.policy.decide("Edit", {"file_path": "/w2/a"}).behavior == "allow"
