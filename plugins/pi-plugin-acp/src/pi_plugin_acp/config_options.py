"""A pi session's model and thinking level as ACP session config options."""

from __future__ import annotations

from acp.schema import SessionConfigOptionSelect, SessionConfigSelectOption

from pi_core import AgentSession

MODEL = "model"
THINKING = "thought_level"


def _model_key(provider: str, model_id: str) -> str:
    return f"{provider}/{model_id}"


def config_options(session: AgentSession) -> list[SessionConfigOptionSelect]:
    """The select options for the model (models with credentials) and the thinking level."""
    options: list[SessionConfigOptionSelect] = []
    current = session.model
    models = session.model_registry.available_models()
    if current is not None:
        options.append(
            SessionConfigOptionSelect(
                type="select",
                id=MODEL,
                name="Model",
                category="model",
                current_value=_model_key(current.provider, current.id),
                options=[
                    SessionConfigSelectOption(
                        value=_model_key(m.provider, m.id), name=m.name or m.id
                    )
                    for m in models
                ],
            )
        )
    options.append(
        SessionConfigOptionSelect(
            type="select",
            id=THINKING,
            name="Thinking level",
            category="thought_level",
            current_value=session.thinking_level,
            options=[
                SessionConfigSelectOption(value=level, name=level)
                for level in session.available_thinking_levels()
            ],
        )
    )
    return options


async def apply_option(session: AgentSession, config_id: str, value: str) -> None:
    """Set the model (`provider/id`) or the thinking level; ValueError if unknown."""
    if config_id == MODEL:
        provider, _, model_id = value.partition("/")
        model = session.model_registry.find(provider, model_id)
        if model is None:
            raise ValueError(f"unknown model {value}")
        await session.set_model(model)
    elif config_id == THINKING:
        if value not in session.available_thinking_levels():
            raise ValueError(f"unknown thinking level {value}")
        session.set_thinking_level(value)
    else:
        raise ValueError(f"unknown config option {config_id}")
