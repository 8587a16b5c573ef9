"""Environment setups under which pi-ai's getEnvApiKey is recorded for every provider.

`{home}` stands for the fresh home folder of the run; `adc` says whether the home holds gcloud's
application-default credentials file (`.config/gcloud/application_default_credentials.json`).
"""

from __future__ import annotations

from typing import Any

_EVERY = [
    "ANTHROPIC_OAUTH_TOKEN",
    "ANTHROPIC_API_KEY",
    "OPENAI_API_KEY",
    "AZURE_OPENAI_API_KEY",
    "DEEPSEEK_API_KEY",
    "GEMINI_API_KEY",
    "GOOGLE_CLOUD_API_KEY",
    "GROQ_API_KEY",
    "CEREBRAS_API_KEY",
    "XAI_API_KEY",
    "OPENROUTER_API_KEY",
    "AI_GATEWAY_API_KEY",
    "ZAI_API_KEY",
    "MISTRAL_API_KEY",
    "MINIMAX_API_KEY",
    "MINIMAX_CN_API_KEY",
    "MOONSHOT_API_KEY",
    "HF_TOKEN",
    "FIREWORKS_API_KEY",
    "OPENCODE_API_KEY",
    "KIMI_API_KEY",
    "CLOUDFLARE_API_KEY",
    "XIAOMI_API_KEY",
    "XIAOMI_TOKEN_PLAN_CN_API_KEY",
    "XIAOMI_TOKEN_PLAN_AMS_API_KEY",
    "XIAOMI_TOKEN_PLAN_SGP_API_KEY",
    "COPILOT_GITHUB_TOKEN",
    "GH_TOKEN",
    "GITHUB_TOKEN",
    "CODEX_API_KEY",
    "OPENAI_CODEX_API_KEY",
    "AWS_PROFILE",
]

VARIABLES = sorted(
    {
        *_EVERY,
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
        "AWS_BEARER_TOKEN_BEDROCK",
        "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
        "AWS_CONTAINER_CREDENTIALS_FULL_URI",
        "AWS_WEB_IDENTITY_TOKEN_FILE",
        "GOOGLE_APPLICATION_CREDENTIALS",
        "GOOGLE_CLOUD_PROJECT",
        "GCLOUD_PROJECT",
        "GOOGLE_CLOUD_LOCATION",
    }
)
"""Every variable a setup may set; the test clears them all first."""

VERTEX = {"GOOGLE_CLOUD_PROJECT": "p", "GOOGLE_CLOUD_LOCATION": "l"}

SETUPS: dict[str, dict[str, Any]] = {
    "nothing": {"env": {}},
    "every-variable": {"env": {name: f"v-{name}" for name in _EVERY}},
    "second-choices": {"env": {"ANTHROPIC_API_KEY": "a", "GH_TOKEN": "g", "GITHUB_TOKEN": "h"}},
    "last-copilot-choice": {"env": {"GITHUB_TOKEN": "h"}},
    "empty-values": {
        "env": {"ANTHROPIC_OAUTH_TOKEN": "", "ANTHROPIC_API_KEY": "a", "HF_TOKEN": ""}
    },
    "aws-access-key-alone": {"env": {"AWS_ACCESS_KEY_ID": "a"}},
    "aws-access-keys": {"env": {"AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "s"}},
    "aws-bearer": {"env": {"AWS_BEARER_TOKEN_BEDROCK": "b"}},
    "aws-container-relative": {"env": {"AWS_CONTAINER_CREDENTIALS_RELATIVE_URI": "/c"}},
    "aws-container-full": {"env": {"AWS_CONTAINER_CREDENTIALS_FULL_URI": "http://c"}},
    "aws-web-identity": {"env": {"AWS_WEB_IDENTITY_TOKEN_FILE": "/t"}},
    "vertex-credentials-file": {
        "env": {"GOOGLE_APPLICATION_CREDENTIALS": "{home}/sa.json", **VERTEX},
        "files": ["sa.json"],
    },
    "vertex-credentials-file-missing": {
        "env": {"GOOGLE_APPLICATION_CREDENTIALS": "{home}/missing.json", **VERTEX},
        "adc": True,
    },
    "vertex-gcloud-adc": {"env": VERTEX, "adc": True},
    "vertex-gcloud-project": {
        "env": {"GCLOUD_PROJECT": "p", "GOOGLE_CLOUD_LOCATION": "l"},
        "adc": True,
    },
    "vertex-without-location": {"env": {"GOOGLE_CLOUD_PROJECT": "p"}, "adc": True},
    "vertex-without-project": {"env": {"GOOGLE_CLOUD_LOCATION": "l"}, "adc": True},
    "vertex-without-credentials": {"env": VERTEX},
    "vertex-key-wins": {"env": {"GOOGLE_CLOUD_API_KEY": "g", **VERTEX}, "adc": True},
}

EXTRA_PROVIDERS = ["custom-provider"]
"""A name pi has no variables for (a models.json provider)."""
