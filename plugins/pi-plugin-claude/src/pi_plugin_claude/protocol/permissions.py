"""The permission modes and the --allowedTools / --disallowedTools rules pi-claude applies.

A small policy of its own: Claude Code's full rule language (`Bash(npm run test:*)`, settings
files) belongs to the Claude profile; this one matches tool names (case-insensitively, so
`Bash` also names pi's `bash`) and a `Tool(specifier)` rule by its tool name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Verdict = Literal["allow", "deny", "ask"]

READ_ONLY = {"read", "grep", "find", "ls", "glob", "todowrite", "todoread", "websearch"}
EDITS = {"edit", "write", "multiedit", "notebookedit"}
MODES = ("default", "acceptEdits", "plan", "bypassPermissions", "dontAsk", "auto")


def rule_tool(rule: str) -> str:
    """The tool a rule names: `Bash(npm test:*)` → `bash`."""
    return rule.split("(", 1)[0].strip().lower()


def rule_matches(rule: str, tool: str, tool_input: dict[str, Any], deny: bool) -> bool:
    """Whether a rule covers a call. A specifier pi-claude cannot read matches a deny rule
    (fail closed) and never an allow rule; `Bash(prefix:*)` and `Bash(exact)` are read."""
    if rule_tool(rule) != tool.lower():
        return False
    if "(" not in rule:
        return True
    specifier = rule.split("(", 1)[1].rstrip(")")
    command = tool_input.get("command")
    if tool.lower() == "bash" and isinstance(command, str):
        if specifier.endswith(":*"):
            prefix = specifier[:-2]
            return command == prefix or command.startswith(prefix + " ")
        return command == specifier
    return deny


@dataclass
class PermissionPolicy:
    """Decides allow / deny / ask for one tool call, from the mode and the rules."""

    mode: str = "default"
    allow: list[str] = field(default_factory=list)
    deny: list[str] = field(default_factory=list)
    prompt_host: bool = False  # --permission-prompt-tool stdio: "ask" goes to the host

    def decide(
        self, tool: str, tool_input: dict[str, Any], forced: str | None
    ) -> tuple[Verdict, str]:
        """The verdict for a call and, for a denial, the text the model reads."""
        key = tool.lower()
        if any(rule_matches(rule, tool, tool_input, deny=True) for rule in self.deny):
            return "deny", f"Permission to use {tool} has been denied."
        if forced == "allow" or self.mode == "bypassPermissions":
            return "allow", ""
        if forced != "ask":
            if any(rule_matches(rule, tool, tool_input, deny=False) for rule in self.allow):
                return "allow", ""
            if key in READ_ONLY:
                return "allow", ""
            if self.mode == "acceptEdits" and key in EDITS:
                return "allow", ""
        if self.mode == "dontAsk":
            return (
                "deny",
                f"Permission to use {tool} has been denied because Claude Code is running "
                "in don't ask mode.",
            )
        if self.mode == "plan" and not self.prompt_host:
            return "deny", f"Permission to use {tool} has been denied: plan mode is read-only."
        if not self.prompt_host:
            return (
                "deny",
                f"Claude requested permissions to use {tool}, but you haven't granted it yet.",
            )
        return "ask", ""

    def suggestions(self, tool: str, tool_input: dict[str, Any]) -> list[dict[str, Any]]:
        """The `permission_suggestions` offered with a `can_use_tool` request."""
        command = tool_input.get("command")
        rule: dict[str, Any] = {"toolName": tool}
        if isinstance(command, str):
            rule["ruleContent"] = command
        return [
            {"type": "addRules", "rules": [rule], "behavior": "allow", "destination": "session"},
            {"type": "setMode", "mode": "acceptEdits", "destination": "session"},
        ]

    def apply_updates(self, updates: list[Any]) -> None:
        """Apply a host's `updatedPermissions` for this session (rules and mode)."""
        for update in updates:
            if not isinstance(update, dict):
                continue
            kind = update.get("type")
            if kind == "setMode" and update.get("mode") in MODES:
                self.mode = str(update["mode"])
            elif kind in ("addRules", "replaceRules"):
                target = self.deny if update.get("behavior") == "deny" else self.allow
                if kind == "replaceRules":
                    target.clear()
                for rule in update.get("rules") or []:
                    name = str(rule.get("toolName", ""))
                    content = rule.get("ruleContent")
                    target.append(f"{name}({content})" if content else name)
            elif kind == "removeRules":
                names = {str(r.get("toolName", "")).lower() for r in update.get("rules") or []}
                self.allow[:] = [r for r in self.allow if rule_tool(r) not in names]
