"""What an ACP client may tell pi in `_meta.pi`: the agent folder, the model, the thinking level."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from acp import RequestError

from pi_core import AgentSession

META_KEY = "pi"


@dataclass(frozen=True)
class PiMeta:
    """`_meta.pi` of an `initialize` or `session/new` request (each key optional; the agent
    folder is read on `initialize` only)."""

    agent_dir: Path | None = None
    model: str | None = None
    thinking_level: str | None = None

    def over(self, base: PiMeta) -> PiMeta:
        """These values, falling back to `base`'s where unset."""
        return PiMeta(
            agent_dir=self.agent_dir or base.agent_dir,
            model=self.model or base.model,
            thinking_level=self.thinking_level or base.thinking_level,
        )


def pi_meta(kwargs: dict[str, Any]) -> PiMeta:
    """Read `_meta.pi` from a request's extra keyword arguments (the SDK spreads `_meta`)."""
    raw = kwargs.get(META_KEY)
    if raw is None:
        return PiMeta()
    if not isinstance(raw, dict):
        raise RequestError.invalid_params({"message": "_meta.pi must be an object"})
    return PiMeta(
        agent_dir=Path(_text(raw, "agentDir")).expanduser() if raw.get("agentDir") else None,
        model=_text(raw, "model") or None,
        thinking_level=_text(raw, "thinkingLevel") or None,
    )


def _text(raw: dict[str, Any], key: str) -> str:
    value = raw.get(key, "")
    if not isinstance(value, str):
        raise RequestError.invalid_params({"message": f"_meta.pi.{key} must be a string"})
    return value


def no_model_error(agent_dir: Path) -> RequestError:
    """The `auth_required` error for a session without a model, saying how to get one."""
    return RequestError.auth_required(
        {
            "message": (
                "No model selected. Run `pi acp --login` in a terminal to log in or store an "
                "API key, set the session's `model` config option, or pass "
                '`_meta: {"pi": {"model": "provider/id"}}` on session/new. Models come from '
                f"API keys (auth.json, environment) and {agent_dir / 'models.json'}."
            )
        }
    )


def require_model(session: AgentSession, agent_dir: Path) -> None:
    """Raise the `auth_required` error when the session has no model."""
    if session.model is None:
        raise no_model_error(agent_dir)
