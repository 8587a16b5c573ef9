"""Task: run a subagent (a fresh in-memory pi session with Claude's tools) and return its answer."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from pi_core import PluginManager, SessionManager, create_agent_session, hookimpl
from pi_core.events import BeforeAgentStartEvent, BeforeAgentStartResult
from pi_core.tools import Tool, ToolResult
from pi_plugin_claude.context import claude_memory_files, memory_prompt
from pi_plugin_claude.profile.agents import GENERAL_PURPOSE, AgentDefinition, load_agents
from pi_plugin_claude.profile.base import ClaudeTool
from pi_plugin_claude.profile.inputs import TaskInput
from pi_plugin_claude.profile.subagent_gate import ParentGate, inherited_tools

if TYPE_CHECKING:
    from pi_core import ExtensionContext
    from pi_core.abort import AbortSignal
    from pi_core.tools import ToolUpdateCallback

ToolFactory = Callable[[], Sequence[Tool[Any]]]


class _SubagentPrompt:
    """An inline plugin that appends the agent's instructions to the system prompt."""

    __name__ = "claude-subagent-prompt"

    def __init__(self, prompt: str) -> None:
        self.prompt = prompt

    @hookimpl
    def before_agent_start(self, event: BeforeAgentStartEvent) -> BeforeAgentStartResult | None:
        """Add the subagent's own prompt."""
        if not self.prompt:
            return None
        return BeforeAgentStartResult(system_prompt=f"{event.system_prompt}\n\n{self.prompt}")


def _with_memory(prompt: str, cwd: str) -> str:
    """The agent's prompt and Claude's memory files (CLAUDE.md …), as its parent has them."""
    memory = memory_prompt(claude_memory_files(cwd))
    return "\n\n".join(part for part in (prompt, memory) if part)


class TaskTool(ClaudeTool[TaskInput]):
    """`Task`: launch a subagent from `.claude/agents/*.md` (or the general-purpose one)."""

    name = "Task"
    label = "Task"
    parameters = TaskInput
    prompt_snippet = "Launch a subagent for a self-contained task"

    def __init__(self, tools: ToolFactory, cwd: str | None = None) -> None:
        self.tools = tools
        catalog = load_agents(cwd) if cwd else None
        listing = (
            "\n".join(f"- {a.name}: {a.description}" for a in catalog.agents.values())
            if catalog
            else ""
        )
        self.description = (
            "Hands a self-contained piece of work to a subagent that carries it out on its own "
            "and reports back. Pass a short description, the whole task as prompt, and "
            "subagent_type to choose the kind of agent."
            + (f"\n\nAvailable agent types:\n{listing}" if listing else "")
        )

    async def execute(
        self,
        call_id: str,
        params: TaskInput,
        signal: AbortSignal | None,
        on_update: ToolUpdateCallback | None,
        ctx: ExtensionContext,
    ) -> ToolResult:
        """Run the subagent to completion and return its last answer."""
        catalog = load_agents(ctx.cwd)
        kind = params.subagent_type or GENERAL_PURPOSE
        agent = catalog.agents.get(kind)
        if agent is None:
            known = ", ".join(sorted(catalog.agents))
            raise ValueError(f"Agent type '{kind}' not found. Available agents: {known}")
        text = await self.run_subagent(agent, params.prompt, signal, ctx)
        return ToolResult.text(text or "(Task completed with no output)", {"agent": agent.name})

    async def run_subagent(
        self, agent: AgentDefinition, prompt: str, signal: AbortSignal | None, ctx: ExtensionContext
    ) -> str:
        """A fresh in-memory session with the agent's tools and prompt, on the parent's model.

        It loads no plugins of its own: its one `tool_call` hook hands each call to the parent's
        chain, so the parent's gates, mode, rules and tool restrictions hold inside it too.
        """
        candidates = [t for t in self.tools() if t.name != "Task"]
        tools = inherited_tools(candidates, ctx.get_active_tools(), agent.tools)
        session = await create_agent_session(
            cwd=ctx.cwd,
            model=ctx.model,
            tools=[t.name for t in tools],
            custom_tools=tools,
            plugins=[ParentGate(ctx), _SubagentPrompt(_with_memory(agent.prompt, ctx.cwd))],
            plugin_manager=PluginManager(ctx.cwd),
            model_registry=ctx.model_registry,
            session=SessionManager.in_memory(),
        )
        try:
            if signal is not None:
                signal.add_listener(lambda: session.spawn(session.abort()))
            await session.prompt(prompt, expand_prompt_templates=False)
            await session.settle()
            return session.get_last_assistant_text() or ""
        finally:
            await session.shutdown()
