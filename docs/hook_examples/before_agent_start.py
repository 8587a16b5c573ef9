"""Add house rules to the system prompt, and a reminder when the prompt mentions tests."""

from pi_core import hookimpl
from pi_core.events import BeforeAgentStartEvent, BeforeAgentStartResult, InjectedMessage

RULES = "\n\nHouse rules: use pathlib, never print secrets."


@hookimpl
def before_agent_start(event: BeforeAgentStartEvent) -> BeforeAgentStartResult:
    reminder = None
    if "test" in event.prompt.lower():
        reminder = InjectedMessage(custom_type="reminder", content="Run the tests with pytest -q.")
    return BeforeAgentStartResult(system_prompt=event.system_prompt + RULES, message=reminder)
