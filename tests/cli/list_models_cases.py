"""`--list-models` cases run by pi 0.73.1 (recorded) and by ours: keys set, searches, models.json.

pi prints the table with console.log; when its stdin is not a terminal its output guard sends
that to stderr, so a recorded run's text is its stderr, ours is stdout.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

# One variable per provider, as pi-ai's env-api-keys.js names them, plus cloud credentials.
EVERY_KEY = {
    name: "k"
    for name in [
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
        "GH_TOKEN",
        "AWS_PROFILE",
    ]
}

MODELS_JSON = {
    "providers": {
        "anthropic": {
            "baseUrl": "http://127.0.0.1:9/anthropic",
            "modelOverrides": {"claude-opus-4-7": {"contextWindow": 500000, "maxTokens": 1500}},
        },
        "groq": {
            "models": [{"id": "my-groq-model", "reasoning": True, "input": ["text", "image"]}]
        },
        "local": {
            "baseUrl": "http://127.0.0.1:9/v1",
            "api": "openai-completions",
            "apiKey": "none",
            "models": [{"id": "qwen2.5-coder:7b", "contextWindow": 32768, "maxTokens": 4096}],
        },
    }
}

CASES: dict[str, dict[str, Any]] = {
    "no-keys": {"env": {}, "args": []},
    "two-keys": {"env": {"ANTHROPIC_API_KEY": "k", "GROQ_API_KEY": "k"}, "args": []},
    "every-key": {"env": EVERY_KEY, "args": []},
    "search": {"env": EVERY_KEY, "args": ["sonnet 4"]},
    "search-digits-first": {"env": EVERY_KEY, "args": ["5gpt"]},
    "no-match": {"env": {"GROQ_API_KEY": "k"}, "args": ["zzzz-nothing"]},
    "cloud-credentials": {
        "env": {
            "AWS_ACCESS_KEY_ID": "a",
            "AWS_SECRET_ACCESS_KEY": "s",
            "GOOGLE_APPLICATION_CREDENTIALS": "{home}/adc.json",
            "GOOGLE_CLOUD_PROJECT": "p",
            "GOOGLE_CLOUD_LOCATION": "us-central1",
        },
        "args": [],
    },
    "vertex-without-location": {
        "env": {"GOOGLE_APPLICATION_CREDENTIALS": "{home}/adc.json", "GCLOUD_PROJECT": "p"},
        "args": [],
    },
    "copilot-and-auth-json": {
        "env": {"GITHUB_TOKEN": "g"},
        "auth": {"openrouter": {"type": "api_key", "key": "k"}},
        "args": ["qwen"],
    },
    "models-json": {
        "env": {"ANTHROPIC_API_KEY": "k", "GROQ_API_KEY": "k"},
        "models": MODELS_JSON,
        "args": [],
    },
}


def run_case(command: list[str], case: dict[str, Any], tmp: Path) -> dict[str, Any]:
    """Run `command --list-models …` in a fresh home and agent folder; its exit code and output."""
    home, agent = tmp / "home", tmp / "agent"
    home.mkdir()
    agent.mkdir()
    (home / "adc.json").write_text("{}")
    if "auth" in case:
        (agent / "auth.json").write_text(json.dumps(case["auth"]))
    if "models" in case:
        (agent / "models.json").write_text(json.dumps(case["models"]))
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(home),
        "PI_CODING_AGENT_DIR": str(agent),
        "PI_OFFLINE": "1",
        "PI_LOCAL_SERVERS": "off",
        **{name: os.environ[name] for name in ("PYTHONPATH",) if name in os.environ},
        **{name: value.format(home=home) for name, value in case["env"].items()},
    }
    # files, not pipes: node's process.exit drops what a pipe has not taken yet (64 KB)
    with open(tmp / "out", "w+b") as out, open(tmp / "err", "w+b") as err:
        done = subprocess.run(
            [*command, "--list-models", *case["args"]], env=env, cwd=tmp, stdout=out,
            stderr=err, stdin=subprocess.DEVNULL, timeout=120,
        )  # fmt: skip
    text = {name: (tmp / name).read_text(encoding="utf-8") for name in ("out", "err")}
    return {"code": done.returncode, "stdout": text["out"], "stderr": text["err"]}
