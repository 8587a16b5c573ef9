"""A `--plan` flag: when given, the system prompt asks the model to plan without editing files."""

from collections.abc import Callable

from pi_core import ExtensionContext, hookimpl
from pi_core.events import BeforeAgentStartEvent, BeforeAgentStartResult


@hookimpl
def register_flags(register: Callable[..., None]) -> None:
    register("plan", type="boolean", default=False, description="Plan only; edit nothing")


@hookimpl
def before_agent_start(
    event: BeforeAgentStartEvent, ctx: ExtensionContext
) -> BeforeAgentStartResult | None:
    if not ctx.get_flag("plan"):
        return None
    return BeforeAgentStartResult(
        system_prompt=event.system_prompt + "\n\nOnly plan: edit no files."
    )
