"""The model to call and where the agent keeps its files: models.json, as pi reads it."""

from __future__ import annotations

import json
import os


class Model:
    """The model to call: from models.json in the agent dir, as `--model provider/id` names it."""

    def __init__(self, spec: str | None) -> None:
        """Read models.json (and settings.json for the default model)."""
        agent = os.environ.get("PI_CODING_AGENT_DIR") or os.path.expanduser("~/.pi/agent")
        self.agent_dir = agent
        with open(os.path.join(agent, "models.json"), "rb") as handle:
            providers = json.loads(handle.read())["providers"]
        if spec is None:
            with open(os.path.join(agent, "settings.json"), "rb") as handle:
                settings = json.loads(handle.read())
            spec = f"{settings['defaultProvider']}/{settings['defaultModel']}"
        provider, _, model_id = spec.partition("/")
        config = providers[provider]
        self.provider, self.id = provider, model_id
        self.url = config["baseUrl"].rstrip("/") + "/chat/completions"
        self.key = config.get("apiKey", "")
