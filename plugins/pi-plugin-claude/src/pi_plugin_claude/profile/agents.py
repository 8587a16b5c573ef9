"""Subagent definitions: `.claude/agents/*.md` (project) and `~/.claude/agents/*.md` (user).

Each file holds `---` frontmatter (`name`, `description`, `tools`, `model`) and a body that
becomes the subagent's system prompt. A project agent overrides a user agent of the same name.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

GENERAL_PURPOSE = "general-purpose"


@dataclass(frozen=True)
class AgentDefinition:
    """One subagent: its name, when to use it, its tools (None: all but Task), its prompt."""

    name: str
    description: str
    prompt: str
    tools: tuple[str, ...] | None = None
    model: str | None = None
    path: str | None = None


@dataclass
class AgentCatalog:
    """The subagents found, and the files that could not be read."""

    agents: dict[str, AgentDefinition] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def parse_agent_file(text: str, path: str) -> AgentDefinition:
    """Parse one agent file; raise ValueError naming what is missing."""
    if not text.startswith("---"):
        raise ValueError(f"{path}: an agent file starts with --- frontmatter")
    _, _, rest = text.partition("\n")
    header, separator, body = rest.partition("\n---")
    if not separator:
        raise ValueError(f"{path}: the frontmatter is not closed with ---")
    fields: dict[str, str] = {}
    for line in header.splitlines():
        key, colon, value = line.partition(":")
        if colon and key.strip():
            fields[key.strip()] = value.strip().strip("'\"")
    name = fields.get("name") or Path(path).stem
    if not fields.get("description"):
        raise ValueError(f"{path}: the frontmatter has no description")
    tools = fields.get("tools")
    return AgentDefinition(
        name=name,
        description=fields["description"],
        prompt=body.partition("\n")[2].strip(),
        tools=tuple(t.strip() for t in tools.split(",") if t.strip()) if tools else None,
        model=fields.get("model") or None,
        path=path,
    )


def load_agents(cwd: str, home: str | None = None) -> AgentCatalog:
    """Read the user's agents, then the project's (which win on a name clash)."""
    catalog = AgentCatalog()
    catalog.agents[GENERAL_PURPOSE] = AgentDefinition(
        GENERAL_PURPOSE,
        "An all-round agent: looks into open questions, hunts through the code and works through "
        "tasks of several steps.",
        "You are an agent for a coding assistant. Complete the task you are given and report "
        "back concisely what you found or did.",
    )
    user_dir = Path(home or os.path.expanduser("~")) / ".claude" / "agents"
    for folder in (user_dir, Path(cwd) / ".claude" / "agents"):
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.md")):
            try:
                agent = parse_agent_file(path.read_text(encoding="utf-8"), str(path))
            except (OSError, ValueError, UnicodeDecodeError) as error:
                catalog.problems.append(str(error))
                continue
            catalog.agents[agent.name] = agent
    return catalog
